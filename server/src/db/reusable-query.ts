import type { Compilable, QueryResult } from 'kysely';
import { type BoundArgs, boundShapeOf, executeBound } from './bound-statements.js';
import type { Executor } from './schema.js';

/** What a reusable statement's arguments may be: values bound in place of `?` (or `$n`), nothing else. */
type Value = string | number;

/** A statement of one shape, built once and run with new values (see reusableQuery). */
export interface ReusableQuery<A extends Value[], R> {
  run(db: Executor, ...args: A): Promise<QueryResult<R>>;
  /** The first row, or undefined. */
  first(db: Executor, ...args: A): Promise<R | undefined>;
  /** How many rows an insert, update or delete touched. */
  changes(db: Executor, ...args: A): Promise<number>;
  /** Whether the call's shape is kept bound, built every time, or not yet met (tests). */
  shapeOf(db: Executor, ...args: A): ReturnType<typeof boundShapeOf>;
}

/** Each builder's own name among the bound statements. */
let made = 0;

/** The arguments as runBound names them: by their places, the list itself standing for the record. */
const named = (args: readonly Value[]): BoundArgs => args as unknown as BoundArgs;

/**
 * A hot statement whose arguments, given in order, are only ever values (a like, a rate event, a
 * token by its hash): the statements of bound-statements.ts, whose builder takes its arguments
 * positionally beside the database. Building and compiling such a query on every request was about
 * a sixth of a like's CPU, for the same SQL text every time.
 *
 * `build` should use its arguments only as values handed to Kysely (`where('id', '=', id)`): one
 * that reworks an argument (`like:${user}`, `now - 1000`) or writes it into the SQL is noticed
 * when the shape is learnt and then built on every call, which is correct, only slower.
 */
export function reusableQuery<A extends Value[], R>(build: (db: Executor, ...args: A) => Compilable<R>): ReusableQuery<A, R> {
  made += 1;
  const name = `reusable#${made}`;
  const positional = (bound: BoundArgs, count: number) => Array.from({ length: count }, (_, i) => bound[i]) as A;
  const run = (db: Executor, ...args: A): Promise<QueryResult<R>> =>
    executeBound(db, name, named(args), (bound) => build(db, ...positional(bound, args.length)));
  return {
    run,
    first: async (db, ...args) => (await run(db, ...args)).rows[0],
    changes: async (db, ...args) => Number((await run(db, ...args)).numAffectedRows ?? 0n),
    shapeOf: (db, ...args) => boundShapeOf(db, name, named(args)),
  };
}
