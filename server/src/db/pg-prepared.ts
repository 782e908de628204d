import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/**
 * PostgreSQL plans every statement it is sent unless the statement is prepared once on the
 * connection and then only executed. The app sends the same few hundred statement texts over and
 * over (only the values change), so each data statement is sent as a named prepared statement:
 * the first use on a connection parses it, later uses skip the parse, and after a few executions
 * PostgreSQL keeps a generic plan when it costs no more than planning each time (its default
 * `plan_cache_mode`). SQLite gets the same from its statement cache (statement-cache.ts).
 */

/** Statements that may be prepared; DDL (migrations) and anything else go as they come. */
const PREPARABLE = /^\s*(select|insert|update|delete|with)\b/i;
/**
 * Named statements kept per connection at most: each holds a parse tree (and a plan) on the server,
 * and texts differ with the length of `in (...)` lists, so a connection past the cap sends new
 * texts unnamed rather than grow without bound.
 */
export const PREPARED_PER_CONNECTION = 1_000;

const names = new Map<string, string>();

/** The statement's name: the same for the same text in every process, within PostgreSQL's 63 bytes. */
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `k${createHash('sha1').update(text).digest('base64url')}`;
    if (names.size < PREPARED_PER_CONNECTION * 4) names.set(text, name);
  }
  return name;
}

const prepared = new WeakMap<pg.PoolClient, Set<string>>();

function preparing(client: pg.PoolClient, cap: number): PostgresPoolClient {
  let kept = prepared.get(client);
  if (!kept) {
    kept = new Set();
    prepared.set(client, kept);
  }
  const named = kept;
  return {
    query: ((text: unknown, values?: ReadonlyArray<unknown>) => {
      if (typeof text !== 'string' || values === undefined || !PREPARABLE.test(text)) {
        return (client.query as (...args: unknown[]) => unknown)(text, values);
      }
      const name = nameOf(text);
      if (!named.has(name)) {
        if (named.size >= cap) return client.query(text, [...values]);
        named.add(name);
      }
      return client.query({ name, text, values: [...values] });
    }) as PostgresPoolClient['query'],
    release: () => client.release(),
  };
}

/** The pool as Kysely's PostgreSQL dialect sees it, its connections sending prepared statements. */
export function withPreparedStatements(pool: pg.Pool, cap = PREPARED_PER_CONNECTION): PostgresPool {
  return {
    connect: async () => preparing(await pool.connect(), cap),
    end: () => pool.end(),
  };
}
