import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RouteOptions } from 'fastify';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from '#core/app-paths';
import type { Json, PeerRequest } from '../helpers/activitypub-bot/protocol';
import { type BotPeer, settleWithPeer, startBotPeer } from '../helpers/activitypub-bot-peer';
import { type PostView, okJson as ok } from '../helpers/expect';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { type HttpsInstance, startHttpsInstance } from '../helpers/https-instance';
import { multipartBody } from '../helpers/multipart';
import { makeTestCertificates } from '../helpers/test-certificates';

/**
 * Kruh against an ActivityPub server no one here wrote: @evanp/activitypub-bot (by an author of the
 * ActivityPub specification), running one bot in a process of its own. Kruh is served over https
 * under a name, with a certificate of an authority made for the run, which the bot trusts; the bot
 * finds people by WebFinger over https only, signs what it sends and checks the signatures of what
 * it receives. Each step is the bot's own API at work (follow, post, reply, like, unfollow) or a
 * Kruh user acting through Kruh's API, and each side is checked in its own terms: what the bot took
 * in and answered there, Kruh's API and rows here. The steps build on each other, in order.
 */

interface Notifications {
  notifications: Array<{ type: string; username: string; context: { post: string | null } }>;
}

const KRUH = 'kruh.test';
const AP = 'application/activity+json';
const PUBLIC = 'https://www.w3.org/ns/activitystreams#Public';
/** How the public collection may be written: the full IRI, or compacted. */
const PUBLIC_FORMS = [PUBLIC, 'as:Public', 'Public'];
const png = () => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 200, g: 80, b: 20 } } }).png().toBuffer();
const list = (value: unknown): unknown[] => (value === undefined ? [] : [value].flat());
/** An id of a compacted JSON-LD value: the string itself, or its `id`. */
const idOf = (value: unknown) => (typeof value === 'string' ? value : (value as { id?: string } | undefined)?.id);

