import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addRemoteFollow, saveRemoteActor } from '../../src/modules/federation/federation.repository';
import { PICTURES_WAIT_MS } from '../../src/modules/federation/outbound/outgoing';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { newId } from '../../src/lib/ids';
import { type FakeActor, type FakeFediverse, type Received, injectSigned, signActivity, signerOf, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, addMember, call, createGroup, createPost, createUser, deleteOwnAccount } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/**
 * What the instance sends the fediverse when its users write, edit, delete, like, follow and
 * comment: fake remote servers record what their inboxes receive, and each delivery's signature is
 * checked against the local actor's published key.
 */

const ORIGIN = 'https://kruh.example';
// Fedify compacts the public address to its JSON-LD short form, which Mastodon and the others read too.
const PUBLIC = /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/;

/** JSON-LD compaction writes a list of one as the one value. */
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

type Json = Record<string, unknown> & { type: string; id: string; actor: string; to?: string | string[]; cc?: string | string[] };

const png = () => sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();

const actor = (id: string) => `${ORIGIN}/ap/actors/${id}`;
const noteUrl = (postId: string) => `${ORIGIN}/ap/posts/${postId}`;

describe('outgoing activities', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let one: FakeFediverse;
  let two: FakeFediverse;
  let bob: FakeActor;
  let carol: FakeActor;
  let dave: FakeActor;
  let alice: TestUser;
  let garden: { id: string; name: string };
  let hideout: { id: string; name: string };

  /** Makes `remote` follow a local user or group, as an accepted Follow leaves it. */
  async function remoteFollows(remote: FakeActor, localId: string) {
    const now = Date.now();
    await saveRemoteActor(t.app.db, { id: remote.id, inbox: remote.inbox, shared_inbox: remote.sharedInbox, handle: remote.handle }, now);
    await addRemoteFollow(t.app.db, remote.id, localId, now);
  }

  /** The local account standing for a remote actor. */
  const accountOf = (remote: FakeActor) =>
    remoteAccountFor(t.app.db, { id: remote.id, inbox: remote.inbox, sharedInbox: remote.sharedInbox, handle: remote.handle, url: null, bio: '' }, Date.now());

  /** Runs the queue and answers what each fake server received meanwhile, its signature checked. */
  async function deliveredBy(run: () => Promise<unknown>) {
    const from = [one.received.length, two.received.length];
    await run();
    await runDueJobs(t.app);
    const take = async (server: FakeFediverse, since: number) =>
      Promise.all(
        server.received.slice(since).map(async (delivery: Received) => ({
          path: delivery.path,
          // A deleted actor's key can no longer be read here: no signer then.
          signer: await signerOf(t.app, server, delivery).catch(() => null),
          activity: JSON.parse(delivery.body) as Json,
        })),
      );
    return { one: await take(one, from[0]!), two: await take(two, from[1]!) };
  }

  const ok = <R extends { statusCode: number; body: string }>(res: R, status = 200): R => {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  };

  beforeAll(async () => {
    one = await startFakeFediverse();
    two = await startFakeFediverse();
    bob = await one.actor('bob');
    carol = await one.actor('carol');
    dave = await two.actor('dave', { shared: false });
    alice = await createUser(t.app, { username: 'alice' });
    garden = await createGroup(t.app, alice, { name: 'garden' });
    hideout = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
    // Two followers on one server with a shared inbox, one on a server without.
    await remoteFollows(bob, alice.id);
    await remoteFollows(carol, alice.id);
    await remoteFollows(dave, alice.id);
  });
  afterAll(async () => {
    await one.close();
    await two.close();
  });

  it('makes a typed @name@host a mention of the remote account, tagged in the Note and delivered to its inbox', async () => {
    // Bob is known here; Erin is not yet, and is looked up on her server as the post is written.
    await accountOf(bob);
    const erin = await two.actor('erin', { shared: false });
    let postId = '';
    const got = await deliveredBy(async () => {
      const text = `hi ${bob.handle} and ${erin.handle}!`;
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text } }), 201);
      postId = (res.json() as { _id: string })._id;
    });
    const mentioned = await t.app.db.selectFrom('post_mentions').select('username').where('post_id', '=', postId).execute();
    expect(mentioned.map((m) => m.username).sort()).toEqual([bob.account, erin.account].sort());

    // Bob's server has his followers' shared inbox already; Erin's inbox is her own.
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(got.two.map((d) => d.path).sort()).toEqual(['/users/dave/inbox', '/users/erin/inbox']);
    const note = got.two[0]!.activity.object as Json & { tag: unknown; cc: unknown; content: string };
    expect(list(note.tag)).toEqual(
      expect.arrayContaining([
        { type: 'Mention', href: bob.id, name: bob.handle },
        { type: 'Mention', href: erin.id, name: erin.handle },
      ]),
    );
    expect(list(note.cc)).toEqual(expect.arrayContaining([bob.id, erin.id]));
    expect(note.content).toContain(`href="${erin.id}"`);

    // Its deletion reaches them too.
    const deleted = await deliveredBy(() => call(t.app, alice, { method: 'DELETE', url: `/api/post/${postId}` }).then((res) => ok(res)));
    expect(deleted.two.filter((d) => d.activity.type === 'Delete').map((d) => d.path).sort()).toEqual(['/users/dave/inbox', '/users/erin/inbox']);
  });

  it("sends a public post's Create to each of the author's follower inboxes once, signed by the author", async () => {
    let postId = '';
    const got = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Hello #fediverse' } }), 201);
      postId = (res.json() as { _id: string })._id;
    });
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(got.two.map((d) => d.path)).toEqual(['/users/dave/inbox']);
    for (const delivery of [...got.one, ...got.two]) {
      expect(delivery.signer).toBe(actor(alice.id));
      const create = delivery.activity;
      expect(create).toMatchObject({ type: 'Create', actor: actor(alice.id), cc: `${actor(alice.id)}/followers` });
      expect(list(create.to)).toEqual([expect.stringMatching(PUBLIC)]);
      expect(create.object).toMatchObject({ type: 'Note', id: noteUrl(postId), attributedTo: actor(alice.id) });
      expect(list((create.object as { tag: unknown }).tag)).toEqual([expect.objectContaining({ type: 'Hashtag', name: '#fediverse' })]);
    }
  });

  it('has a public group announce its posts to its own followers, signed by the group', async () => {
    await remoteFollows(dave, garden.id);
    const member = await createUser(t.app);
    await addMember(t.app, garden.id, member);
    let postId = '';
    const got = await deliveredBy(async () => {
      const res = ok(await call(t.app, member, { method: 'POST', url: '/api/post', payload: { text: 'In the garden', groups: [garden.name] } }), 201);
      postId = (res.json() as { _id: string })._id;
    });
    // The member has no remote followers: only the group's hear of it.
    expect(got.one).toEqual([]);
    expect(got.two).toHaveLength(1);
    const [announce] = got.two;
    expect(announce!.signer).toBe(actor(garden.id));
    expect(announce!.activity).toMatchObject({ type: 'Announce', actor: actor(garden.id), cc: `${actor(garden.id)}/followers` });
    expect(list(announce!.activity.to)).toEqual([expect.stringMatching(PUBLIC)]);
    expect(announce!.activity.object).toMatchObject({ type: 'Create', actor: actor(member.id), object: { type: 'Note', id: noteUrl(postId) } });
  });

  it("names the first public group a post is in as its Note's audience, and its comments', and none for a post in no group", async () => {
    const orchard = await createGroup(t.app, alice, { name: 'orchard' });
    const read = async (path: string) => ok(await t.app.inject({ method: 'GET', url: path, headers: { accept: 'application/activity+json' } })).json<Json>();
    const { id: postId } = await createPost(t.app, alice, { text: 'pears or plums?', groupIds: [orchard.id, garden.id] });
    expect(await read(`/ap/posts/${postId}`)).toMatchObject({ id: noteUrl(postId), audience: actor(orchard.id) });
    const sent = await deliveredBy(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'plums' } }).then((res) => ok(res, 201)));
    const commentId = (await t.app.db.selectFrom('comments').select('id').where('post_id', '=', postId).executeTakeFirstOrThrow()).id;
    expect(await read(`/ap/comments/${commentId}`)).toMatchObject({ audience: actor(orchard.id) });
    // The groups pass the comment on with its audience in it.
    const announced = [...sent.one, ...sent.two].filter((d) => d.activity.type === 'Announce');
    expect(announced.length).toBeGreaterThan(0);
    for (const announce of announced) expect(announce.activity.object).toMatchObject({ object: { audience: actor(orchard.id) } });

    const { id: plain } = await createPost(t.app, alice, { text: 'no group here' });
    expect(await read(`/ap/posts/${plain}`)).not.toHaveProperty('audience');
  });

  it("sends an edit as an Update and a deletion as a Delete of a Tombstone, to the post's audience", async () => {
    const { id: postId } = await createPost(t.app, alice, { text: 'first words', groupIds: [garden.id] });
    const edited = await deliveredBy(() =>
      call(t.app, alice, { method: 'PATCH', url: `/api/post/${postId}`, payload: { text: 'second words' } }).then((res) => ok(res)),
    );
    expect(edited.one.map((d) => d.activity.type)).toEqual(['Update']);
    const update = edited.one[0]!.activity;
    expect(update).toMatchObject({ actor: actor(alice.id), object: { type: 'Note', id: noteUrl(postId) } });
    expect((update.object as { content: string }).content).toContain('second words');
    // dave follows both alice and the group: the Update, and the group's Announce of it.
    expect(edited.two.map((d) => [d.activity.type, d.signer])).toEqual([
      ['Update', actor(alice.id)],
      ['Announce', actor(garden.id)],
    ]);

    const deleted = await deliveredBy(() => call(t.app, alice, { method: 'DELETE', url: `/api/post/${postId}` }).then((res) => ok(res)));
    expect(deleted.one).toHaveLength(1);
    const del = deleted.one[0]!;
    expect(del.signer).toBe(actor(alice.id));
    expect(del.activity).toMatchObject({ type: 'Delete', actor: actor(alice.id), object: { type: 'Tombstone', id: noteUrl(postId) } });
    expect(list(del.activity.to)).toEqual([expect.stringMatching(PUBLIC)]);
    expect(deleted.two.map((d) => d.activity.type)).toEqual(['Delete', 'Announce']);
    expect(deleted.two[1]!.activity.object).toMatchObject({ type: 'Delete', object: { type: 'Tombstone', id: noteUrl(postId) } });
  });

  it('sends a picture added to a post already sent as an Update carrying it, a new id per picture; none for a private group', async () => {
    const upload = async (postId: string, index: number) => {
      const body = multipartBody({ id: postId, index: String(index), alt: `picture ${index}` }, [{ field: 'image', filename: 'p.png', contentType: 'image/png', data: await png() }]);
      ok(await call(t.app, alice, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers }), 201);
    };
    const { id: postId } = await createPost(t.app, alice, { text: 'pictures follow' });
    const first = await deliveredBy(() => upload(postId, 0));
    const second = await deliveredBy(() => upload(postId, 1));
    const updates = [first.one[0]!.activity, second.one[0]!.activity];
    expect(updates.map((u) => u.type)).toEqual(['Update', 'Update']);
    expect(updates[0]!.id).not.toBe(updates[1]!.id);
    // Mastodon applies an Update of a Note only when its `updated` is newer than what it holds.
    const times = updates.map((u) => u.object as { published: string; updated?: string });
    for (const note of times) expect(Date.parse(note.updated!)).toBeGreaterThan(Date.parse(note.published));
    expect(Date.parse(times[1]!.updated!)).toBeGreaterThan(Date.parse(times[0]!.updated!));
    expect(list((updates[1]!.object as { attachment?: unknown }).attachment)).toEqual([
      expect.objectContaining({ type: 'Document', name: 'picture 0' }),
      expect.objectContaining({ type: 'Document', name: 'picture 1' }),
    ]);

    await remoteFollows(bob, hideout.id);
    const { id: hidden } = await createPost(t.app, alice, { text: 'members only', groupIds: [hideout.id] });
    expect(await deliveredBy(() => upload(hidden, 0))).toEqual({ one: [], two: [] });
  });

  it('sends a post written with pictures to follow once they are in place: its first Create carries them, described', async () => {
    const upload = async (postId: string, index: number) => {
      const body = multipartBody({ id: postId, index: String(index), alt: `picture ${index}` }, [{ field: 'image', filename: 'p.png', contentType: 'image/png', data: await png() }]);
      ok(await call(t.app, alice, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers }), 201);
    };
    let postId = '';
    // The app says how many pictures it uploads after the post; nothing goes out before the last.
    const written = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'two pictures', images: 2 } }), 201);
      postId = (res.json() as { _id: string })._id;
    });
    expect(written).toEqual({ one: [], two: [] });
    expect(await deliveredBy(() => upload(postId, 0))).toEqual({ one: [], two: [] });
    const got = await deliveredBy(() => upload(postId, 1));
    expect(got.one.map((d) => d.activity.type)).toEqual(['Create']);
    expect(got.two.map((d) => d.activity.type)).toEqual(['Create']);
    const note = got.one[0]!.activity.object as { id: string; attachment: unknown; updated?: string };
    expect(note.id).toBe(noteUrl(postId));
    expect(note).not.toHaveProperty('updated');
    expect(list(note.attachment)).toEqual([
      { type: 'Document', mediaType: 'image/webp', url: expect.stringMatching(new RegExp(`^${ORIGIN}/media/${postId}0\\.webp`)), name: 'picture 0' },
      { type: 'Document', mediaType: 'image/webp', url: expect.stringMatching(new RegExp(`^${ORIGIN}/media/${postId}1\\.webp`)), name: 'picture 1' },
    ]);
    // Once the wait for the pictures is over, nothing more goes: the Create went.
    const later = () => Date.now() + PICTURES_WAIT_MS + 1000;
    expect(await deliveredBy(() => runDueJobs(t.app, { clock: later }))).toEqual({ one: [], two: [] });
  });

  it('sends a post whose pictures never come once the wait for them is over, with those that came', async () => {
    let postId = '';
    const written = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'pictures lost on the way', images: 2 } }), 201);
      postId = (res.json() as { _id: string })._id;
    });
    expect(written).toEqual({ one: [], two: [] });
    const late = await deliveredBy(() => runDueJobs(t.app, { clock: () => Date.now() + PICTURES_WAIT_MS + 1000 }));
    expect(late.one.map((d) => d.activity.type)).toEqual(['Create']);
    expect(late.one[0]!.activity.object).toMatchObject({ id: noteUrl(postId), content: '<p>pictures lost on the way</p>' });
  });

  it("delivers nothing of a private group's post, its edit, deletion or comments", async () => {
    await remoteFollows(bob, hideout.id);
    const got = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'members only', groups: [hideout.name] } }), 201);
      const postId = (res.json() as { _id: string })._id;
      ok(await call(t.app, alice, { method: 'PATCH', url: `/api/post/${postId}`, payload: { text: 'still members only' } }));
      // Not even to a remote account it names.
      await accountOf(bob);
      const comment = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: `a members-only comment for ${bob.handle}` } }), 201);
      const commentId = (comment.json() as { _id: string; mentions: { username: string }[] })._id;
      expect((comment.json() as { mentions: { username: string }[] }).mentions.map((m) => m.username)).toEqual([bob.account]);
      ok(await call(t.app, alice, { method: 'DELETE', url: `/api/comment/${commentId}` }));
      ok(await call(t.app, alice, { method: 'DELETE', url: `/api/post/${postId}` }));
    });
    expect(got).toEqual({ one: [], two: [] });
  });

  it('delivers nothing of a post in a private group among public ones, nor of a suspended author\'s post', async () => {
    await remoteFollows(dave, garden.id);
    const mixed = await deliveredBy(() =>
      call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'for some eyes', groups: [garden.name, hideout.name] } }).then((res) => ok(res, 201)),
    );
    expect(mixed).toEqual({ one: [], two: [] });

    const frank = await createUser(t.app);
    await remoteFollows(bob, frank.id);
    // Suspended after writing, before the queue runs: what goes out is read when it is sent.
    const suspended = await deliveredBy(async () => {
      ok(await call(t.app, frank, { method: 'POST', url: '/api/post', payload: { text: 'just before the suspension' } }), 201);
      await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', frank.id).execute();
      t.app.invalidateVisitorCache();
    });
    expect(suspended).toEqual({ one: [], two: [] });
  });

  it("sends a like of a remote post to its author's inbox, and an Undo of that Like when taken back", async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, { id: bobAccount } as TestUser, { text: 'a post from elsewhere' });
    const apId = `${bob.id}/statuses/${randomUUID()}`;
    await t.app.db.updateTable('posts').set({ ap_id: apId }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();

    const liked = await deliveredBy(() => call(t.app, alice, { method: 'PATCH', url: `/api/post/${postId}/like`, payload: { liked: true } }).then((res) => ok(res)));
    expect(liked.one.map((d) => d.path)).toEqual(['/users/bob/inbox']);
    const like = liked.one[0]!;
    expect(like.signer).toBe(actor(alice.id));
    expect(like.activity).toMatchObject({ type: 'Like', actor: actor(alice.id), object: apId });

    const unliked = await deliveredBy(() => call(t.app, alice, { method: 'PATCH', url: `/api/post/${postId}/like`, payload: { liked: false } }).then((res) => ok(res)));
    expect(unliked.one).toHaveLength(1);
    expect(unliked.one[0]!.activity).toMatchObject({ type: 'Undo', actor: actor(alice.id), object: { type: 'Like', id: like.activity.id, object: apId } });

    // A like of a local post stays here.
    const { id: local } = await createPost(t.app, alice);
    const localLike = await deliveredBy(() => call(t.app, alice, { method: 'PATCH', url: `/api/post/${local}/like`, payload: { liked: true } }).then((res) => ok(res)));
    expect(localLike).toEqual({ one: [], two: [] });
  });

  it("sends a like of a remote comment to its author's inbox, a toggle too, and an Undo of that Like when taken back", async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, alice, { text: 'what do you grow?' });
    const commentId = newId();
    const apId = `${bob.id}/statuses/${randomUUID()}`;
    await t.app.db
      .insertInto('comments')
      .values({ id: commentId, post_id: postId, parent_comment_id: null, author_id: bobAccount, text: 'Peas', search_text: 'peas', created_at: Date.now(), ap_id: apId })
      .execute();
    await t.app.db.updateTable('posts').set({ comments: 1 }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();
    const likeIt = (payload: { liked?: boolean }) =>
      call(t.app, alice, { method: 'PATCH', url: `/api/comment/${commentId}/like`, payload }).then((res) => ok(res));

    const liked = await deliveredBy(() => likeIt({ liked: true }));
    expect(liked.one.map((d) => d.path)).toEqual(['/users/bob/inbox']);
    const like = liked.one[0]!;
    expect(like.signer).toBe(actor(alice.id));
    expect(like.activity).toMatchObject({ type: 'Like', actor: actor(alice.id), object: apId });
    // Liked already: nothing new to say.
    expect(await deliveredBy(() => likeIt({ liked: true }))).toEqual({ one: [], two: [] });

    // A toggle takes it back, naming the very Like given.
    const unliked = await deliveredBy(() => likeIt({}));
    expect(unliked.one).toHaveLength(1);
    expect(unliked.one[0]!.activity).toMatchObject({ type: 'Undo', actor: actor(alice.id), object: { type: 'Like', id: like.activity.id, object: apId } });
    expect(await deliveredBy(() => likeIt({ liked: false }))).toEqual({ one: [], two: [] });

    // A like of a local comment stays here.
    const local = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'Beans' } }), 201).json() as { _id: string };
    const localLike = await deliveredBy(() =>
      call(t.app, alice, { method: 'PATCH', url: `/api/comment/${local._id}/like`, payload: { liked: true } }).then((res) => ok(res)),
    );
    expect(localLike).toEqual({ one: [], two: [] });
  });

  it("replies to a remote post with a Note in reply to it, to its author's server, readable at the comment's address, and deletes it there too", async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, { id: bobAccount } as TestUser, { text: 'what do you grow?' });
    const apId = `${bob.id}/statuses/${randomUUID()}`;
    await t.app.db.updateTable('posts').set({ ap_id: apId }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();

    let commentId = '';
    const got = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'Beans, mostly' } }), 201);
      commentId = (res.json() as { _id: string })._id;
    });
    // Bob's server names a shared inbox: an answer to him goes there, as a mention of him would.
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    const create = got.one[0]!;
    expect(create.signer).toBe(actor(alice.id));
    const commentNote = `${ORIGIN}/ap/comments/${commentId}`;
    expect(create.activity).toMatchObject({ type: 'Create', actor: actor(alice.id), cc: bob.id });
    expect(list(create.activity.to)).toEqual([expect.stringMatching(PUBLIC)]);
    expect(create.activity.object).toMatchObject({ type: 'Note', id: commentNote, inReplyTo: apId, attributedTo: actor(alice.id), cc: bob.id });
    expect(list((create.activity.object as { tag: unknown }).tag)).toEqual([{ type: 'Mention', href: bob.id, name: bob.handle }]);

    const fetched = ok(await t.app.inject({ method: 'GET', url: `/ap/comments/${commentId}`, headers: { accept: 'application/activity+json' } }));
    expect(fetched.headers['content-type']).toMatch(/^application\/activity\+json/);
    expect(fetched.json()).toMatchObject({ id: commentNote, type: 'Note', inReplyTo: apId });
    const page = await t.app.inject({ method: 'GET', url: `/ap/comments/${commentId}`, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`${ORIGIN}/p/${postId}`);

    const deleted = await deliveredBy(() => call(t.app, alice, { method: 'DELETE', url: `/api/comment/${commentId}` }).then((res) => ok(res)));
    expect(deleted.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(deleted.one[0]!.signer).toBe(actor(alice.id));
    expect(deleted.one[0]!.activity).toMatchObject({ type: 'Delete', actor: actor(alice.id), object: { type: 'Tombstone', id: commentNote } });

    // A comment on a local post goes to nobody.
    const { id: local } = await createPost(t.app, alice);
    const localComment = await deliveredBy(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: local, text: 'here only' } }));
    expect(localComment).toEqual({ one: [], two: [] });
  });

  it("sends a comment written with a picture to a remote post's author once the picture is in, its Note carrying it described; one without goes at once", async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, { id: bobAccount } as TestUser, { text: 'show me your garden' });
    await t.app.db.updateTable('posts').set({ ap_id: `${bob.id}/statuses/${randomUUID()}` }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();

    let commentId = '';
    const written = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'here it is', images: 1 } }), 201);
      commentId = (res.json() as { _id: string })._id;
    });
    expect(written).toEqual({ one: [], two: [] });
    const got = await deliveredBy(async () => {
      const body = multipartBody({ id: commentId, index: '0', alt: 'a bed of leeks' }, [{ field: 'image', filename: 'p.png', contentType: 'image/png', data: await png() }]);
      ok(await call(t.app, alice, { method: 'POST', url: '/api/upload/image', payload: body.payload, headers: body.headers }), 201);
    });
    expect(got.one.map((d) => [d.path, d.activity.type])).toEqual([['/shared-inbox', 'Create']]);
    const note = got.one[0]!.activity.object as { id: string; attachment: unknown };
    expect(note.id).toBe(`${ORIGIN}/ap/comments/${commentId}`);
    expect(list(note.attachment)).toEqual([
      { type: 'Document', mediaType: 'image/webp', url: expect.stringMatching(new RegExp(`^${ORIGIN}/media/${commentId}0\\.webp`)), name: 'a bed of leeks' },
    ]);
    // The wait ending later sends nothing more: the Create went.
    expect(await deliveredBy(() => runDueJobs(t.app, { clock: () => Date.now() + PICTURES_WAIT_MS + 1000 }))).toEqual({ one: [], two: [] });

    const plain = await deliveredBy(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'no picture' } }).then((res) => ok(res, 201)));
    expect(plain.one.map((d) => d.activity.type)).toEqual(['Create']);
    expect(plain.one[0]!.activity.object).not.toHaveProperty('attachment');
  });

  it('sends a comment whose picture never comes once the wait for it is over', async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, { id: bobAccount } as TestUser, { text: 'any photos?' });
    await t.app.db.updateTable('posts').set({ ap_id: `${bob.id}/statuses/${randomUUID()}` }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();
    let commentId = '';
    const written = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'lost on the way', images: 1 } }), 201);
      commentId = (res.json() as { _id: string })._id;
    });
    expect(written).toEqual({ one: [], two: [] });
    const late = await deliveredBy(() => runDueJobs(t.app, { clock: () => Date.now() + PICTURES_WAIT_MS + 1000 }));
    expect(late.one.map((d) => d.activity.type)).toEqual(['Create']);
    expect(late.one[0]!.activity.object).toMatchObject({ id: `${ORIGIN}/ap/comments/${commentId}` });

    // One deleted while it waits went nowhere: neither its Delete nor, once the wait is over, its Create goes.
    let waiting = '';
    const gone = await deliveredBy(async () => {
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'never mind', images: 1 } }), 201);
      waiting = (res.json() as { _id: string })._id;
      ok(await call(t.app, alice, { method: 'DELETE', url: `/api/comment/${waiting}` }));
    });
    expect(gone).toEqual({ one: [], two: [] });
    expect(await deliveredBy(() => runDueJobs(t.app, { clock: () => Date.now() + PICTURES_WAIT_MS + 1000 }))).toEqual({ one: [], two: [] });
  });

  it("sends a comment answering one actor and mentioning another of the same server once, to the server's shared inbox", async () => {
    const bobAccount = await accountOf(bob);
    const carolAccount = await accountOf(carol);
    const { id: postId } = await createPost(t.app, { id: bobAccount } as TestUser, { text: 'who else grows kale?' });
    const apId = `${bob.id}/statuses/${randomUUID()}`;
    await t.app.db.updateTable('posts').set({ ap_id: apId }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();

    const got = await deliveredBy(() =>
      call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'Carol does', mentions: [carolAccount] } }).then((res) => ok(res, 201)),
    );
    expect(got.one.map((d) => [d.path, d.activity.type])).toEqual([['/shared-inbox', 'Create']]);
    const object = got.one[0]!.activity.object as { cc: unknown; tag: unknown };
    expect(list(object.cc).sort()).toEqual([bob.id, carol.id].sort());
    expect(list(object.tag).map((tag) => (tag as { href: string }).href).sort()).toEqual([bob.id, carol.id].sort());
  });

  it("has a public group announce a comment on its post, and the comment's deletion, to its followers, signed by the group", async () => {
    await remoteFollows(dave, garden.id);
    const neighbour = await createUser(t.app);
    const { id: postId } = await createPost(t.app, alice, { text: 'Who wants rhubarb?', groupIds: [garden.id] });
    let commentId = '';
    const got = await deliveredBy(async () => {
      const res = ok(await call(t.app, neighbour, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text: 'Me, please' } }), 201);
      commentId = (res.json() as { _id: string })._id;
    });
    // The post's author is local and the commenter has no remote followers: only the group's followers hear of it.
    expect(got.one).toEqual([]);
    expect(got.two).toHaveLength(1);
    const commentNote = `${ORIGIN}/ap/comments/${commentId}`;
    const [announce] = got.two;
    expect(announce!.signer).toBe(actor(garden.id));
    expect(announce!.activity).toMatchObject({ type: 'Announce', actor: actor(garden.id), cc: `${actor(garden.id)}/followers` });
    expect(list(announce!.activity.to)).toEqual([expect.stringMatching(PUBLIC)]);
    expect(announce!.activity.object).toMatchObject({
      type: 'Create',
      actor: actor(neighbour.id),
      object: { type: 'Note', id: commentNote, inReplyTo: noteUrl(postId), attributedTo: actor(neighbour.id) },
    });

    const deleted = await deliveredBy(() => call(t.app, neighbour, { method: 'DELETE', url: `/api/comment/${commentId}` }).then((res) => ok(res)));
    expect(deleted.one).toEqual([]);
    expect(deleted.two.map((d) => [d.activity.type, d.signer])).toEqual([['Announce', actor(garden.id)]]);
    expect(deleted.two[0]!.activity.object).toMatchObject({ type: 'Delete', actor: actor(neighbour.id), object: { type: 'Tombstone', id: commentNote } });

    // Under a post that is in a private group as well, nothing goes anywhere.
    const { id: mixed } = await createPost(t.app, alice, { text: 'for some eyes', groupIds: [garden.id, hideout.id] });
    const quiet = await deliveredBy(() => call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: mixed, text: 'hush' } }).then((res) => ok(res, 201)));
    expect(quiet).toEqual({ one: [], two: [] });
  });

  it("sends a reply to a remote comment under a local post to that comment's author's server, in reply to its id", async () => {
    const bobAccount = await accountOf(bob);
    const { id: postId } = await createPost(t.app, alice, { text: 'what do you grow?' });
    const remoteCommentId = newId();
    const apId = `${bob.id}/statuses/${randomUUID()}`;
    await t.app.db
      .insertInto('comments')
      .values({ id: remoteCommentId, post_id: postId, parent_comment_id: null, author_id: bobAccount, text: 'Peas', search_text: 'peas', created_at: Date.now(), ap_id: apId })
      .execute();
    await t.app.db.updateTable('posts').set({ comments: 1 }).where('id', '=', postId).execute();
    t.app.invalidateVisitorCache();
    const got = await deliveredBy(() =>
      call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: remoteCommentId, text: 'Good choice' } }).then((res) => ok(res, 201)),
    );
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(got.one[0]!.activity.object).toMatchObject({ type: 'Note', inReplyTo: apId, cc: bob.id });
  });

  it("makes a typed @name@host in a comment a mention of the remote account, tagged, linked and sent its Create and Delete", async () => {
    // Bob is known here; Fern is not yet, and is looked up on her server as the comment is written
    // (a server of her own, which nothing here has talked to yet).
    await accountOf(bob);
    const three = await startFakeFediverse();
    const fern = await three.actor('fern', { shared: false });
    const { id: postId } = await createPost(t.app, alice, { text: 'who grows peas?' });
    let commentId = '';
    const got = await deliveredBy(async () => {
      const text = `ask ${bob.handle} and ${fern.handle}`;
      const res = ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload: { parent: postId, text } }), 201);
      commentId = (res.json() as { _id: string })._id;
    });
    const mentioned = await t.app.db.selectFrom('comment_mentions').select('username').where('comment_id', '=', commentId).execute();
    expect(mentioned.map((m) => m.username).sort()).toEqual([bob.account, fern.account].sort());

    // Only the mentioned hear of a comment on a local post: Bob through his server's shared inbox.
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(got.two).toEqual([]);
    expect(three.received.map((d) => d.path)).toEqual(['/users/fern/inbox']);
    const create = { signer: await signerOf(t.app, three, three.received[0]!), activity: JSON.parse(three.received[0]!.body) as Json };
    expect(create.signer).toBe(actor(alice.id));
    expect(create.activity).toMatchObject({ type: 'Create', actor: actor(alice.id) });
    expect(list(create.activity.cc)).toEqual(expect.arrayContaining([bob.id, fern.id]));
    const note = create.activity.object as Json & { tag: unknown; cc: unknown; content: string };
    expect(note).toMatchObject({ type: 'Note', id: `${ORIGIN}/ap/comments/${commentId}`, inReplyTo: noteUrl(postId) });
    expect(list(note.tag)).toEqual(
      expect.arrayContaining([
        { type: 'Mention', href: bob.id, name: bob.handle },
        { type: 'Mention', href: fern.id, name: fern.handle },
      ]),
    );
    expect(list(note.tag)).toHaveLength(2);
    expect(list(note.cc).sort()).toEqual([bob.id, fern.id].sort());
    expect(note.content).toContain(`href="${bob.id}"`);
    expect(note.content).toContain(`href="${fern.id}"`);

    const deleted = await deliveredBy(() => call(t.app, alice, { method: 'DELETE', url: `/api/comment/${commentId}` }).then((res) => ok(res)));
    expect(deleted.one.map((d) => [d.path, d.activity.type])).toEqual([['/shared-inbox', 'Delete']]);
    expect(three.received.slice(1).map((d) => [d.path, (JSON.parse(d.body) as Json).type])).toEqual([['/users/fern/inbox', 'Delete']]);
    await three.close();
  });

  it("names typed remote handles in a comment only within the mentions' limit, after the chosen ones", async () => {
    await accountOf(bob);
    await accountOf(carol);
    const { id: postId } = await createPost(t.app, alice, { text: 'name ten friends' });
    const chosen = Array.from({ length: 9 }, (_, i) => `friend${i}`);
    let commentId = '';
    const got = await deliveredBy(async () => {
      const payload = { parent: postId, text: `and ${bob.handle} and ${carol.handle}`, mentions: chosen };
      commentId = (ok(await call(t.app, alice, { method: 'POST', url: '/api/comment/', payload }), 201).json() as { _id: string })._id;
    });
    const mentioned = await t.app.db.selectFrom('comment_mentions').select('username').where('comment_id', '=', commentId).orderBy('position').execute();
    expect(mentioned.map((m) => m.username)).toEqual([...chosen, bob.account]);
    expect(got.one.map((d) => d.path)).toEqual(['/shared-inbox']);
    expect(list((got.one[0]!.activity.object as { tag: unknown }).tag)).toEqual([{ type: 'Mention', href: bob.id, name: bob.handle }]);
    expect(got.two).toEqual([]);
  });

  it('follows a remote account with a Follow, ends it on a Reject, keeps it on an Accept, and takes it back with an Undo', async () => {
    const carolAccount = await accountOf(carol);
    const follows = () => t.app.db.selectFrom('follows').select('follower_id').where('following_id', '=', carolAccount).execute();
    const follow = () => call(t.app, alice, { method: 'POST', url: '/api/follow', payload: { following: carolAccount } });

    const sent = await deliveredBy(() => follow().then((res) => ok(res, 201)));
    expect(sent.one.map((d) => d.path)).toEqual(['/users/carol/inbox']);
    const first = sent.one[0]!;
    expect(first.signer).toBe(actor(alice.id));
    expect(first.activity).toMatchObject({ type: 'Follow', actor: actor(alice.id), object: carol.id });

    // Only the account followed may answer: bob's Reject of it changes nothing.
    const answer = (who: FakeActor, type: string, object: unknown) =>
      signActivity(who, `${ORIGIN}/ap/actors/${alice.id}/inbox`, { id: `${who.id}/answers/${randomUUID()}`, type, actor: who.id, object });
    expect((await injectSigned(t.app, await answer(bob, 'Reject', first.activity))).statusCode).toBe(202);
    expect(await follows()).toEqual([{ follower_id: alice.id }]);
    expect((await injectSigned(t.app, await answer(carol, 'Reject', first.activity))).statusCode).toBe(202);
    expect(await follows()).toEqual([]);

    const again = await deliveredBy(() => follow().then((res) => ok(res, 201)));
    const second = again.one[0]!.activity;
    expect(second.id).not.toBe(first.activity.id);
    expect((await injectSigned(t.app, await answer(carol, 'Accept', second.id))).statusCode).toBe(202);
    expect(await follows()).toEqual([{ follower_id: alice.id }]);

    const undone = await deliveredBy(() =>
      call(t.app, alice, { method: 'DELETE', url: '/api/follow/delete', payload: { following: carolAccount } }).then((res) => ok(res)),
    );
    expect(undone.one).toHaveLength(1);
    expect(undone.one[0]!.activity).toMatchObject({ type: 'Undo', actor: actor(alice.id), object: { type: 'Follow', id: second.id, object: carol.id } });
  });

  it("forgets a group's remote followers when it is made private or deleted", async () => {
    const followersOf = (id: string) => t.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', id).execute();
    const closing = await createGroup(t.app, alice);
    const going = await createGroup(t.app, alice);
    await remoteFollows(bob, closing.id);
    await remoteFollows(bob, going.id);
    ok(await call(t.app, alice, { method: 'PATCH', url: `/api/group/${closing.id}/update`, payload: { name: closing.name, isPrivate: true } }));
    expect(await followersOf(closing.id)).toEqual([]);
    ok(await call(t.app, alice, { method: 'DELETE', url: `/api/group/${going.id}` }));
    expect(await followersOf(going.id)).toEqual([]);
  });

  it("tells a deleted account's remote followers its actor is gone, and forgets them", async () => {
    const erin = await createUser(t.app);
    await remoteFollows(dave, erin.id);
    const got = await deliveredBy(() => deleteOwnAccount(t.app, erin).then((res) => ok(res)));
    expect(got.two).toHaveLength(1);
    expect(got.two[0]!.activity).toMatchObject({ type: 'Delete', actor: actor(erin.id), object: actor(erin.id) });
    expect(await t.app.db.selectFrom('remote_follows').selectAll().where('local_id', '=', erin.id).execute()).toEqual([]);
  });
});

describe('outgoing activities with federation off', () => {
  const t = useTestApp({ FEDERATION: 'false', PUBLIC_URL: ORIGIN });

  it('queues nothing for the fediverse', async () => {
    const alice = await createUser(t.app);
    const now = Date.now();
    await saveRemoteActor(t.app.db, { id: 'https://remote.example/users/bob', inbox: 'https://remote.example/inbox', shared_inbox: null, handle: '@bob@remote.example' }, now);
    await addRemoteFollow(t.app.db, 'https://remote.example/users/bob', alice.id, now);
    ok(await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'nobody out there hears this' } }), 201);
    const jobs = await t.app.db.selectFrom('jobs').select('kind').where('kind', 'like', 'federation%').execute();
    expect(jobs).toEqual([]);
  });

  function ok<R extends { statusCode: number; body: string }>(res: R, status = 200): R {
    expect(res.statusCode, res.body).toBe(status);
    return res;
  }
});
