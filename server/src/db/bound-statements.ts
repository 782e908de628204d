import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { dialectOf } from './dialect.js';
import type { Executor } from './schema.js';

/**
 * Hot reads built by Kysely once per shape, then only bound: the statement is built from marker
 * values standing for its arguments, compiled, and each later call of the same shape sends that SQL
 * with its own values put where the markers were. Building a page's statements through Kysely
 * (parsing references, walking and freezing its tree, compiling) cost about as much CPU as SQLite
 * spent running them; the SQL sent is the same text, so the statement caches (statement-cache.ts,
 * pg-prepared.ts) and the plans stay as they were.
 *
 * What may change a statement's text rather than its values is part of its shape, found from the
 * arguments themselves: which are null, undefined, zero or empty, each list's length, each flag.
 * A shape is learnt by building it twice with two different sets of markers: it is kept only if both
 * give the same SQL and every value sent is either a marker, in place, or the same constant in both
 * (a value the builder reworked, wrote into the SQL or branched on by its content shows up as a
 * difference, and that statement is then built every time, as before). Under the tests each bound
 * call is also built from its real values and must match, so a shape the markers missed fails a test.
 */

/** An argument: a string or a positive number is bound; anything else is part of the shape. */
export type BoundValue = string | number | boolean | null | undefined | readonly string[];
export type BoundArgs = Record<string, BoundValue>;

/** Where a parameter's value comes from: an argument (an element of a list one), or a constant. */
type Source = { arg: string; index: number | undefined } | { constant: unknown };

interface Shape {
  compiled: CompiledQuery;
  sources: Source[];
}

/** Shapes kept at most: each name has a few (list lengths up to a page, a viewer or none). */
export const BOUND_SHAPES_MAX = 2_000;

/** Learnt shapes by dialect, name and argument shape; null marks a shape that cannot be bound. */
const shapes = new Map<string, Shape | null>();

/** Checks each bound call against the statement built from its real values (set under the tests). */
const VERIFY = process.env.VITEST !== undefined;

/* Markers: a string one holds a private-use character, spaces and upper case, so trimming, case folding or escaping
 * it shows; a number one is positive and not an integer, far above any count or timestamp. */
const stringMarker = (set: number, leaf: number) => ` \uE000KRUH${set}:${leaf}\uE000 `;
const STRING_MARKER = /^ \uE000KRUH(\d):(\d+)\uE000 $/;
const NUMBER_BASE = [1e15, 1.5e15] as const;
const numberMarker = (set: number, leaf: number) => NUMBER_BASE[set]! + leaf + 0.25;

function isBound(value: BoundValue): value is string | number {
  return (typeof value === 'string' && value !== '') || (typeof value === 'number' && value > 0);
}

/** The shape of the arguments: what of them may change the statement's text. */
function signature(args: BoundArgs): string {
  return Object.keys(args)
    .map((name) => {
      const value = args[name];
      if (Array.isArray(value)) return `${name}:[${value.length}]`;
      if (isBound(value as BoundValue)) return `${name}:${typeof value}`;
      return `${name}=${JSON.stringify(value) ?? 'undefined'}`;
    })
    .join(',');
}

/** The arguments with markers of `set` in place of their bound values, and where each marker stands for. */
function marked(args: BoundArgs, set: number): { values: BoundArgs; leaves: { arg: string; index: number | undefined }[] } {
  const leaves: { arg: string; index: number | undefined }[] = [];
  const mark = (value: string | number, arg: string, index: number | undefined) => {
    const leaf = leaves.push({ arg, index }) - 1;
    return typeof value === 'number' ? numberMarker(set, leaf) : stringMarker(set, leaf);
  };
  const values: BoundArgs = {};
  for (const [name, value] of Object.entries(args)) {
    if (Array.isArray(value)) values[name] = value.map((item: string, i) => mark(item, name, i) as string);
    else values[name] = isBound(value as BoundValue) ? mark(value as string | number, name, undefined) : value;
  }
  return { values, leaves };
}

