import type { RouteOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { isClientErrorKey, parseErrorMessage } from '#core/errors';
import { LIMITS } from '#core/limits';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { useTestApp } from '../helpers/test-app';

/**
 * Every GET listing (a route whose query schema has a page, limit or before) walked with paging
 * values no client sends: each answers a 4xx with a catalogue key the server may send (never one of
 * the web app's own), or, for a page size over the cap, the capped page; never a 5xx. The routes come
 * from the app's own route table, so a listing added later is covered without touching this file.
 */
const HOSTILE_QUERIES = [
  'page=1e308',
  'page=99999999999999999999',
  'page=-1',
  'page=1.5',
  'page=abc',
  'page=Infinity',
  'page=1&page=2',
  'before=1e400',
  'before=1e308',
  'before=99999999999999999999',
  'before=-1',
  'limit=0',
  'limit=-5',
  'limit=Infinity',
  'limit=1e400',
];

/** A page size over the cap is read as the cap, as the listings have always done. */
const CLAMPED_QUERIES = [`limit=${LIMITS.maxPageSize + 1}`, 'limit=1e308', 'limit=99999999999999999999'];

const PAGING_FIELDS = ['page', 'limit', 'before'];

function isListing(route: RouteOptions): boolean {
  const query = (route.schema?.querystring ?? {}) as { properties?: Record<string, unknown> };
  return PAGING_FIELDS.some((field) => field in (query.properties ?? {}));
}

describe('hostile paging values on every listing', () => {
  const listings: string[] = [];
  const t = useTestApp({}, {
    onRoute(route) {
      const methods = ([] as string[]).concat(route.method);
      // The client API pages by ids, as its apps do: its own tests walk its lists (clientapi/).
      const clientApi = /^\/api\/v\d\//u.test(route.url);
      if (methods.includes('GET') && route.url.startsWith('/api/') && !clientApi && isListing(route)) listings.push(route.url);
    },
  });
  let owner: TestUser;
  const values: Record<string, string> = {};

  beforeAll(async () => {
    owner = await createUser(t.app);
    // An instance moderator too, so the moderators' listings are reached rather than refused.
    await t.app.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', owner.id).execute();
    const member = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    await addMember(t.app, group.id, member);
    const post = await createPost(t.app, owner, { text: 'hello #paging', groupIds: [group.id] });
    const comment = await call(t.app, owner, { method: 'POST', url: '/api/comment/', payload: { text: 'a reply', parent: post.id } });
    expect(comment.statusCode).toBe(201);
    Object.assign(values, {
      username: owner.username,
      userId: owner.id,
      pfp: owner.id,
      groupId: group.id,
      name: group.name,
      postId: post.id,
      commentId: comment.json()._id,
      hashtag: 'paging',
    });
  });

  /** The route's path with every parameter filled by a row that exists, so the list itself is reached. */
  function pathOf(url: string): string {
    return url.replace(/:(\w+)/g, (_match, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`no fixture value for the path parameter :${name} of ${url}`);
      return encodeURIComponent(value);
    });
  }

  it('finds the listings in the route table', () => {
    // Feeds, comments, profiles, groups, search and notifications at the least.
    for (const url of ['/api/feed', '/api/post/:postId/comments', '/api/profile/user/:username/followers', '/api/group/:name/members', '/api/search/for/users', '/api/notification/']) {
      expect(listings).toContain(url);
    }
  });

  it('answers every listing normally with ordinary paging', async () => {
    for (const url of listings) {
      const res = await call(t.app, owner, { method: 'GET', url: `${pathOf(url)}?page=2&limit=${LIMITS.maxPageSize}&before=${Date.now()}` });
      expect({ url, status: res.statusCode }).toEqual({ url, status: 200 });
    }
  });

  it('answers 4xx with a catalogue key, never 5xx', async () => {
    const failures: string[] = [];
    for (const url of listings) {
      for (const query of HOSTILE_QUERIES) {
        const res = await call(t.app, owner, { method: 'GET', url: `${pathOf(url)}?${query}` });
        const key = parseErrorMessage((res.json() as { message?: unknown }).message);
        if (res.statusCode < 400 || res.statusCode >= 500 || !key || isClientErrorKey(key)) failures.push(`${url}?${query} -> ${res.statusCode} ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('answers a sort or a page size it does not take with invalid_query', async () => {
    for (const url of ['/api/feed?sort=random', '/api/feed?limit=0', `/api/group/${encodeURIComponent(values.name!)}/posts?sort=random`]) {
      expectError(await call(t.app, owner, { method: 'GET', url }), 400, 'invalid_query');
    }
  });

  it('reads a page size over the cap as the cap', async () => {
    for (const url of listings) {
      for (const query of CLAMPED_QUERIES) {
        const res = await call(t.app, owner, { method: 'GET', url: `${pathOf(url)}?${query}` });
        expect({ url, query, status: res.statusCode }).toEqual({ url, query, status: 200 });
      }
    }
  });
});