describe('an independent ActivityPub server (@evanp/activitypub-bot)', () => {
  let dir: string;
  let kruh: HttpsInstance;
  let peer: BotPeer;
  let alice: TestUser;
  let aliceActor: string;
  /** The bot's account on Kruh, and its name there (`peer@localhost:<port>`). */
  let botHere: string;
  let botName: string;
  /** Alice's first post, and its ActivityPub id. */
  let alicePost: string;
  let alicePostAp: string;
  /** The signature headers of each GET Kruh answered under /ap/. */
  const signedGets: Array<{ url: string; signature: string }> = [];

  const settle = () => settleWithPeer(kruh, peer);
  const postAp = (id: string) => `${kruh.origin}/ap/posts/${id}`;
  const received = async () => (await peer.call('received')) as Json[];
  const notificationsOf = async (user: TestUser) => ok<Notifications>(await call(kruh.app, user, { method: 'GET', url: '/api/notification/' })).notifications;
  const followersOf = async (user: TestUser) =>
    ok<{ userList: Array<{ username: string }> }>(await call(kruh.app, user, { method: 'GET', url: `/api/profile/user/${user.username}/followers` })).userList;
  /** Whatever the bot failed at is shown with the assertion that fails on it. */
  const expectNoTroubles = async () => expect(await peer.call('troubles')).toEqual([]);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'kruh-bot-peer-'));
    const certificates = makeTestCertificates(dir, [KRUH]);
    kruh = await startHttpsInstance(KRUH, certificates.servers.get(KRUH)!, {}, {
      // The bot is at http://localhost:<port>, listening on 127.0.0.1 alone.
      resolve: async (hostname) => (hostname === 'localhost' ? [{ address: '127.0.0.1', family: 4 }] : []),
      onRoute(route: RouteOptions) {
        const noting = async (request: { method: string; url: string; headers: Record<string, unknown> }) => {
          if (request.method !== 'GET' || !request.url.startsWith('/ap/')) return;
          signedGets.push({ url: request.url, signature: `${request.headers.signature ?? ''}${request.headers['signature-input'] ?? ''}` });
        };
        route.onRequest = [...(route.onRequest ? [route.onRequest].flat() : []), noting];
      },
    });
    peer = await startBotPeer({ routes: { [`${KRUH}:443`]: kruh.httpsPort }, caFile: certificates.caFile, cwd: dir });
    botName = peer.handle.slice(1);
    alice = await createUser(kruh.app, { username: 'alice' });
    aliceActor = `${kruh.origin}/ap/actors/${alice.id}`;
    // Both servers make an actor's keys when it is first asked for; asked here, so that no step spends
    // the time a request may take (a signer's key read while its delivery waits) making an RSA key.
    for (const path of [`/ap/actors/${alice.id}`, '/ap/actors/instance']) {
      expect((await kruh.app.inject({ method: 'GET', url: path, headers: { accept: AP } })).statusCode).toBe(200);
    }
    for (const name of ['peer', 'localhost']) expect((await fetch(`${peer.origin}/user/${name}`, { headers: { accept: AP } })).status).toBe(200);
  });

  afterEach(({ task }) => {
    if (task.result?.state === 'fail') console.error(`what the bot's process wrote:\n${peer?.output()}`);
  });

  afterAll(async () => {
    await peer?.stop();
    await kruh?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds a Kruh user by WebFinger over https and reads her actor', async () => {
    // The bot asks https://kruh.test/.well-known/webfinger: it knows no other way to find anyone.
    expect(await peer.call('actorIdOf', `alice@${KRUH}`)).toBe(aliceActor);
    const actor = (await peer.call('fetch', aliceActor)) as Json & { publicKey: Json };
    expect(actor).toMatchObject({ id: aliceActor, type: 'Person', preferredUsername: 'alice', inbox: expect.stringMatching(/^https:\/\/kruh\.test\//) });
    expect(actor.publicKey).toMatchObject({ owner: aliceActor, publicKeyPem: expect.stringContaining('BEGIN PUBLIC KEY') });
  });

  it('the bot follows alice: Kruh accepts, and the bot counts her as followed', async () => {
    const follow = (await peer.call('follow', aliceActor)) as Json;
    await settle();
    await expectNoTroubles();
    expect(await peer.call('isFollowing', aliceActor)).toBe(true);
    const follows = await kruh.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', alice.id).execute();
    expect(follows).toEqual([{ remote_actor_id: peer.actorId }]);
    // The Accept the bot took in is Kruh's answer to its Follow.
    const accept = (await received()).find((activity) => activity.type === 'Accept');
    expect(accept).toMatchObject({ actor: aliceActor });
    expect(idOf(accept!.object)).toBe(follow.id);
  });

  it('alice sees the bot among her followers', async () => {
    expect((await followersOf(alice)).map((u) => u.username)).toEqual([botName]);
    const profile = ok<{ user: { followers: number } }>(await call(kruh.app, alice, { method: 'GET', url: '/api/profile/user/alice' }));
    expect(profile.user.followers).toBe(1);
  });

  it('alice finds the bot by its handle and follows it: the bot accepts', async () => {
    const res = await call(kruh.app, alice, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(peer.handle)}` });
    const found = ok<{ userList: Array<{ _id: string; username: string }> }>(res).userList.find((u) => u.username === botName);
    expect(found).toBeDefined();
    botHere = found!._id;
    ok(await call(kruh.app, alice, { method: 'POST', url: '/api/follow', payload: { following: botHere } }), 201);
    await settle();
    await expectNoTroubles();
    expect(await peer.call('isFollower', aliceActor)).toBe(true);
  });

  it("alice's public post reaches the bot, which took it only under her verified signature", async () => {
    alicePost = ok<{ _id: string }>(await call(kruh.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Hello, bots #kruh' } }), 201)._id;
    alicePostAp = postAp(alicePost);
    await settle();
    await expectNoTroubles();
    const create = (await received()).find((activity) => activity.type === 'Create' && idOf(activity.object) === alicePostAp);
    expect(create).toMatchObject({ actor: aliceActor, object: { type: 'Note', attributedTo: aliceActor } });
    expect(String((create!.object as Json).content)).toContain('Hello, bots');
    // Public in a form the bot reads as such (it took it in at its shared inbox).
    expect([...list(create!.to), ...list(create!.cc)].some((to) => PUBLIC_FORMS.includes(String(to)))).toBe(true);
    // The bot took Kruh's delivery after checking its signature and digest against alice's key…
    const delivery = ((await peer.call('requests')) as PeerRequest[]).find((r) => r.method === 'POST' && r.body.includes(alicePostAp));
    expect(delivery).toMatchObject({ path: '/shared/inbox', status: 202, signed: true, signer: aliceActor });
    // Signed as Mastodon reads signatures too: draft-cavage, over the request line, host, date and digest.
    const covered = /headers="([^"]*)"/.exec(String(delivery!.headers.signature))?.[1]?.split(' ');
    expect(covered).toEqual(expect.arrayContaining(['(request-target)', 'host', 'date', 'digest']));
    // …so the same request sent again is taken, and one with other words under that signature is
    // refused (its digest made to match the words, so that the signature alone stands in the way).
    const replay = (body: string) => {
      const headers = Object.fromEntries(Object.entries(delivery!.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
      const sha256 = createHash('sha256').update(body).digest('base64');
      if (headers.digest) headers.digest = `SHA-256=${sha256}`;
      if (headers['content-digest']) headers['content-digest'] = `sha-256=:${sha256}:`;
      return fetch(`${peer.origin}${delivery!.path}`, { method: 'POST', headers, body });
    };
    expect((await replay(delivery!.body)).status).toBe(202);
    expect((await replay(delivery!.body.replace('Hello, bots', 'Hello, dupes'))).status).toBe(401);
  });

  it("alice's post with a picture reaches the bot with the picture in its Create", async () => {
    const post = ok<{ _id: string }>(await call(kruh.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Sunset over the hills' } }), 201)._id;
    // The app uploads a post's pictures right after writing it.
    const body = multipartBody({ id: post, index: '0', alt: 'An orange sky' }, [{ field: 'image', filename: 'sky.png', contentType: 'image/png', data: await png() }]);
    ok(await call(kruh.app, alice, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers }), 201);
    await settle();
    await expectNoTroubles();
    const create = (await received()).find((activity) => activity.type === 'Create' && idOf(activity.object) === postAp(post));
    expect(create).toBeDefined();
    const attachments = list((create!.object as Json).attachment) as Json[];
    expect(attachments).toEqual([expect.objectContaining({ mediaType: expect.stringMatching(/^image\//), name: 'An orange sky' })]);
    expect(String(idOf(attachments[0]!.url) ?? attachments[0]!.url)).toMatch(/^https:\/\/kruh\.test\/media\//);
  });

  it("the bot's public post reaches alice, who follows it, as the bot's", async () => {
    const note = (await peer.call('note', 'Beep boop, a post from the bot', { to: PUBLIC, cc: `${peer.actorId}/followers` })) as Json;
    await settle();
    await expectNoTroubles();
    const stored = await kruh.app.db.selectFrom('posts').select(['id', 'text', 'author_id']).where('ap_id', '=', String(note.id)).executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ text: 'Beep boop, a post from the bot', author_id: botHere });
    const feed = ok<{ posts: PostView[] }>(await call(kruh.app, alice, { method: 'GET', url: '/api/feed/following' }));
    expect(feed.posts.find((p) => p._id === stored.id)).toMatchObject({ author: { username: botName }, remote: { host: peer.host } });
  });

  it("the bot's reply to alice's post becomes a comment on it, and alice is told", async () => {
    await peer.call('reply', 'Boop to you too', alicePostAp);
    await settle();
    await expectNoTroubles();
    const thread = ok<{ comments: Array<{ text: string; author: { username: string } }> }>(
      await call(kruh.app, alice, { method: 'GET', url: `/api/post/${alicePost}/comments` }),
    );
    expect(thread.comments).toEqual([expect.objectContaining({ text: 'Boop to you too', author: expect.objectContaining({ username: botName }) })]);
    expect(await notificationsOf(alice)).toContainEqual(expect.objectContaining({ username: botName, context: expect.objectContaining({ post: alicePost }) }));
  });

  it("the bot's like of alice's post counts on it; an unsigned one in its name is refused", async () => {
    const like = { '@context': 'https://www.w3.org/ns/activitystreams', id: `${peer.actorId}/forged-like`, type: 'Like', actor: peer.actorId, object: alicePostAp };
    const unsigned = await kruh.app.inject({ method: 'POST', url: `/ap/actors/${alice.id}/inbox`, headers: { 'content-type': AP }, payload: JSON.stringify(like) });
    expect(unsigned.statusCode).toBe(401);
    await peer.call('like', alicePostAp);
    await settle();
    await expectNoTroubles();
    expect(ok<PostView>(await call(kruh.app, alice, { method: 'GET', url: `/api/post/${alicePost}` })).likes).toBe(1);
  });

  it('the bot naming @alice in a post mentions her, and she is told', async () => {
    const note = (await peer.call('note', `Good morning @alice@${KRUH}`, { to: PUBLIC, cc: aliceActor })) as Json;
    // The bot found her by WebFinger, and names her by her profile page (her actor's `url`), not by
    // her actor's IRI: the Mention's `href` is all that says who is meant.
    expect(list(note.tag)).toContainEqual({ type: 'Mention', name: `@alice@${KRUH}`, href: new URL(appPaths.user('alice'), kruh.origin).href });
    await settle();
    await expectNoTroubles();
    const stored = await kruh.app.db.selectFrom('posts').select('id').where('ap_id', '=', String(note.id)).executeTakeFirstOrThrow();
    const mentions = await kruh.app.db.selectFrom('post_mentions').select('user_id').where('post_id', '=', stored.id).execute();
    expect(mentions).toEqual([{ user_id: alice.id }]);
    expect(await notificationsOf(alice)).toContainEqual(expect.objectContaining({ type: 'MENTION', username: botName, context: expect.objectContaining({ post: stored.id }) }));
  });

  it("the bot reads a post of alice's it has not been sent from Kruh, with a signed request", async () => {
    // Read before Kruh delivers it: what the bot was sent, it keeps and does not ask for again.
    const post = ok<{ _id: string }>(await call(kruh.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Fetched, not sent' } }), 201)._id;
    const note = (await peer.call('fetch', postAp(post))) as Json;
    expect(note).toMatchObject({ id: postAp(post), type: 'Note', attributedTo: aliceActor, content: expect.stringContaining('Fetched, not sent') });
    const asked = signedGets.filter((get) => get.url === new URL(postAp(post)).pathname);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((get) => get.signature.includes(`${peer.actorId}/publickey`))).toBe(true);
    await settle();
  });

  it("Kruh reads the bot's documents with requests signed by a key the bot verifies", async () => {
    const fromKruh = (r: PeerRequest) => String(r.headers['user-agent']).includes(`(+${kruh.origin})`);
    const gets = ((await peer.call('requests')) as PeerRequest[]).filter((r) => r.method === 'GET' && r.path.startsWith('/user/peer') && fromKruh(r));
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.every((r) => r.signed && r.signer?.startsWith(`${kruh.origin}/`))).toBe(true);
  });

  it("NodeInfo counts Kruh's own posts and people, none of the bot's", async () => {
    type Usage = { usage: { users: { total: number }; localPosts: number; localComments: number } };
    const nodeinfo = ok<Usage>(await kruh.app.inject({ method: 'GET', url: '/nodeinfo/2.1' }));
    // Kruh keeps the bot's posts and its reply, but wrote only alice's three posts itself.
    const kept = await kruh.app.db.selectFrom('posts').select(['author_id']).execute();
    expect(kept.filter((p) => p.author_id === botHere)).toHaveLength(2);
    expect(kept.filter((p) => p.author_id === alice.id)).toHaveLength(3);
    expect(nodeinfo.usage).toEqual({ users: { total: 1 }, localPosts: 3, localComments: 0 });
  });

  it("the bot's unfollow ends its follow of alice", async () => {
    const undo = (await peer.call('unfollow', aliceActor)) as Json;
    // The bot names the Follow it takes back without its actor: the Undo's own actor stands for it.
    expect(undo.object).toMatchObject({ type: 'Follow', id: expect.any(String) });
    expect(undo.object).not.toHaveProperty('actor');
    await settle();
    await expectNoTroubles();
    expect(await peer.call('isFollowing', aliceActor)).toBe(false);
    expect(await kruh.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', alice.id).execute()).toEqual([]);
    expect(await followersOf(alice)).toEqual([]);
  });
});
