import { Note } from '@fedify/fedify/vocab';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BACKFILL_ITEMS, BACKFILL_PAGES } from '../../src/modules/federation/inbound/outbox-backfill';
import { REMOTE_ACTOR_STALE_MS } from '../../src/modules/remote/remote-refresh';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { AS_CONTEXT, type FakeFediverse, LITEPUB_CONTEXT, LITEPUB_CONTEXT_PATH, PUBLIC, pleromaContext, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * Finding people on other servers from the user search: a fake fediverse server in the test answers
 * WebFinger and serves its actors' documents and a picture over plain http on 127.0.0.1 (which the
 * guard lets through only because the test instance allows loopback http); the search looks a
 * handle up there once and then answers the account like any other, with where it comes from.
 */

const ORIGIN = 'https://kruh.example';
const LOOKUPS = 4;

/** A server with Bob (a bio and a picture), and a handle that names a post, not an actor. */
async function startRemote(): Promise<FakeFediverse> {
  const remote = await startFakeFediverse();
  await remote.actor('bob', { summary: '<p>Gardener &amp; cook</p><p>Prague<br>Brno</p>', icon: '/bob.png' });
  remote.serveFile('/bob.png', 'image/png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer());
  remote.webfinger('notes', remote.url('/notes/1'));
  remote.serve('/notes/1', await new Note({ id: new URL(remote.url('/notes/1')), content: 'hi' }).toJsonLd());
  return remote;
}

describe('looking up remote accounts', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN, RATE_REMOTE_LOOKUPS_PER_HOUR: String(LOOKUPS) });
  let remote: FakeFediverse;
  let alice: TestUser;

  beforeAll(async () => {
    remote = await startRemote();
    alice = await createUser(t.app, { username: 'alice' });
  });
  afterAll(async () => {
    await remote.close();
  });

  const search = (user: TestUser | null, query: string) =>
    call(t.app, user, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(query)}` });
  const names = async (user: TestUser | null, query: string) => {
    const res = await search(user, query);
    expect(res.statusCode).toBe(200);
    return (res.json() as { userList: Array<{ username: string }> }).userList.map((u) => u.username);
  };
  const webfingers = () => remote.asked.filter((path) => path.startsWith('/.well-known/webfinger')).length;

  const pfpVersion = async (username: string) =>
    Number((await t.app.db.selectFrom('users').select('pfp_version').where('username', '=', username).executeTakeFirstOrThrow()).pfp_version);

  it('finds a handle on its server, stores the account with its picture, and asks only once', async () => {
    const bob = `bob@${remote.host}`;
    expect(await names(alice, `@${bob}`)).toEqual([bob]);
    const account = await t.app.db.selectFrom('users').selectAll().where('username', '=', bob).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ bio: 'Gardener & cook\n\nPrague\nBrno', email: null, password_hash: null });
    await runDueJobs(t.app);
    expect(await pfpVersion(bob)).toBeGreaterThan(0);
    expect(remote.asked).toContain('/bob.png');
    const actor = await t.app.db.selectFrom('remote_actors').selectAll().where('user_id', '=', account.id).executeTakeFirstOrThrow();
    expect(actor).toMatchObject({ id: `${remote.origin}/users/bob`, url: `${remote.origin}/@bob`, handle: `@${bob}` });

    const asked = webfingers();
    expect(await names(alice, bob)).toEqual([bob]);
    expect(webfingers()).toBe(asked);
  });

  it('finds an actor whose document names JSON-LD contexts by address, never fetching them, its picture included', async () => {
    const extensions = '/ns/extensions.jsonld';
    remote.serve(extensions, { '@context': { nickname: 'http://example.org/ns#nickname' } });
    remote.serve(LITEPUB_CONTEXT_PATH, LITEPUB_CONTEXT);
    const lena = await remote.actor('lena', { context: [AS_CONTEXT, 'https://w3id.org/security/v1', remote.url(extensions)] });
    // A Pleroma actor names only ActivityStreams and LitePub's context on its own server.
    const pleroma = await remote.actor('pleroma', { context: pleromaContext(remote.origin), icon: '/pleroma.png' });
    remote.serveFile('/pleroma.png', 'image/png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#663399' } }).png().toBuffer());
    const searcher = await createUser(t.app);
    expect(await names(searcher, lena.handle)).toEqual([lena.account]);
    expect(await names(searcher, pleroma.handle)).toEqual([pleroma.account]);
    await runDueJobs(t.app);
    expect(await pfpVersion(pleroma.account)).toBeGreaterThan(0);
    expect(remote.asked).not.toContain(extensions);
    expect(remote.asked).not.toContain(LITEPUB_CONTEXT_PATH);
  });

  it('answers the search without waiting on the picture, which a job stores once its server answers', async () => {
    await remote.actor('paula', { icon: '/paula.png' });
    remote.serveFile('/paula.png', 'image/png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#993366' } }).png().toBuffer());
    remote.stall('/paula.png');
    const paula = `paula@${remote.host}`;
    expect(await names(await createUser(t.app), `@${paula}`)).toEqual([paula]);
    expect(await pfpVersion(paula)).toBe(0);
    expect(remote.asked).not.toContain('/paula.png');

    remote.release('/paula.png');
    await runDueJobs(t.app);
    expect(remote.asked).toContain('/paula.png');
    expect(await pfpVersion(paula)).toBeGreaterThan(0);
  });

  /** Makes what is kept of the actor this old, as if it were last read then. */
  const ageActor = (actorId: string, ms: number) => t.app.db.updateTable('remote_actors').set({ fetched_at: Date.now() - ms }).where('id', '=', actorId).execute();
  const refreshJobs = async () => (await t.app.db.selectFrom('jobs').select('id').where('kind', '=', 'federation_actor_refresh').execute()).length;

  it("reads a known account's actor again, after the search, once what is kept of it is over a day old", async () => {
    const quinn = await remote.actor('quinn', { summary: 'Old bio' });
    const searcher = await createUser(t.app);
    expect(await names(searcher, quinn.handle)).toEqual([quinn.account]);
    await runDueJobs(t.app);
    const actorPath = '/users/quinn';
    const reads = () => remote.asked.filter((path) => path === actorPath).length;
    const before = reads();

    // Fresh: found without asking its server again.
    expect(await names(searcher, quinn.handle)).toEqual([quinn.account]);
    await runDueJobs(t.app);
    expect(reads()).toBe(before);

    // Renamed on its server, with a new bio and picture, and last read over a day ago.
    await remote.actor('quinn', { summary: 'New bio', icon: '/quinn.png' });
    remote.serveFile('/quinn.png', 'image/png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#669933' } }).png().toBuffer());
    await ageActor(quinn.id, REMOTE_ACTOR_STALE_MS + 60_000);
    remote.stall(actorPath);
    // The search answers what is kept, without waiting on the actor (held until released).
    expect(await names(searcher, quinn.handle)).toEqual([quinn.account]);
    expect(await names(searcher, quinn.handle)).toEqual([quinn.account]);
    expect(await refreshJobs()).toBe(1);
    remote.release(actorPath);
    await runDueJobs(t.app);
    expect(reads()).toBe(before + 1);
    const account = await t.app.db.selectFrom('users').select(['bio', 'pfp_version']).where('username', '=', quinn.account).executeTakeFirstOrThrow();
    expect(account.bio).toBe('New bio');
    expect(Number(account.pfp_version)).toBeGreaterThan(0);

    // Read now: not again for a day, however often it is found.
    expect(await names(searcher, quinn.handle)).toEqual([quinn.account]);
    await runDueJobs(t.app);
    expect(reads()).toBe(before + 1);
  });

  it("reads a remote account's actor again when its profile is opened and it is over a day old", async () => {
    const rita = await remote.actor('rita', { summary: 'Before' });
    expect(await names(await createUser(t.app), rita.handle)).toEqual([rita.account]);
    await runDueJobs(t.app);
    const reads = () => remote.asked.filter((path) => path === '/users/rita').length;
    const before = reads();
    const profile = () => call(t.app, null, { method: 'GET', url: `/api/profile/user/${encodeURIComponent(rita.account)}` });

    await remote.actor('rita', { summary: 'After' });
    expect((await profile()).statusCode).toBe(200);
    await runDueJobs(t.app);
    expect(reads()).toBe(before);

    await ageActor(rita.id, REMOTE_ACTOR_STALE_MS + 60_000);
    expect((await profile()).json().user.bio).toBe('Before');
    await runDueJobs(t.app);
    expect(reads()).toBe(before + 1);
    expect((await profile()).json().user.bio).toBe('After');
  });

  it('never reads again an actor on a blocked domain, and does once the block is lifted', async () => {
    const sam = await remote.actor('sam');
    const searcher = await createUser(t.app);
    expect(await names(searcher, sam.handle)).toEqual([sam.account]);
    await runDueJobs(t.app);
    const host = new URL(remote.origin).hostname;
    await t.app.db.insertInto('federation_domain_blocks').values({ domain: host, created_at: Date.now(), created_by: searcher.id }).execute();
    try {
      await ageActor(sam.id, REMOTE_ACTOR_STALE_MS + 60_000);
      const asked = remote.asked.length;
      await names(searcher, sam.handle);
      expect(await refreshJobs()).toBe(0);
      await runDueJobs(t.app);
      expect(remote.asked.length).toBe(asked);
    } finally {
      await t.app.db.deleteFrom('federation_domain_blocks').where('domain', '=', host).execute();
    }
    await names(searcher, sam.handle);
    await runDueJobs(t.app);
    expect(remote.asked.at(-1)).toBe('/users/sam');
  });

  it("reads a known remote account's profile by its name, with where it comes from", async () => {
    const bob = `bob@${remote.host}`;
    const res = await call(t.app, null, { method: 'GET', url: `/api/profile/user/${encodeURIComponent(bob)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({ username: bob, bio: 'Gardener & cook\n\nPrague\nBrno', remote: { host: remote.host, url: `${remote.origin}/@bob` } });
    const local = await call(t.app, null, { method: 'GET', url: '/api/profile/user/alice' });
    expect(local.json().user.remote).toBeNull();
  });

  it('finds nobody, without an error, for a handle whose server names no actor, is unknown to it, or cannot be reached', async () => {
    const carol = await createUser(t.app);
    expect(await names(carol, `@notes@${remote.host}`)).toEqual([]);
    expect(await names(carol, `@nobody@${remote.host}`)).toEqual([]);
    expect(await names(carol, '@bob@127.0.0.1:1')).toEqual([]);
    const stored = await t.app.db.selectFrom('users').select('username').where('username', 'in', [`notes@${remote.host}`, `nobody@${remote.host}`, 'bob@127.0.0.1:1']).execute();
    expect(stored).toEqual([]);
  });

  it("finds this instance's own handles here, asking no server", async () => {
    const asked = remote.asked.length;
    expect(await names(alice, '@alice@kruh.example')).toEqual(['alice']);
    expect(remote.asked.length).toBe(asked);
  });

  it('asks nothing of a blocked domain, and finds nobody there', async () => {
    const erin = await createUser(t.app);
    const host = new URL(remote.origin).hostname;
    await t.app.db.insertInto('federation_domain_blocks').values({ domain: host, created_at: Date.now(), created_by: erin.id }).execute();
    const asked = remote.asked.length;
    expect(await names(erin, `@blocked-one@${remote.host}`)).toEqual([]);
    expect(remote.asked.length).toBe(asked);
    await t.app.db.deleteFrom('federation_domain_blocks').where('domain', '=', host).execute();
  });

  it('never asks another server for a visitor', async () => {
    const asked = webfingers();
    expect(await names(null, `@visitor@${remote.host}`)).toEqual([]);
    expect(webfingers()).toBe(asked);
  });

  it("stops asking other servers for one user past their lookups, and still searches what is known", async () => {
    const dave = await createUser(t.app);
    for (let i = 0; i < LOOKUPS; i++) await names(dave, `@unknown${i}@${remote.host}`);
    const asked = webfingers();
    expect(await names(dave, `@one-more@${remote.host}`)).toEqual([]);
    expect(webfingers()).toBe(asked);
    expect(await names(dave, `@bob@${remote.host}`)).toEqual([`bob@${remote.host}`]);
    // Another user still has theirs.
    expect(await names(await createUser(t.app), `@one-more@${remote.host}`)).toEqual([]);
    expect(webfingers()).toBe(asked + 1);
  });

  it("stores the public posts on the first page of a looked-up actor's outbox, without telling anyone", async () => {
    const outbox = '/users/carol/outbox';
    const carol = await remote.actor('carol', { outbox });
    const erin = await createUser(t.app);
    const local = await createPost(t.app, erin, { text: 'a local post' });
    const noteOf = (n: number, extra: object) => ({
      id: remote.url(`/notes/carol-${n}`),
      type: 'Note',
      attributedTo: carol.id,
      content: `<p>note ${n}</p>`,
      published: `2026-01-0${n}T10:00:00Z`,
      to: [PUBLIC],
      cc: [carol.followers],
      ...extra,
    });
    const notes = [
      noteOf(1, { tag: [{ type: 'Mention', href: `${ORIGIN}/ap/actors/${erin.id}`, name: '@erin@kruh.example' }] }),
      noteOf(2, {}),
      noteOf(3, { inReplyTo: `${ORIGIN}/ap/posts/${local.id}` }),
      noteOf(4, { to: [carol.followers], cc: [] }),
    ];
    const creates = notes.map((note) => ({ id: `${note.id}/activity`, type: 'Create', actor: carol.id, to: note.to, cc: note.cc, object: note }));
    remote.serve(outbox, { '@context': AS_CONTEXT, id: remote.url(outbox), type: 'OrderedCollection', totalItems: creates.length, first: remote.url(`${outbox}/page`) });
    remote.serve(`${outbox}/page`, { '@context': AS_CONTEXT, id: remote.url(`${outbox}/page`), type: 'OrderedCollectionPage', partOf: remote.url(outbox), orderedItems: creates });

    const lucy = await createUser(t.app);
    expect(await names(lucy, carol.handle)).toEqual([carol.account]);
    await runDueJobs(t.app);
    t.app.invalidateVisitorCache();
    const res = await call(t.app, null, { method: 'GET', url: `/api/profile/posts/${encodeURIComponent(carol.account)}` });
    expect(res.statusCode).toBe(200);
    const posts = res.json().posts as Array<{ text: string; author: { username: string } }>;
    expect(posts.map((p) => p.text).sort()).toEqual(['note 1', 'note 2']);
    expect(posts.every((p) => p.author.username === carol.account)).toBe(true);
    const comments = await t.app.db.selectFrom('comments').select('id').where('ap_id', 'in', notes.map((n) => n.id)).execute();
    expect(comments).toEqual([]);
    // Old posts tell nobody, not even the one they mention.
    await runDueJobs(t.app);
    expect(await t.app.db.selectFrom('notifications').select('type').where('user_id', '=', erin.id).execute()).toEqual([]);
  });

  /**
   * Serves an outbox at `/users/<name>/outbox` whose pages hold these items, each page leading to
   * the next (`loop`: the last back to the first, an endless chain); answers the pages' paths.
   */
  function servePagedOutbox(name: string, pages: object[][], { loop = false } = {}) {
    const outbox = `/users/${name}/outbox`;
    const paths = pages.map((_, index) => `${outbox}?page=${index + 1}`);
    remote.serve(outbox, { '@context': AS_CONTEXT, id: remote.url(outbox), type: 'OrderedCollection', first: remote.url(paths[0]!) });
    pages.forEach((items, index) => {
      const next = index + 1 < paths.length ? paths[index + 1]! : loop ? paths[0]! : null;
      remote.serve(paths[index]!, {
        '@context': AS_CONTEXT,
        id: remote.url(paths[index]!),
        type: 'OrderedCollectionPage',
        partOf: remote.url(outbox),
        orderedItems: items,
        ...(next ? { next: remote.url(next) } : {}),
      });
    });
    return paths;
  }

  /** A public Note of the actor and its Create, as an outbox lists it; `extra` changes the Note. */
  function createOf(actor: { id: string; name: string; followers: string }, n: number, extra: object = {}) {
    const note = { id: remote.url(`/notes/${actor.name}-${n}`), type: 'Note', attributedTo: actor.id, content: `<p>${actor.name} ${n}</p>`, to: [PUBLIC], cc: [actor.followers], ...extra };
    return { id: `${note.id}/activity`, type: 'Create', actor: actor.id, to: note.to, cc: note.cc, object: note };
  }

  /** A boost by the actor of a post elsewhere: an outbox item that is no post of its own. */
  const boostOf = (actor: { id: string; name: string }, n: number) => ({
    id: remote.url(`/boosts/${actor.name}-${n}`),
    type: 'Announce',
    actor: actor.id,
    to: [PUBLIC],
    object: `https://elsewhere.example/notes/${n}`,
  });

  /** Looks the actor up as a new user would, runs the backfill, and answers the texts of its account's posts. */
  async function backfilled(actor: { handle: string; account: string }): Promise<string[]> {
    expect(await names(await createUser(t.app), actor.handle)).toEqual([actor.account]);
    await runDueJobs(t.app);
    const account = await t.app.db.selectFrom('users').select('id').where('username', '=', actor.account).executeTakeFirstOrThrow();
    const rows = await t.app.db.selectFrom('posts').select('text').where('author_id', '=', account.id).execute();
    return rows.map((row) => row.text).sort();
  }

  it('follows the outbox to its next pages while a page gives few posts, up to the posts a profile wants', async () => {
    const frank = await remote.actor('frank', { outbox: '/users/frank/outbox' });
    // The newest page is mostly boosts and a reply; the next one holds more posts than are wanted.
    const first = [boostOf(frank, 1), createOf(frank, 1), boostOf(frank, 2), createOf(frank, 2, { inReplyTo: 'https://elsewhere.example/notes/9' }), createOf(frank, 3)];
    const second = Array.from({ length: BACKFILL_ITEMS }, (_, i) => createOf(frank, 10 + i));
    const third = [createOf(frank, 100)];
    const paths = servePagedOutbox('frank', [first, second, third]);

    const wanted = [1, 3, ...Array.from({ length: BACKFILL_ITEMS - 2 }, (_, i) => 10 + i)].map((n) => `frank ${n}`).sort();
    expect(await backfilled(frank)).toEqual(wanted);
    expect(remote.asked).toContain(paths[1]);
    expect(remote.asked).not.toContain(paths[2]);
  });

  it('stops at a bounded number of pages on an endless chain of them, and keeps what a failing page came after', async () => {
    const gina = await remote.actor('gina', { outbox: '/users/gina/outbox' });
    const pages: object[][] = Array.from({ length: BACKFILL_PAGES + 2 }, (_, i) => [boostOf(gina, 2 * i), boostOf(gina, 2 * i + 1)]);
    pages[0]!.push(createOf(gina, 1));
    const paths = servePagedOutbox('gina', pages, { loop: true });
    expect(await backfilled(gina)).toEqual(['gina 1']);
    expect(paths.filter((path) => remote.asked.includes(path))).toEqual(paths.slice(0, BACKFILL_PAGES));

    const hugo = await remote.actor('hugo', { outbox: '/users/hugo/outbox' });
    const hugoPaths = servePagedOutbox('hugo', [[createOf(hugo, 1), boostOf(hugo, 1)], [createOf(hugo, 2)], [createOf(hugo, 3)]]);
    remote.fail(hugoPaths[1]!, 500);
    expect(await backfilled(hugo)).toEqual(['hugo 1']);
    expect(remote.asked).toContain(hugoPaths[1]);
    expect(remote.asked).not.toContain(hugoPaths[2]);
  });

  it('reads no next page of an outbox from another server', async () => {
    const ivan = await remote.actor('ivan', { outbox: '/users/ivan/outbox' });
    const other = await startFakeFediverse();
    try {
      const outbox = '/users/ivan/outbox';
      remote.serve(outbox, { '@context': AS_CONTEXT, id: remote.url(outbox), type: 'OrderedCollection', first: remote.url(`${outbox}?page=1`) });
      remote.serve(`${outbox}?page=1`, {
        '@context': AS_CONTEXT,
        id: remote.url(`${outbox}?page=1`),
        type: 'OrderedCollectionPage',
        orderedItems: [createOf(ivan, 1)],
        next: other.url('/pages/2'),
      });
      other.serve('/pages/2', { '@context': AS_CONTEXT, id: other.url('/pages/2'), type: 'OrderedCollectionPage', orderedItems: [createOf(ivan, 2)] });
      expect(await backfilled(ivan)).toEqual(['ivan 1']);
      expect(other.asked).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('still finds an actor whose outbox cannot be read', async () => {
    const outbox = '/users/dan/outbox';
    const dan = await remote.actor('dan', { outbox });
    remote.fail(outbox, 500);
    expect(await names(await createUser(t.app), dan.handle)).toEqual([dan.account]);
    await runDueJobs(t.app);
    expect(remote.asked).toContain(outbox);
    // Given up at once, not tried again later.
    expect(await t.app.db.selectFrom('jobs').select('id').where('kind', '=', 'federation_backfill').execute()).toEqual([]);
    const account = await t.app.db.selectFrom('users').select('id').where('username', '=', dan.account).executeTakeFirstOrThrow();
    expect(await t.app.db.selectFrom('posts').select('id').where('author_id', '=', account.id).execute()).toEqual([]);
  });

  it("tells a remote account's posts and comments apart from local ones", async () => {
    const bobId = (await t.app.db.selectFrom('users').select('id').where('username', '=', `bob@${remote.host}`).executeTakeFirstOrThrow()).id;
    const bob = { id: bobId } as TestUser;
    const remotePost = await createPost(t.app, bob, { text: 'from afar' });
    const noteId = `${remote.origin}/notes/42`;
    await t.app.db.updateTable('posts').set({ ap_id: noteId, ap_url: `${remote.origin}/@bob/42` }).where('id', '=', remotePost.id).execute();
    const localPost = await createPost(t.app, alice, { text: 'from here' });
    t.app.invalidateVisitorCache();

    const read = async (id: string) => (await call(t.app, alice, { method: 'GET', url: `/api/post/${id}` })).json();
    expect(await read(remotePost.id)).toMatchObject({ author: { username: `bob@${remote.host}` }, remote: { host: remote.host, url: `${remote.origin}/@bob/42` } });
    expect((await read(localPost.id)).remote).toBeNull();
    const profilePosts = await call(t.app, null, { method: 'GET', url: `/api/profile/posts/${encodeURIComponent(`bob@${remote.host}`)}` });
    expect(profilePosts.json().posts).toEqual([expect.objectContaining({ _id: remotePost.id, remote: { host: remote.host, url: `${remote.origin}/@bob/42` } })]);

    const created = await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'a reply', parent: remotePost.id } });
    expect(created.statusCode).toBe(201);
    const local = await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { text: 'mine', parent: remotePost.id } });
    const commentId = created.json()._id as string;
    await t.app.db
      .updateTable('comments')
      .set({ author_id: bobId, ap_id: `${remote.origin}/notes/43`, ap_url: null })
      .where('id', '=', commentId)
      .execute();
    t.app.invalidateVisitorCache();
    const list = await call(t.app, alice, { method: 'GET', url: `/api/post/${remotePost.id}/comments` });
    expect(list.statusCode).toBe(200);
    const comments = (list.json() as { comments: Array<{ _id: string; remote: unknown; author: { username: string } }> }).comments;
    expect(comments.find((c) => c._id === commentId)).toMatchObject({ author: { username: `bob@${remote.host}` }, remote: { host: remote.host, url: null } });
    expect(comments.find((c) => c._id === local.json()._id)?.remote).toBeNull();
  });
});

