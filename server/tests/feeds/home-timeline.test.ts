import { beforeAll, describe, expect, it } from 'vitest';
import { type ListPostIdsParams, type ListingPlan, postIdsQuery } from '../../src/modules/feeds/feeds.repository';
import { homeScope } from '../../src/modules/feeds/feeds.service';
import { addMember, createFollow, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { appGet, linkOf } from '../clientapi/client-calls';
import { appToken } from '../clientapi/oauth-helpers';
import { useTestApp } from '../helpers/test-app';

/**
 * The home timeline of fediverse apps: the reader's own posts, the followed authors' and the posts
 * of the reader's groups in one newest-first listing, read by either plan (one walk asking each post each way it
 * may belong, or each source's page merged), each post once, a private group's posts only for its
 * members, and no post skipped from one page to the next.
 */
describe('the home timeline: follows and groups', () => {
  const t = useTestApp();
  let reader: TestUser;
  let token: string;
  /** The posts the reader's home lists, newest first. */
  const expected: string[] = [];

  beforeAll(async () => {
    reader = await createUser(t.app);
    const followed = await createUser(t.app);
    const stranger = await createUser(t.app);
    const open = await createGroup(t.app, stranger);
    const secret = await createGroup(t.app, stranger, { isPrivate: true });
    const other = await createGroup(t.app, stranger);
    const closed = await createGroup(t.app, stranger, { isPrivate: true });
    for (const group of [open, secret]) await addMember(t.app, group.id, reader);
    await createFollow(t.app, reader, followed);
    const base = Date.now() + 30_000_000;
    // Newest last; `shown` says whether the reader's home lists it.
    const posts: { author: TestUser; groups?: string[]; shown: boolean }[] = [
      { author: followed, shown: true },
      // The reader's own posts, as apps show them among what their person follows; one in a group of theirs once.
      { author: reader, shown: true },
      { author: reader, groups: [open.id], shown: true },
      { author: stranger, groups: [open.id], shown: true },
      { author: stranger, shown: false },
      // In both of the reader's groups, and one group named twice: listed once.
      { author: stranger, groups: [open.id, secret.id], shown: true },
      { author: stranger, groups: [open.id, open.id], shown: true },
      // A followed author's post in a private group the reader is not in, and one in a private
      // group of theirs that is also in one they are not in: neither is theirs to read.
      { author: followed, groups: [closed.id], shown: false },
      { author: stranger, groups: [secret.id, closed.id], shown: false },
      { author: stranger, groups: [other.id], shown: false },
      { author: stranger, groups: [secret.id], shown: true },
      { author: followed, groups: [other.id], shown: true },
      { author: followed, groups: [open.id], shown: true },
      { author: stranger, groups: [open.id], shown: true },
      { author: stranger, groups: [secret.id], shown: true },
      // The newest page: a group's three newest, the newest naming it twice, must not crowd out the third.
      { author: stranger, groups: [open.id], shown: true },
      { author: stranger, groups: [open.id], shown: true },
      { author: stranger, groups: [open.id, open.id], shown: true },
    ];
    for (const [i, post] of posts.entries()) {
      const { id } = await createPost(t.app, post.author, { createdAt: base + i * 1000, ...(post.groups ? { groupIds: post.groups } : {}) });
      if (post.shown) expected.unshift(id);
    }
    token = await appToken(t.app, reader, 'read:statuses');
  });

  const params = (keys: ListPostIdsParams['keys'], fetch: number): ListPostIdsParams => ({
    viewerId: reader.id,
    scope: { ...homeScope(reader.id), shares: false } as ListPostIdsParams['scope'],
    sort: 'newest',
    since: 0,
    before: undefined,
    offset: 0,
    fetch,
    keys,
  });

  it.each(['walk', 'sort'] as ListingPlan[])('lists each post once, newest first, page after page (%s)', async (plan) => {
    const read: string[] = [];
    let below: { at: number; id: string } | undefined;
    for (let page = 0; page < 10; page++) {
      const rows = await postIdsQuery(t.app.db, params({ below }, 3), plan).execute();
      if (rows.length === 0) break;
      read.push(...rows.map((row) => row.id));
      const last = await t.app.db.selectFrom('posts').select(['id', 'created_at']).where('id', '=', rows.at(-1)!.id).executeTakeFirstOrThrow();
      below = { at: Number(last.created_at), id: last.id };
    }
    expect(read).toEqual(expected);
  });

  it("shows each status's account as the account's own page shows it to the reader", async () => {
    const page = await appGet(t.app, '/api/v1/timelines/home?limit=40', token);
    const accounts = new Map<string, unknown>(page.body.map((status: { account: { id: string } }) => [status.account.id, status.account]));
    expect(accounts.size).toBeGreaterThan(1);
    for (const [id, account] of accounts) expect(account).toEqual((await appGet(t.app, `/api/v1/accounts/${id}`, token)).body);
  });

  it('pages the same through the client API, by its Link header', async () => {
    const read: string[] = [];
    let url: string | undefined = '/api/v1/timelines/home?limit=3';
    while (url && read.length < 40) {
      const page = await appGet(t.app, url, token);
      expect(page.status).toBe(200);
      read.push(...page.body.map((status: { id: string }) => status.id));
      url = linkOf(page.link, 'next');
    }
    expect(read).toEqual(expected);
  });
});