/** The leaf a parameter marks in `set`, or undefined when it is no marker of that set. */
function leafOf(value: unknown, set: number): number | undefined {
  if (typeof value === 'string') {
    const match = STRING_MARKER.exec(value);
    return match && Number(match[1]) === set ? Number(match[2]) : undefined;
  }
  if (typeof value === 'number') {
    const leaf = value - 0.25 - NUMBER_BASE[set]!;
    return Number.isInteger(leaf) && leaf >= 0 && leaf < 100_000 ? leaf : undefined;
  }
  return undefined;
}

const hasMarkerText = (value: unknown) =>
  (typeof value === 'string' && value.includes('\uE000')) || (typeof value === 'number' && value >= NUMBER_BASE[0]);

function learn<A extends BoundArgs>(build: (args: A) => Compilable<unknown>, args: A): Shape | null {
  const first = marked(args, 0);
  const second = marked(args, 1);
  const a = build(first.values as A).compile();
  const b = build(second.values as A).compile();
  if (a.sql !== b.sql || a.parameters.length !== b.parameters.length || a.sql.includes('\uE000')) return null;
  const sources: Source[] = [];
  for (let i = 0; i < a.parameters.length; i++) {
    const pa = a.parameters[i];
    const pb = b.parameters[i];
    const leaf = leafOf(pa, 0);
    if (leaf !== undefined) {
      if (leafOf(pb, 1) !== leaf) return null;
      sources.push(first.leaves[leaf]!);
    } else if (hasMarkerText(pa) || hasMarkerText(pb) || JSON.stringify(pa) !== JSON.stringify(pb)) {
      return null;
    } else {
      sources.push({ constant: pa });
    }
  }
  return { compiled: a, sources };
}

function bind(shape: Shape, args: BoundArgs): CompiledQuery {
  const parameters = shape.sources.map((source) => {
    if ('constant' in source) return source.constant;
    const value = args[source.arg];
    return source.index === undefined ? value : (value as readonly string[])[source.index];
  });
  return { ...shape.compiled, parameters };
}

/**
 * Runs the statement `build` makes of `args`, built once per shape under `name` (one name for one
 * builder: two builders must not share it). `build` must make the statement from `args` alone.
 */
export async function runBound<A extends BoundArgs, R>(db: Executor, name: string, args: A, build: (args: A) => Compilable<R>): Promise<R[]> {
  return (await executeBound(db, name, args, build)).rows;
}

/** runBound's whole result, with the rows a change touched. */
export async function executeBound<A extends BoundArgs, R>(db: Executor, name: string, args: A, build: (args: A) => Compilable<R>): Promise<QueryResult<R>> {
  const key = `${dialectOf(db)}|${name}|${signature(args)}`;
  let shape = shapes.get(key);
  if (shape === undefined) {
    shape = learn(build, args);
    if (shapes.size < BOUND_SHAPES_MAX) shapes.set(key, shape);
  }
  if (shape === null) return db.executeQuery(build(args));
  const query = bind(shape, args);
  if (VERIFY) {
    const built = build(args).compile();
    if (built.sql !== query.sql || JSON.stringify(built.parameters) !== JSON.stringify(query.parameters)) {
      throw new Error(`The bound statement ${name} differs from the one built from its values:\n${built.sql}\n${JSON.stringify(built.parameters)}\n${query.sql}\n${JSON.stringify(query.parameters)}`);
    }
  }
  return db.executeQuery<R>(query as CompiledQuery<R>);
}

/** Whether a shape of `name` was learnt as bindable (tests). */
export function boundShapeOf(db: Executor, name: string, args: BoundArgs): 'bound' | 'built' | 'unknown' {
  const shape = shapes.get(`${dialectOf(db)}|${name}|${signature(args)}`);
  return shape === undefined ? 'unknown' : shape === null ? 'built' : 'bound';
}
