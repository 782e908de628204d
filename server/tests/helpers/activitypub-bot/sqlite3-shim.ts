import BetterSqlite3 from 'better-sqlite3';

/**
 * The part of the `sqlite3` package's API that Sequelize's SQLite dialect calls, answered by
 * better-sqlite3 (already a dependency of the server). The bot keeps its data through Sequelize,
 * whose SQLite dialect loads `sqlite3`: a native module whose build the install does not run. Only
 * the test's bot process loads this, in place of that package (peer-process.ts).
 */

type Callback = (this: RunResult | void, error: Error | null, rows?: unknown[]) => void;

interface RunResult {
  lastID: number;
  changes: number;
}

/** sqlite3 answers on a later turn; Sequelize relies on it (it stores the handle before its open callback reads it). */
const later = (callback: () => void) => setImmediate(callback);

/** sqlite3 takes `$name` keys and booleans; better-sqlite3 wants bare names and 0/1. */
function bindable(parameters: unknown): unknown[] | Record<string, unknown> {
  const value = (v: unknown) => (typeof v === 'boolean' ? Number(v) : v === undefined ? null : v);
  if (Array.isArray(parameters)) return parameters.map(value);
  if (parameters && typeof parameters === 'object') {
    return Object.fromEntries(Object.entries(parameters).map(([key, v]) => [key.replace(/^[$:@]/, ''), value(v)]));
  }
  return [];
}

class Database {
  readonly filename: string;
  private readonly db: BetterSqlite3.Database;

  constructor(filename: string, _mode?: number, callback?: (error: Error | null) => void) {
    this.filename = filename;
    this.db = new BetterSqlite3(filename);
    if (callback) later(() => callback(null));
  }

  serialize(work?: () => void): void {
    // Every statement already runs in order: better-sqlite3 is synchronous.
    work?.();
  }

  run(sql: string, parameters?: unknown, callback?: Callback): this {
    return this.execute(sql, parameters, callback, false);
  }

  all(sql: string, parameters?: unknown, callback?: Callback): this {
    return this.execute(sql, parameters, callback, true);
  }

  exec(sql: string, callback?: (error: Error | null) => void): this {
    let failure: Error | null = null;
    try {
      this.db.exec(sql);
    } catch (error) {
      failure = error as Error;
    }
    if (callback) later(() => callback(failure));
    return this;
  }

  close(callback?: (error: Error | null) => void): void {
    this.db.close();
    if (callback) later(() => callback(null));
  }

  private execute(sql: string, parameters: unknown, callback: Callback | undefined, rows: boolean): this {
    const done: Callback = typeof parameters === 'function' ? (parameters as Callback) : (callback ?? (() => undefined));
    let outcome: { result: RunResult; rows: unknown[] } | { error: Error };
    try {
      const statement = this.db.prepare(sql);
      const bound = bindable(typeof parameters === 'function' ? undefined : parameters);
      if (statement.reader) {
        outcome = { result: { lastID: 0, changes: 0 }, rows: statement.all(bound) };
      } else {
        const info = statement.run(bound);
        outcome = { result: { lastID: Number(info.lastInsertRowid), changes: info.changes }, rows: [] };
      }
    } catch (error) {
      outcome = { error: error as Error };
    }
    later(() => {
      if ('error' in outcome) done.call(undefined, outcome.error);
      else if (rows) done.call(outcome.result, null, outcome.rows);
      else done.call(outcome.result, null);
    });
    return this;
  }
}

export const OPEN_READONLY = 0x1;
export const OPEN_READWRITE = 0x2;
export const OPEN_CREATE = 0x4;
export { Database };
export default { Database, OPEN_READONLY, OPEN_READWRITE, OPEN_CREATE };
