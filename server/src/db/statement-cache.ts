import type SQLite from 'better-sqlite3';

/** How many distinct SQL texts keep their prepared statement: the app issues a few hundred at most. */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite database with `prepare` answering from a cache of prepared statements, one per SQL
 * text, least recently used dropped first past `size`; everything else (pragma, transaction,
 * close...) is the database's own.
 *
 * Why: Kysely's SQLite driver calls `prepare(sql)` for every query it runs, and compiling the SQL
 * again each time was 13% of the CPU of `GET /api/feed` under load. A better-sqlite3 statement can
 * be run again and again (`all`, `run`, `get` reset it when done; SQLite re-prepares it by itself
 * if the schema changes). The only statement that cannot be shared is one still being read
 * through `iterate` (Kysely's `stream()`): while it is busy, `prepare` hands out a fresh, uncached
 * statement instead.
 */
export function withStatementCache(database: SQLite.Database, size = STATEMENT_CACHE_SIZE): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = (sql: string): SQLite.Statement => {
    const cached = cache.get(sql);
    if (cached) {
      if (cached.busy) return database.prepare(sql);
      // Map keeps insertion order: moving the hit to the end makes the first key the least recently used.
      cache.delete(sql);
      cache.set(sql, cached);
      return cached;
    }
    const statement = database.prepare(sql);
    cache.set(sql, statement);
    if (cache.size > size) cache.delete(cache.keys().next().value as string);
    return statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === 'prepare') return prepare;
      const value: unknown = Reflect.get(target, property, target);
      // The native methods need the real database as `this`, not the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
