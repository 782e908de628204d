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

/**
 * A statement whose best plan depends on its values is sent unnamed when it carries this comment,
 * so PostgreSQL plans it for the values of each call. A search is one: a common word is best found
 * by walking the newest posts and testing each, a rare one through the trigram index, and a plan
 * kept for "any word" reads every match of a common pair of words before taking the newest (70 ms
 * against 1 ms, at 100,000 posts where one in seven has both).
 */
export const PLAN_FOR_VALUES = '/* plan for values */';

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

/** What one connection has prepared, and whether it is inside a transaction now. */
interface Connection {
  named: Set<string>;
  /** Statements prepared again after their plan went stale, by name: how many times. */
  renewed: Map<string, number>;
  inTransaction: boolean;
}

const connections = new WeakMap<pg.PoolClient, Connection>();

const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
/** A whole transaction's end; `rollback to savepoint` leaves it open. */
const TRANSACTION_END = /^\s*(commit|end|abort)\b|^\s*rollback\s*(;\s*)?$/i;

/**
 * PostgreSQL's refusal to run a prepared statement whose result columns changed since it was
 * prepared: another process's migration altered a table under a `select *`. The statement must be
 * prepared again; the one kept under its name answers nothing any more.
 */
const isStalePlan = (error: unknown): boolean =>
  error instanceof Error && (error as { code?: string }).code === '0A000' && /cached plan must not change result type/.test(error.message);

function preparing(client: pg.PoolClient, cap: number): PostgresPoolClient {
  const connection = connections.get(client) ?? { named: new Set(), renewed: new Map(), inTransaction: false };
  connections.set(client, connection);
  const { named, renewed } = connection;

  /** Runs `text` under its name on this connection, preparing it first there if need be. */
  const run = (text: string, values: unknown[]) => {
    if (text.includes(PLAN_FOR_VALUES)) return client.query(text, values);
    const base = nameOf(text);
    const times = renewed.get(base);
    const name = times === undefined ? base : `${base}_${times}`;
    if (!named.has(name)) {
      if (named.size >= cap) return client.query(text, values);
      named.add(name);
    }
    return client.query({ name, text, values });
  };

  return {
    query: ((text: unknown, values?: ReadonlyArray<unknown>) => {
      if (typeof text !== 'string' || values === undefined || !PREPARABLE.test(text)) {
        // Transaction control is never a data statement, so only this path needs watching for it.
        if (typeof text === 'string') {
          if (TRANSACTION_START.test(text)) connection.inTransaction = true;
          else if (TRANSACTION_END.test(text)) connection.inTransaction = false;
        }
        return (client.query as (...args: unknown[]) => unknown)(text, values);
      }
      const args = [...values];
      return run(text, args).catch((error: unknown) => {
        if (!isStalePlan(error)) throw error;
        const base = nameOf(text);
        renewed.set(base, (renewed.get(base) ?? 0) + 1);
        // Inside a transaction the refusal has aborted it, so only the next use can succeed;
        // outside, the statement is simply sent again, prepared anew.
        if (connection.inTransaction) throw error;
        return run(text, args);
      });
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
