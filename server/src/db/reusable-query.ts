import type { CompiledQuery, Compilable, DialectAdapter, QueryResult } from 'kysely';
import type { Executor } from './schema.js';

/** What a reusable statement's arguments may be: values bound in place of `?` (or `$n`), nothing else. */
type Value = string | number;

interface Template {
  compiled: CompiledQuery;
  /** For each bound parameter, the argument it takes (a number) or the value it keeps. */
  slots: ({ arg: number } | { value: unknown })[];
}

/** A statement built once per database, run with new values (see reusableQuery). */
export interface ReusableQuery<A extends Value[], R> {
  run(db: Executor, ...args: A): Promise<QueryResult<R>>;
  /** The first row, or undefined. */
  first(db: Executor, ...args: A): Promise<R | undefined>;
  /** How many rows an insert, update or delete touched. */
  changes(db: Executor, ...args: A): Promise<number>;
}

const marker = (i: number) => `\u0000kruh-arg-${i}\u0000`;

/**
 * A statement of a hot path that Kysely builds and compiles once per database (one per dialect and
 * connection pool: a transaction shares its database's) and that each later call runs with its own
 * values. Building and compiling a query again on every request was about a sixth of a like's CPU,
 * for the same SQL text every time.
 *
 * `build` is called once with a marker in place of each argument, so it must use its arguments
 * only as values handed to Kysely (`where('id', '=', id)`), never to choose the statement's shape
 * (`if`, a ternary, arithmetic, a template string). The compiled statement is checked: every
 * argument must come back as a bound parameter of its own and nowhere else, so most misuse throws
 * on the first call instead of running a different statement.
 */
export function reusableQuery<A extends Value[], R>(build: (db: Executor, ...args: A) => Compilable<R>): ReusableQuery<A, R> {
  // The arguments after the database, each named in the builder's own list (no rest parameter).
  const arity = build.length - 1;
  const templates = new WeakMap<DialectAdapter, Template>();
  const templateFor = (db: Executor): Template => {
    const adapter = db.getExecutor().adapter;
    let template = templates.get(adapter);
    if (!template) {
      const markers = Array.from({ length: arity }, (_, i) => marker(i));
      const compiled = build(db, ...(markers as A)).compile();
      if (compiled.sql.includes('\u0000')) throw new Error(`reusableQuery: an argument was written into the SQL text: ${compiled.sql}`);
      template = { compiled, slots: compiled.parameters.map((value) => slotOf(value, markers)) };
      for (let i = 0; i < arity; i++) {
        if (!template.slots.some((slot) => 'arg' in slot && slot.arg === i)) throw new Error(`reusableQuery: argument ${i} is not bound as a value in: ${compiled.sql}`);
      }
      templates.set(adapter, template);
    }
    return template;
  };
  const run = async (db: Executor, ...args: A): Promise<QueryResult<R>> => {
    const { compiled, slots } = templateFor(db);
    const parameters = slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    return db.executeQuery<R>({ ...compiled, parameters } as CompiledQuery<R>);
  };
  return {
    run,
    first: async (db, ...args) => (await run(db, ...args)).rows[0],
    changes: async (db, ...args) => Number((await run(db, ...args)).numAffectedRows ?? 0n),
  };
}

function slotOf(value: unknown, markers: string[]): Template['slots'][number] {
  const arg = markers.indexOf(value as string);
  if (arg >= 0) return { arg };
  if (typeof value === 'string' && value.includes('\u0000')) throw new Error(`reusableQuery: an argument was changed before it was bound: ${JSON.stringify(value)}`);
  return { value };
}