describe('looking up remote accounts on a slow server', () => {
  /** Short, so a test shows the look-up giving up without waiting the default deadline. */
  const DEADLINE_MS = 1_000;
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN, FEDERATION_LOOKUP_TIMEOUT_MS: String(DEADLINE_MS) });
  let remote: FakeFediverse;

  beforeAll(async () => {
    remote = await startFakeFediverse();
  });
  afterAll(async () => {
    await remote.close();
  });

  const names = async (query: string) => {
    const res = await call(t.app, await createUser(t.app), { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(query)}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { userList: Array<{ username: string }> }).userList.map((u) => u.username);
  };

  it('gives up on a server whose actor never answers within the deadline, and finds nobody', async () => {
    const stalled = await remote.actor('stalled');
    remote.stall('/users/stalled');
    const started = Date.now();
    expect(await names(stalled.handle)).toEqual([]);
    // Well past the deadline, well short of one request's own timeout (10 s).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(remote.asked).toContain('/users/stalled');
    expect(await t.app.db.selectFrom('users').select('id').where('username', '=', stalled.account).execute()).toEqual([]);
  });

  it('counts WebFinger and the actor against one deadline, not one each', async () => {
    // Each answers within the deadline, the two together do not.
    const slow = await remote.actor('slow');
    remote.stall('/.well-known/webfinger', DEADLINE_MS * 0.6);
    remote.stall('/users/slow', DEADLINE_MS * 0.6);
    expect(await names(slow.handle)).toEqual([]);
    expect(remote.asked).toContain('/users/slow');

    remote.release('/.well-known/webfinger');
    remote.release('/users/slow');
    expect(await names(slow.handle)).toEqual([slow.account]);
  });
});

describe('looking up remote accounts with federation off', () => {
  const t = useTestApp({ FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let remote: FakeFediverse;

  beforeAll(async () => {
    remote = await startRemote();
  });
  afterAll(async () => {
    await remote.close();
  });

  it('asks no other server', async () => {
    const erin = await createUser(t.app);
    const res = await call(t.app, erin, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(`@bob@${remote.host}`)}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().userList).toEqual([]);
    expect(remote.asked).toEqual([]);
  });
});
