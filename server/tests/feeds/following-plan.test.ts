import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema';
import { type ListPostIdsParams, choosePlan, postIdsQuery } from '../../src/modules/posts/posts.repository';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * A page of the following feed is a page-sized read: on PostgreSQL at a million posts the planner
 * sent it to parallel workers (Gather Merge, 45 ms of start-up before the first row) for a walk
 * that takes a few milliseconds alone. The server's connections run without parallel workers or
 * JIT compilation. Here the planner is made to find both attractive on a small table (every
 * parallel and JIT threshold at zero, in the test's own transaction), as they are at a million rows.
 */
describe('the following feed\'s plan', () => {
  const t = useTestApp();
  const AUTHORS = 500;
  const POSTS = 20_000;
  const FOLLOWED = 10;
  const reader = 'r'.padEnd(24, '0');
  /** A 24-character id: the letter and the number padded to 23 digits. */
  const id = (letter: string, n: string) => TEST_DB === 'postgres' ? `'${letter}' || lpad((${n})::text, 23, '0')` : `'${letter}' || printf('%023d', ${n})`;
  const userId = (n: string) => id('u', n);

  beforeAll(async () => {
    const db = t.app.db;
    // Numbers 1..N: PostgreSQL has generate_series, SQLite a recursive view of its own.
    const series = (n: number) => TEST_DB === 'postgres'
      ? `generate_series(1, ${n}) as s(n)`
      : `(with recursive c(n) as (select 1 union all select n + 1 from c where n < ${n}) select n from c) as s`;
    await sql.raw(`insert into users (id, username, username_lower, username_skeleton, verified, search_text, created_at)
      select ${userId('s.n')}, 'author' || s.n, 'author' || s.n, 'author' || s.n, 1, 'author' || s.n, 0 from ${series(AUTHORS)}`).execute(db);
    await sql.raw(`insert into users (id, username, username_lower, username_skeleton, verified, search_text, created_at)
      values ('${reader}', 'reader', 'reader', 'reader', 1, 'reader', 0)`).execute(db);
    await sql.raw(`insert into posts (id, author_id, text, search_text, created_at)
      select ${id('p', 's.n')}, ${userId(`(s.n % ${AUTHORS} + 1)`)}, 'post', 'post', s.n * 1000 from ${series(POSTS)}`).execute(db);
    await sql.raw(`insert into follows (follower_id, following_id, created_at)
      select '${reader}', ${userId(`(s.n * ${AUTHORS / FOLLOWED})`)}, 0 from ${series(FOLLOWED)}`).execute(db);
    await sql.raw('analyze').execute(db);
  }, 60_000);

  const params = (offset = 0): ListPostIdsParams => ({
    viewerId: reader,
    scope: { kind: 'following', userId: reader },
    sort: 'newest',
    since: 0,
    before: POSTS * 1000,
    offset,
    fetch: 5,
  });

  /** The plan of the page's statement as the server's connections would run it. */
  async function planOf(listing: ListPostIdsParams): Promise<string> {
    const explain = async (db: Kysely<Database>) => {
      const compiled = postIdsQuery(db, listing, await choosePlan(db, listing)).compile();
      const prefix = TEST_DB === 'postgres' ? 'EXPLAIN (VERBOSE)' : 'EXPLAIN QUERY PLAN';
      const rows = await db.executeQuery<Record<string, string>>({ ...compiled, sql: `${prefix} ${compiled.sql}` });
      return rows.rows.map((row) => row['QUERY PLAN'] ?? row.detail).join('\n');
    };
    if (TEST_DB !== 'postgres') return explain(t.app.db);
    return t.app.db.transaction().execute(async (trx) => {
      for (const setting of ['parallel_setup_cost', 'parallel_tuple_cost', 'min_parallel_table_scan_size', 'min_parallel_index_scan_size', 'jit_above_cost']) {
        await sql.raw(`set local ${setting} = 0`).execute(trx);
      }
      return explain(trx);
    });
  }

  it.each([0, 50])('reads its page in the server\'s own process, without parallel workers or JIT (offset %i)', async (offset) => {
    const plan = await planOf(params(offset));
    expect(plan, plan).not.toMatch(/Gather|Parallel|JIT/);
    // Every table through an index: SQLite reads the few followed authors' posts by posts_author.
    if (TEST_DB === 'sqlite') expect(plan, plan).toMatch(/posts_author/);
    expect(plan, plan).not.toMatch(/^SCAN posts$|Seq Scan on posts/m);
  });

  it('lists the followed authors\' newest posts, newest first', async () => {
    const ids = await postIdsQuery(t.app.db, params(), await choosePlan(t.app.db, params())).execute();
    // Author k wrote the posts numbered k - 1 modulo 500; the followed are authors 50, 100, ... 500.
    const expected = Array.from({ length: POSTS }, (_, i) => i + 1)
      .filter((n) => (n % AUTHORS + 1) % (AUTHORS / FOLLOWED) === 0)
      .slice(-5)
      .reverse()
      .map((n) => `p${String(n).padStart(23, '0')}`);
    expect(ids.map((row) => row.id)).toEqual(expected);
  });
});
