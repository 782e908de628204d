import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SearchResults } from '#core/api/client-search';
import type { Account } from '#core/api/client-entities';
import { type FakeFediverse, startFakeFediverse } from '../helpers/fake-fediverse';
import { addMember, createGroup, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { appGet, asApp, expectShape } from './client-calls';
import { appToken } from './oauth-helpers';

/** Search through the client API: accounts (people, then groups), posts, hashtags, and handles looked up. */

describe('client API: search', () => {
  const t = useTestApp();
  const get = (token: string | null, url: string) => appGet(t.app, url, token);
  /** The hashtag index row a post written through the API would have. */
  const tagged = (postId: string, tag: string) => t.app.db.insertInto('post_hashtags').values({ post_id: postId, tag, created_at: Date.now() }).execute();

  it('finds people, then groups on the first page, by either call', async () => {
    const person = await createUser(t.app, { username: 'marigoldfan' });
    await createUser(t.app, { username: 'marigoldkeeper' });
    const group = await createGroup(t.app, person, { name: 'marigolds' });
    const { status, body } = await get(null, '/api/v2/search?q=marigold&type=accounts');
    expect(status).toBe(200);
    expectShape(SearchResults, body);
    expect(body.accounts.map((a: Account) => a.acct)).toEqual(['marigoldfan', 'marigoldkeeper', 'marigolds']);
    expect(body.accounts[2]).toMatchObject({ id: `g${group.id}`, group: true });
    expect(body.statuses).toEqual([]);
    expect(body.hashtags).toEqual([]);
    const v1 = await get(null, '/api/v1/accounts/search?q=marigold&limit=2');
    expect(v1.body.map((a: Account) => a.acct)).toEqual(['marigoldfan', 'marigoldkeeper']);
    // Flags written 1 and 0, as some libraries send every yes and no; a number stays a number.
    const flags = await get(null, '/api/v2/search?q=marigold&type=accounts&exclude_unreviewed=1&resolve=0&following=0&limit=1');
    expect(flags.status).toBe(200);
    expect(flags.body.accounts.map((a: Account) => a.acct)).toEqual(['marigoldfan']);
    const second = await get(null, '/api/v1/accounts/search?q=marigold&limit=1&offset=1');
    expect(second.body.map((a: Account) => a.acct)).toEqual(['marigoldkeeper']);
    expect((await get(null, '/api/v1/accounts/search?q=%20')).body).toEqual([]);
  });

  it('finds posts by their words and a hashtag carried by a post the caller may read', async () => {
    const author = await createUser(t.app);
    const post = await createPost(t.app, author, { text: 'quinceharvest is on #quincejam' });
    await tagged(post.id, 'quincejam');
    const { body } = await get(null, '/api/v2/search?q=quinceharvest');
    expect(body.statuses.map((s: { id: string }) => s.id)).toEqual([post.id]);
    expect((await get(null, '/api/v2/search?q=%23quincejam&type=hashtags')).body.hashtags).toEqual([
      { name: 'quincejam', url: 'http://kruh.test/h/quincejam' },
    ]);
    expect((await get(null, '/api/v2/search?q=quincejam&type=statuses')).body.hashtags).toEqual([]);
    expect((await get(null, '/api/v2/search?q=nosuchtagatall&type=hashtags')).body.hashtags).toEqual([]);
  });

  it("keeps a private group's posts and hashtags to its members", async () => {
    const owner = await createUser(t.app);
    const member = await createUser(t.app);
    const outsider = await createUser(t.app);
    const group = await createGroup(t.app, owner, { isPrivate: true });
    await addMember(t.app, group.id, member);
    const post = await createPost(t.app, owner, { text: 'zqhidden words #zqhiddentag', groupIds: [group.id] });
    await tagged(post.id, 'zqhiddentag');
    for (const viewer of [null, outsider]) {
      const token = viewer ? await appToken(t.app, viewer, 'read') : null;
      for (const q of ['zqhidden', '%23zqhiddentag', 'zqhiddentag']) {
        const res = await get(token, `/api/v2/search?q=${q}`);
        expect(res.status).toBe(200);
        expect(JSON.stringify(res.body)).not.toContain('zqhidden');
        expect(JSON.stringify(res.body)).not.toContain(post.id);
      }
    }
    const memberToken = await appToken(t.app, member, 'read');
    expect((await get(memberToken, '/api/v2/search?q=zqhidden')).body.statuses.map((s: { id: string }) => s.id)).toEqual([post.id]);
    expect((await get(memberToken, '/api/v2/search?q=zqhiddentag&type=hashtags')).body.hashtags.map((h: { name: string }) => h.name)).toEqual(['zqhiddentag']);
  });

  it('asks a signed-in app for the search scope, a visitor for none', async () => {
    const ana = await createUser(t.app);
    const writer = await appToken(t.app, ana, 'write');
    expect(await get(writer, '/api/v2/search?q=ana')).toMatchObject({ status: 403, body: { message: 'error/insufficient_scope' } });
    expect(await get(writer, '/api/v1/accounts/search?q=ana')).toMatchObject({ status: 403, body: { message: 'error/insufficient_scope' } });
    const reader = await appToken(t.app, ana, 'read:search read:accounts');
    expect((await get(reader, '/api/v2/search?q=ana')).status).toBe(200);
    expect((await get(reader, '/api/v1/accounts/search?q=ana')).status).toBe(200);
    expect((await get(null, '/api/v2/search?q=ana')).status).toBe(200);
  });
});

describe('client API: search resolving a handle of another server', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: 'https://kruh.example', RATE_REMOTE_LOOKUPS_PER_HOUR: '1' });
  let remote: FakeFediverse;
  beforeAll(async () => {
    remote = await startFakeFediverse();
    await remote.actor('bob');
    await remote.actor('carol');
  });
  afterAll(async () => {
    await remote.close();
  });
  const accts = async (token: string | null, url: string) => {
    const res = await asApp(t.app, token, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return (Array.isArray(body) ? body : body.accounts).map((a: Account) => a.acct);
  };
  const webfingers = () => remote.asked.filter((path) => path.startsWith('/.well-known/webfinger')).length;

  it('looks a handle up only with resolve=true, only for a signed-in caller, within the lookup limit', async () => {
    const bob = `bob@${remote.host}`;
    const q = encodeURIComponent(`@${bob}`);
    expect(await accts(null, `/api/v2/search?q=${q}&resolve=true&type=accounts`)).toEqual([]);
    const token = await appToken(t.app, await createUser(t.app), 'read');
    expect(await accts(token, `/api/v2/search?q=${q}&type=accounts`)).toEqual([]);
    expect(webfingers()).toBe(0);
    expect(await accts(token, `/api/v2/search?q=${q}&resolve=true&type=accounts`)).toEqual([bob]);
    expect(webfingers()).toBe(1);
    // Known now: found without asking its server again, by anyone.
    expect(await accts(null, `/api/v1/accounts/search?q=${q}`)).toEqual([bob]);
    // One lookup an hour: the next handle is not asked for.
    expect(await accts(token, `/api/v1/accounts/search?q=${encodeURIComponent(`carol@${remote.host}`)}&resolve=true`)).toEqual([]);
    expect(webfingers()).toBe(1);
  });
});
