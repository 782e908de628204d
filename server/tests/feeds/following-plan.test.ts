import { type Kysely, sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/schema';
import { type ListPostIdsParams, choosePlan, followsASharer, listPostIds, postIdsQuery } from '../../src/modules/feeds/feeds.repository';
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
  const sharingReader = 'r'.padEnd(24, '1');
  const community = 'c'.padEnd(24, '0');
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
    // A second reader follows the same authors and a community, which passed on every post of
    // author 7 (one nobody here follows).
    await sql.raw(`insert into users (id, username, username_lower, username_skeleton, verified, search_text, created_at)
      values ('${sharingReader}', 'reader2', 'reader2', 'reader2', 1, 'reader2', 0), ('${community}', 'garden@lemmy.example', 'garden@lemmy.example', 'garden@lemmy.example', 1, 'garden', 0)`).execute(db);
    await sql.raw(`insert into follows (follower_id, following_id, created_at)
      select '${sharingReader}', following_id, 0 from follows where follower_id = '${reader}' union all select '${sharingReader}', '${community}', 0`).execute(db);
    await sql.raw(`insert into post_shares (sharer_id, post_id, created_at)
      select '${community}', id, created_at from posts where author_id = ${userId('7')}`).execute(db);
    await sql.raw(`insert into post_sharers (user_id) values ('${community}')`).execute(db);
    await sql.raw('analyze').execute(db);
  }, 60_000);

  const params = (offset = 0, viewer = reader): ListPostIdsParams => ({
    viewerId: viewer,
    scope: { kind: 'following', userId: viewer, shares: viewer === sharingReader },
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
    // SQLite reads the few followed authors' posts by posts_author, never every post. (PostgreSQL
    // may rightly scan a table this small whole; at a million posts its statistics say otherwise.)
    if (TEST_DB === 'sqlite') {
      expect(plan, plan).toMatch(/posts_author/);
      expect(plan, plan).not.toMatch(/^SCAN posts$/m);
    }
  });

  it.each([0, 50])('reads a page with a followed community\'s shares through indexes too (offset %i)', async (offset) => {
    const plan = await planOf(params(offset, sharingReader));
    expect(plan, plan).not.toMatch(/Gather|Parallel|JIT/);
    expect(plan, plan).toMatch(/post_shares/);
    // The followed authors' page keeps its own plan beside the shared posts' page.
    if (TEST_DB === 'sqlite') {
      expect(plan, plan).toMatch(/posts_author/);
      expect(plan, plan).not.toMatch(/^SCAN posts$/m);
    } else {
      expect(plan, plan).not.toMatch(/Filter: \(\(hashed SubPlan \d+\) OR/);
    }
  });

  /** Post n's id, and whether it is among the followed authors' (every 50th author) or author 7's. */
  const postId = (n: number) => `p${String(n).padStart(23, '0')}`;
  const byFollowed = (n: number) => (n % AUTHORS + 1) % (AUTHORS / FOLLOWED) === 0;
  const byAuthor7 = (n: number) => n % AUTHORS + 1 === 7;
  const newestFive = (keep: (n: number) => boolean) => Array.from({ length: POSTS }, (_, i) => i + 1).filter(keep).slice(-5).reverse().map(postId);

  it('lists the posts a followed community passed on among the followed authors\' own, once each, newest first', async () => {
    expect(await followsASharer(t.app.db, sharingReader)).toBe(true);
    expect(await followsASharer(t.app.db, reader)).toBe(false);
    const listing = { ...params(0, sharingReader), fetch: 5 };
    const ids = await listPostIds(t.app.db, { ...listing, scope: { kind: 'following', userId: sharingReader } });
    expect(ids).toEqual(newestFive((n) => byFollowed(n) || byAuthor7(n)));
    // Walking and sorting agree.
    for (const plan of ['walk', 'sort'] as const) {
      const rows = await postIdsQuery(t.app.db, listing, plan).execute();
      expect(rows.map((row) => row.id), plan).toEqual(ids);
    }
    // Without the community the same reader's feed is the followed authors' alone.
    expect(await listPostIds(t.app.db, params(0, reader))).toEqual(newestFive(byFollowed));
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
