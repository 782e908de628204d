import { beforeAll, describe, expect, it } from 'vitest';
import { foldForSearch } from '#core/text';
import { PLAN_FOR_VALUES } from '../../src/db/pg-prepared';
import { newId } from '../../src/lib/ids';
import { SORT_AT_MOST } from '../../src/modules/feeds/feeds.repository';
import { addMember, call, createFollow, createGroup, type TestUser, useUsers } from '../helpers/fixtures';
import { TEST_DB, useTestApp } from '../helpers/test-app';

/**
 * A following feed or a search with more candidates than are worth sorting is read by walking the
 * newest-first index and stopping at the page (on SQLite; PostgreSQL's planner chooses for itself);
 * the pages are the same as sorting would give, private posts stay hidden, and a sparse list is
 * still sorted from its own index.
 */
/** The walk of a following feed: each post read asks whether its author is followed. */
const FOLLOWED_ASKED_PER_POST = /exists \(select 1 as "one" from "follows" where "follows"\."follower_id" = \S+ and "follows"\."following_id" = "posts"\."author_id"/i;

describe('dense following feed and search', () => {
  let sqlSeen: string[] = [];
  const t = useTestApp({}, { onQuery: (sql) => sqlSeen.push(sql) });
  const { alice, bob, carol, dave } = useUsers(t, 'alice', 'bob', 'carol', 'dave');
  /** Newest first, as every page must list them to bob. */
  let expected: { following: string[]; search: string[] } = { following: [], search: [] };
  const now = Date.now();

  beforeAll(async () => {
    const secret = await createGroup(t.app, carol, { isPrivate: true });
    await addMember(t.app, secret.id, alice);
    await createFollow(t.app, bob, alice);
    await createFollow(t.app, bob, dave);
    const rows: { id: string; author: TestUser; text: string; at: number; hidden: boolean }[] = [];
    for (let i = 0; i < 2 * SORT_AT_MOST + 600; i++) {
      // Alice posts most, carol (not followed) some; a few of alice's are in a group bob is not in.
      // Two posts share each moment, so ties are broken by id.
      const author = i % 5 === 4 ? carol : alice;
      rows.push({ id: newId(), author, text: i % 2 === 0 ? `coffee time ${i}` : `tea time ${i}`, at: now - 1_000_000 + Math.floor(i / 2), hidden: author === alice && i % 50 === 0 });
    }
    for (let i = 0; i < rows.length; i += 400) {
      const chunk = rows.slice(i, i + 400);
      await t.app.db
        .insertInto('posts')
        .values(chunk.map((r) => ({ id: r.id, author_id: r.author.id, text: r.text, search_text: foldForSearch(r.text), created_at: r.at })))
        .execute();
      const hidden = chunk.filter((r) => r.hidden);
      if (hidden.length) {
        await t.app.db
          .insertInto('post_groups')
          .values(hidden.map((r) => ({ post_id: r.id, position: 0, group_id: secret.id, name: secret.name, created_at: r.at })))
          .execute();
      }
    }
    const newestFirst = rows.filter((r) => !r.hidden).sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1));
    expected = {
      following: newestFirst.filter((r) => r.author === alice).map((r) => r.id),
      search: newestFirst.filter((r) => r.text.startsWith('coffee')).map((r) => r.id),
    };
  }, 60_000);

  async function page(user: TestUser, url: string, pageNo: number): Promise<{ ids: string[]; sql: string[] }> {
    sqlSeen = [];
    const sep = url.includes('?') ? '&' : '?';
    const res = await call(t.app, user, { method: 'GET', url: `${url}${sep}limit=50&page=${pageNo}&before=${now}&time=all` });
    expect(res.statusCode, res.body).toBe(200);
    return { ids: (res.json() as { posts: { _id: string }[] }).posts.map((p) => p._id), sql: sqlSeen };
  }

  it.each([
    ['following', '/api/feed/following', FOLLOWED_ASKED_PER_POST],
    ['search', '/api/search/for/posts?query=COFFEE', /select "posts"\."id" from "posts" .*"posts"\."search_text" I?LIKE/i],
  ] as const)('%s: walked newest first, the same pages as sorting them', async (key, url, walked) => {
    for (const pageNo of [1, 2, 7]) {
      const { ids, sql } = await page(bob, url, pageNo);
      expect(ids).toEqual(expected[key].slice((pageNo - 1) * 50, pageNo * 50));
      // PostgreSQL's planner makes the choice itself, from one statement whatever the density.
      if (TEST_DB === 'postgres') continue;
      expect(sql.some((s) => walked.test(s)), sql.join('\n')).toBe(true);
      expect(sql.some((s) => /posts_fts/.test(s) && !/count\(\*\)/.test(s)), sql.join('\n')).toBe(false);
    }
  });

  it("a search is planned for its words alone: the page's posts are read by a statement whose plan is kept", async () => {
    const { ids, sql } = await page(bob, '/api/search/for/posts?query=coffee', 1);
    expect(ids).toEqual(expected.search.slice(0, 50));
    // SQLite plans each text once whatever its values: its page stays one statement.
    if (TEST_DB !== 'postgres') return;
    const searching = sql.filter((s) => s.includes(PLAN_FOR_VALUES));
    expect(searching.length).toBe(1);
    // The posts' columns and the viewer's flags are never in the statement planned on every call.
    expect(searching.some((s) => s.includes('original_readable'))).toBe(false);
    expect(sql.some((s) => s.includes('original_readable'))).toBe(true);
  });

  it('a sparse following feed is sorted from its authors\' posts', async () => {
    await createFollow(t.app, dave, carol);
    const { ids, sql } = await page(dave, '/api/feed/following', 1);
    expect(ids.length).toBe(50);
    expect(sql.some((s) => FOLLOWED_ASKED_PER_POST.test(s))).toBe(false);
  });
});
