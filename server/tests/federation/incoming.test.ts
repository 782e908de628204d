import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { addRemoteFollow } from '../../src/modules/federation/federation.repository';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { AS_CONTEXT, type FakeActor, type FakeFediverse, PUBLIC, deliverToInbox, signerOf, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createGroup, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * What remote servers send to the instance's inboxes: a fake fediverse server in the test serves
 * its actors and signs their activities; the instance keeps what it wants (replies to what is here,
 * posts of followed or addressing actors), acts only on an author's own content, and sends every
 * reply and like through the rules a local user's goes through. Payloads shaped as Mastodon,
 * Misskey and Lemmy send them are in fixtures/.
 */

const ORIGIN = 'https://kruh.example';
const INBOX = '/ap/inbox';

describe('incoming activities', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let fedi: FakeFediverse;
  let bob: FakeActor;
  let carol: FakeActor;
  let dave: FakeActor;
  let erin: FakeActor;
  let eve: FakeActor;
  let cooking: FakeActor;
  let alice: TestUser;
  let fan: TestUser;

  /** A fixture with the fake server's address and the local ids put in. */
  function fixture(name: string): Record<string, unknown> {
    const raw = readFileSync(join(__dirname, 'fixtures', name), 'utf8');
    return JSON.parse(raw.replaceAll('https://remote.example', fedi.origin).replaceAll('{{alice}}', alice.id)) as Record<string, unknown>;
  }

  /** The account standing for an actor, made as following it from here would make it. */
  const accountOf = (actor: FakeActor) =>
    remoteAccountFor(t.app.db, { id: actor.id, inbox: actor.inbox, sharedInbox: null, handle: `@${actor.account}`, url: null, bio: '' }, Date.now());

  async function follow(user: TestUser, actor: FakeActor) {
    await t.app.db.insertInto('follows').values({ follower_id: user.id, following_id: await accountOf(actor), created_at: Date.now() }).execute();
  }

  /** The actor follows a local group from its server, as an accepted Follow leaves it. */
  async function remoteFollow(actor: FakeActor, groupId: string) {
    await accountOf(actor);
    await addRemoteFollow(t.app.db, actor.id, groupId, Date.now());
  }

  const groupsOf = async (postId: string) =>
    (await t.app.db.selectFrom('post_groups').select('group_id').where('post_id', '=', postId).execute()).map((row) => row.group_id);

  const localActor = (id: string) => `${ORIGIN}/ap/actors/${id}`;
  const localPost = (id: string) => `${ORIGIN}/ap/posts/${id}`;

  /** A public Note by the actor; `extra` adds or replaces fields. */
  const noteBy = (actor: FakeActor, extra: Record<string, unknown> = {}) => ({
    id: `${actor.id}/notes/${randomUUID()}`,
    type: 'Note',
    attributedTo: actor.id,
    to: [PUBLIC],
    cc: [actor.followers],
    content: '<p>hello from afar</p>',
    published: '2026-11-25T09:00:00Z',
    ...extra,
  });
  const activity = (type: string, actor: FakeActor, object: unknown) => ({ id: `${actor.id}/activities/${randomUUID()}`, type, actor: actor.id, to: [PUBLIC], object });
  const send = async (body: object, signer: FakeActor | null) => (await deliverToInbox(t.app, INBOX, body, signer)).statusCode;

  const postByAp = (apId: string) => t.app.db.selectFrom('posts').selectAll().where('ap_id', '=', apId).executeTakeFirst();
  const commentByAp = (apId: string) => t.app.db.selectFrom('comments').selectAll().where('ap_id', '=', apId).executeTakeFirst();
  const notificationsOf = async (userId: string) => {
    await runDueJobs(t.app);
    return t.app.db.selectFrom('notifications').select(['type', 'actor_id', 'post_id', 'comment_id']).where('user_id', '=', userId).execute();
  };

  beforeAll(async () => {
    fedi = await startFakeFediverse();
    bob = await fedi.actor('bob');
    carol = await fedi.actor('carol');
    dave = await fedi.actor('dave');
    erin = await fedi.actor('erin');
    eve = await fedi.actor('eve');
    cooking = await fedi.actor('cooking', { type: 'Group' });
    alice = await createUser(t.app, { username: 'alice' });
    fan = await createUser(t.app, { username: 'fan' });
    await follow(fan, bob);
  });
  afterAll(async () => {
    await fedi.close();
  });

  it("stores a followed actor's Mastodon Note as a post with its mention, hashtag, warning and picture, once", async () => {
    const create = fixture('mastodon-create-note.json');
    const note = create.object as { id: string; url: string };
    expect(await send(create, bob)).toBe(202);
    const post = await postByAp(note.id);
    const bobAccount = await accountOf(bob);
    expect(post).toMatchObject({
      author_id: bobAccount,
      ap_url: note.url,
      text: 'Hello @alice, the tomatoes are in! #garden\n\nPictures: https://photos.example/albums/2026/tomatoes',
      content_warning: 'Garden spoilers',
      created_at: Date.parse('2026-11-20T10:15:30Z'),
    });
    expect(JSON.parse(post!.remote_media!)).toEqual([
      { url: `${fedi.origin}/system/media_attachments/files/110/000/000/original/tomatoes.jpg`, alt: 'Red tomatoes on the vine' },
    ]);
    const mentions = await t.app.db.selectFrom('post_mentions').select(['user_id', 'username']).where('post_id', '=', post!.id).execute();
    expect(mentions).toEqual([{ user_id: alice.id, username: 'alice' }]);
    const tags = await t.app.db.selectFrom('post_hashtags').select('tag').where('post_id', '=', post!.id).execute();
    expect(tags.map((tag) => tag.tag)).toEqual(['garden']);
    expect(await notificationsOf(alice.id)).toContainEqual(expect.objectContaining({ type: 'MENTION', actor_id: bobAccount, post_id: post!.id }));

    const feed = await call(t.app, fan, { method: 'GET', url: '/api/feed/following' });
    expect((feed.json() as { posts: { _id: string }[] }).posts.map((p) => p._id)).toContain(post!.id);

    // The same Note again, in another activity: still one post.
    expect(await send({ ...create, id: `${String(create.id)}-again` }, bob)).toBe(202);
    expect(await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).execute()).toHaveLength(1);
  });

  it('stores a Misskey Note addressed to a local user, quote included, and ignores one nobody here wants', async () => {
    const create = fixture('misskey-create-note.json');
    expect(await send(create, carol)).toBe(202);
    const post = await postByAp((create.object as { id: string }).id);
    expect(post).toMatchObject({
      text: `Thanks for the seeds, @alice\nThey sprouted overnight!\n\nRE: ${fedi.origin}/notes/9xkq2m1a0000`,
      content_warning: 'seedlings',
      author_id: await accountOf(carol),
    });

    const unsolicited = noteBy(eve);
    expect(await send(activity('Create', eve, unsolicited), eve)).toBe(202);
    expect(await postByAp(unsolicited.id)).toBeUndefined();
  });

  it('stores a Note delivered twice at once a single time', async () => {
    const note = noteBy(bob);
    const reply = noteBy(carol, { inReplyTo: localPost((await createPost(t.app, alice)).id) });
    const statuses = await Promise.all([
      send(activity('Create', bob, note), bob),
      send(activity('Create', bob, note), bob),
      send(activity('Create', carol, reply), carol),
      send(activity('Create', carol, reply), carol),
    ]);
    expect(statuses).toEqual([202, 202, 202, 202]);
    expect(await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).execute()).toHaveLength(1);
    expect(await t.app.db.selectFrom('comments').select('id').where('ap_id', '=', reply.id).execute()).toHaveLength(1);
  });

  it('makes one account of a new actor whose first activities come at once', async () => {
    const newcomer = await fedi.actor('newcomer');
    const [first, second] = [await createPost(t.app, alice), await createPost(t.app, alice)];
    const statuses = await Promise.all([first, second].map((post) => send(activity('Like', newcomer, localPost(post.id)), newcomer)));
    expect(statuses).toEqual([202, 202]);
    const accounts = await t.app.db.selectFrom('users').select('id').where('username', '=', newcomer.account).execute();
    expect(accounts).toHaveLength(1);
    const likes = await t.app.db.selectFrom('post_likes').select('user_id').where('post_id', 'in', [first.id, second.id]).execute();
    expect(likes).toEqual([{ user_id: accounts[0]!.id }, { user_id: accounts[0]!.id }]);
  });

  it('keeps no Note that is not public, even one naming a local user', async () => {
    const direct = noteBy(bob, { to: [localActor(alice.id)], cc: [], tag: [{ type: 'Mention', href: localActor(alice.id), name: '@alice@kruh.example' }] });
    expect(await send(activity('Create', bob, direct), bob)).toBe(202);
    expect(await postByAp(direct.id)).toBeUndefined();
  });

  it('makes a reply to a local post a comment, and a reply to that comment a nested one, telling the authors', async () => {
    const post = await createPost(t.app, alice, { text: 'my tomatoes' });
    const reply = noteBy(dave, { inReplyTo: localPost(post.id), content: '<p>lovely <b>crop</b></p>' });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    const comment = await commentByAp(reply.id);
    const daveAccount = await accountOf(dave);
    expect(comment).toMatchObject({ post_id: post.id, parent_comment_id: null, author_id: daveAccount, text: 'lovely crop' });
    const stored = await t.app.db.selectFrom('posts').select('comments').where('id', '=', post.id).executeTakeFirstOrThrow();
    expect(Number(stored.comments)).toBe(1);
    expect(await notificationsOf(alice.id)).toContainEqual(expect.objectContaining({ type: 'NEW_REPLY', actor_id: daveAccount, comment_id: comment!.id }));

    const nested = noteBy(erin, { inReplyTo: reply.id, content: '<p>agreed</p>' });
    expect(await send(activity('Create', erin, nested), erin)).toBe(202);
    expect(await commentByAp(nested.id)).toMatchObject({ post_id: post.id, parent_comment_id: comment!.id, text: 'agreed' });
  });

  it("makes the local users a reply's Mention tags name mentions of its comment, and tells them; its text's handles add no one", async () => {
    const post = await createPost(t.app, alice, { text: 'who grows peas?' });
    // Bob's account is known here (fan follows him): a handle in a remote text is no mention of it.
    const content = `<p><span class="h-card"><a href="${ORIGIN}/u/fan" class="u-url mention">@<span>fan</span></a></span> does, ask @${bob.account}</p>`;
    const tag = [{ type: 'Mention', href: localActor(fan.id), name: '@fan@kruh.example' }];
    const reply = noteBy(dave, { inReplyTo: localPost(post.id), content, tag });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    const comment = await commentByAp(reply.id);
    expect(comment).toMatchObject({ post_id: post.id, author_id: await accountOf(dave) });
    const mentions = await t.app.db.selectFrom('comment_mentions').select(['user_id', 'username']).where('comment_id', '=', comment!.id).execute();
    expect(mentions).toEqual([{ user_id: fan.id, username: 'fan' }]);
    expect(await notificationsOf(fan.id)).toContainEqual(
      expect.objectContaining({ type: 'COMMENT_MENTION', actor_id: await accountOf(dave), post_id: post.id, comment_id: comment!.id }),
    );
  });

  it('takes a Mention or an address naming a local user by profile page or acct: URI as naming her, as by her actor', async () => {
    const mentioned = async (note: { id: string }) => {
      const post = await postByAp(note.id);
      expect(post).toBeDefined();
      return (await t.app.db.selectFrom('post_mentions').select('user_id').where('post_id', '=', post!.id).execute()).map((m) => m.user_id);
    };
    // eve is followed by no one here: the Note is kept only because it names alice, or fan.
    const byPage = noteBy(eve, { tag: [{ type: 'Mention', href: `${ORIGIN}/u/alice`, name: '@alice@kruh.example' }] });
    expect(await send(activity('Create', eve, byPage), eve)).toBe(202);
    expect(await mentioned(byPage)).toEqual([alice.id]);
    const post = (await postByAp(byPage.id))!;
    expect(await notificationsOf(alice.id)).toContainEqual(expect.objectContaining({ type: 'MENTION', actor_id: await accountOf(eve), post_id: post.id }));

    const byAcct = noteBy(eve, { tag: [{ type: 'Mention', href: 'acct:FAN@kruh.example', name: '@fan@kruh.example' }] });
    expect(await send(activity('Create', eve, byAcct), eve)).toBe(202);
    expect(await mentioned(byAcct)).toEqual([fan.id]);

    const addressed = noteBy(eve, { cc: [`${ORIGIN}/u/alice/`] });
    expect(await send(activity('Create', eve, addressed), eve)).toBe(202);
    expect(await mentioned(addressed)).toEqual([]);

    // Another server's page of the same name, or a page of ours naming nobody, names no one here.
    const elsewhere = noteBy(eve, { cc: [fedi.url('/u/alice')], tag: [{ type: 'Mention', href: 'acct:alice@elsewhere.example' }, { type: 'Mention', href: `${ORIGIN}/u/nobody` }] });
    expect(await send(activity('Create', eve, elsewhere), eve)).toBe(202);
    expect(await postByAp(elsewhere.id)).toBeUndefined();
  });

  it('links a remote post or comment that has no web page of its own to its id', async () => {
    const note = noteBy(eve, mentionOf(alice));
    expect(await send(activity('Create', eve, note), eve)).toBe(202);
    const post = (await postByAp(note.id))!;
    expect(post.ap_url).toBe(note.id);
    const read = (await call(t.app, fan, { method: 'GET', url: `/api/post/${post.id}` })).json<{ remote?: { url: string | null } }>();
    expect(read.remote?.url).toBe(note.id);

    const reply = noteBy(dave, { inReplyTo: localPost((await createPost(t.app, alice)).id), url: 'ftp://files.example/reply' });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    expect((await commentByAp(reply.id))?.ap_url).toBe(reply.id);
  });

  /** Puts a Note up on the fake server at its own address, as its author's server serves it. */
  const publish = (note: { id: string }) => fedi.serve(new URL(note.id).pathname, { '@context': AS_CONTEXT, ...note });
  const mentionOf = (user: TestUser) => ({ cc: [localActor(user.id)], tag: [{ type: 'Mention', href: localActor(user.id), name: `@${user.username}@kruh.example` }] });

  it('fetches the unknown thread of a reply naming a local user: its root a post, the answers between comments, told to nobody; the reply tells her', async () => {
    const root = noteBy(bob, { content: '<p>what is up in your garden?</p>' });
    const middle = noteBy(carol, { inReplyTo: root.id, content: '<p>leeks</p>' });
    publish(root);
    publish(middle);
    const reply = noteBy(dave, { inReplyTo: middle.id, content: '<p>alice has some too</p>', ...mentionOf(alice) });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);

    const post = await postByAp(root.id);
    expect(post).toMatchObject({ author_id: await accountOf(bob), text: 'what is up in your garden?' });
    const between = await commentByAp(middle.id);
    expect(between).toMatchObject({ post_id: post!.id, parent_comment_id: null, author_id: await accountOf(carol), text: 'leeks' });
    const comment = await commentByAp(reply.id);
    expect(comment).toMatchObject({ post_id: post!.id, parent_comment_id: between!.id, author_id: await accountOf(dave), text: 'alice has some too' });
    const mentions = await t.app.db.selectFrom('comment_mentions').select('user_id').where('comment_id', '=', comment!.id).execute();
    expect(mentions).toEqual([{ user_id: alice.id }]);
    expect(await notificationsOf(alice.id)).toContainEqual(expect.objectContaining({ type: 'COMMENT_MENTION', comment_id: comment!.id, post_id: post!.id }));
    // Fan follows bob, yet hears nothing of the post fetched as context, as of an old post read from an outbox.
    expect((await notificationsOf(fan.id)).filter((n) => n.post_id === post!.id)).toEqual([]);
    // Carol's account is told of dave's answer as any author is; nobody of the fetched answer.
    expect((await t.app.db.selectFrom('notifications').select('comment_id').where('comment_id', '=', between!.id).execute())).toEqual([]);
  });

  it('fetches no thread for a reply nobody here wants, and drops one whose thread is not public, unreadable or too long', async () => {
    const root = noteBy(bob, { content: '<p>a root</p>' });
    publish(root);
    const unwanted = noteBy(eve, { inReplyTo: root.id });
    const asked = fedi.asked.length;
    expect(await send(activity('Create', eve, unwanted), eve)).toBe(202);
    expect(await commentByAp(unwanted.id)).toBeUndefined();
    expect(fedi.asked.slice(asked)).not.toContain(new URL(root.id).pathname);

    const hidden = noteBy(carol, { inReplyTo: root.id, to: [carol.followers], cc: [] });
    publish(hidden);
    const underHidden = noteBy(dave, { inReplyTo: hidden.id, ...mentionOf(alice) });
    expect(await send(activity('Create', dave, underHidden), dave)).toBe(202);

    const failing = noteBy(carol, { inReplyTo: root.id });
    fedi.fail(new URL(failing.id).pathname, 500);
    const underFailing = noteBy(dave, { inReplyTo: failing.id, ...mentionOf(alice) });
    expect(await send(activity('Create', dave, underFailing), dave)).toBe(202);

    // Six answers above the reply, the topmost answering the root: one level more than is walked.
    let above: { id: string } = root;
    for (let level = 0; level < 6; level++) {
      above = noteBy(carol, { inReplyTo: above.id, content: `<p>level ${level}</p>` });
      publish(above);
    }
    const deep = noteBy(dave, { inReplyTo: above.id, ...mentionOf(alice) });
    expect(await send(activity('Create', dave, deep), dave)).toBe(202);

    for (const dropped of [hidden, underHidden, failing, underFailing, above, deep]) expect(await commentByAp(dropped.id)).toBeUndefined();
    expect(await postByAp(root.id)).toBeUndefined();
    // The same root under a wanted reply of its own is fetched: what kept the others out was their thread.
    const direct = noteBy(dave, { inReplyTo: root.id, ...mentionOf(alice) });
    expect(await send(activity('Create', dave, direct), dave)).toBe(202);
    expect(await commentByAp(direct.id)).toMatchObject({ post_id: (await postByAp(root.id))!.id, parent_comment_id: null });
  });

  it("takes a local comment's Note address as what a reply answers and a like likes", async () => {
    const post = await createPost(t.app, alice, { text: 'my beans' });
    const created = await call(t.app, fan, { method: 'POST', url: '/api/comment/', payload: { parent: post.id, text: 'nice beans' } });
    expect(created.statusCode, created.body).toBe(201);
    const commentId = (created.json() as { _id: string })._id;
    const commentNote = `${ORIGIN}/ap/comments/${commentId}`;

    const reply = noteBy(dave, { inReplyTo: commentNote, content: '<p>they are</p>' });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    const stored = await commentByAp(reply.id);
    expect(stored).toMatchObject({ post_id: post.id, parent_comment_id: commentId, author_id: await accountOf(dave), text: 'they are' });
    // Its author hears of it as of any answer.
    expect(await notificationsOf(fan.id)).toContainEqual(expect.objectContaining({ actor_id: await accountOf(dave), comment_id: stored!.id }));

    expect(await send(activity('Like', carol, commentNote), carol)).toBe(202);
    const liked = () => t.app.db.selectFrom('comment_likes').select('user_id').where('comment_id', '=', commentId).execute();
    expect(await liked()).toEqual([{ user_id: await accountOf(carol) }]);
    expect(await send(activity('Undo', carol, activity('Like', carol, commentNote)), carol)).toBe(202);
    expect(await liked()).toEqual([]);

    // An address of ours naming no comment answers nothing.
    const stray = noteBy(dave, { inReplyTo: `${ORIGIN}/ap/comments/nope` });
    expect(await send(activity('Create', dave, stray), dave)).toBe(202);
    expect(await commentByAp(stray.id)).toBeUndefined();
  });

  it('refuses a reply to a post of a private group, and one by an actor the author blocked', async () => {
    const group = await createGroup(t.app, alice, { isPrivate: true });
    const hidden = await createPost(t.app, alice, { text: 'members only', groupIds: [group.id] });
    const toHidden = noteBy(dave, { inReplyTo: localPost(hidden.id) });
    expect(await send(activity('Create', dave, toHidden), dave)).toBe(202);
    expect(await commentByAp(toHidden.id)).toBeUndefined();

    const post = await createPost(t.app, alice, { text: 'no eve here' });
    await t.app.db.insertInto('user_blocks').values({ blocker_id: alice.id, blocked_id: await accountOf(eve), created_at: Date.now() }).execute();
    const blocked = noteBy(eve, { inReplyTo: localPost(post.id) });
    expect(await send(activity('Create', eve, blocked), eve)).toBe(202);
    expect(await commentByAp(blocked.id)).toBeUndefined();
    expect(await send(activity('Like', eve, localPost(post.id)), eve)).toBe(202);
    expect(await t.app.db.selectFrom('post_likes').selectAll().where('post_id', '=', post.id).execute()).toEqual([]);
  });

  it("refuses an unsigned Create, one signed by someone else, and a Note forged in another's name", async () => {
    const post = await createPost(t.app, alice);
    const reply = noteBy(bob, { inReplyTo: localPost(post.id) });
    expect(await send(activity('Create', bob, reply), null)).toBe(401);
    expect(await send(activity('Create', bob, reply), eve)).toBeGreaterThanOrEqual(400);
    // Eve's own activity carrying a Note said to be Bob's.
    expect(await send(activity('Create', eve, reply), eve)).toBe(202);
    expect(await commentByAp(reply.id)).toBeUndefined();
  });

  it('edits and deletes a post or comment for its author only', async () => {
    const note = noteBy(bob, { content: '<p>first words</p>' });
    expect(await send(activity('Create', bob, note), bob)).toBe(202);
    const post = (await postByAp(note.id))!;
    const edited = { ...note, content: '<p>second words</p>', summary: 'now warned', updated: '2026-11-25T10:00:00Z' };
    expect(await send(activity('Update', eve, { ...edited, content: '<p>forged</p>' }), eve)).toBe(202);
    expect((await postByAp(note.id))!.text).toBe('first words');
    expect(await send(activity('Update', bob, edited), bob)).toBe(202);
    expect(await postByAp(note.id)).toMatchObject({ text: 'second words', content_warning: 'now warned' });
    const versions = await t.app.db.selectFrom('post_edits').select('text').where('post_id', '=', post.id).execute();
    expect(versions).toEqual([{ text: 'first words' }]);

    const mine = await createPost(t.app, alice);
    const reply = noteBy(bob, { inReplyTo: localPost(mine.id), content: '<p>typo</p>' });
    expect(await send(activity('Create', bob, reply), bob)).toBe(202);
    expect(await send(activity('Update', bob, { ...reply, content: '<p>fixed</p>' }), bob)).toBe(202);
    expect((await commentByAp(reply.id))!.text).toBe('fixed');

    const tombstone = (id: string) => ({ id, type: 'Tombstone' });
    expect(await send(activity('Delete', eve, tombstone(note.id)), eve)).toBe(202);
    expect(await postByAp(note.id)).toBeDefined();
    expect(await send(activity('Delete', bob, tombstone(note.id)), bob)).toBe(202);
    expect(await postByAp(note.id)).toBeUndefined();
    expect(await send(activity('Delete', bob, reply.id), bob)).toBe(202);
    expect(await commentByAp(reply.id)).toBeUndefined();
  });

  it("takes the Mention tags of a remote comment's edit as its mentions, telling those newly named once", async () => {
    const post = await createPost(t.app, alice, { text: 'any onions?' });
    const reply = noteBy(dave, { inReplyTo: localPost(post.id), content: '<p>ask around</p>' });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    const comment = (await commentByAp(reply.id))!;
    const mentioned = async () =>
      (await t.app.db.selectFrom('comment_mentions').select('user_id').where('comment_id', '=', comment.id).orderBy('position').execute()).map((m) => m.user_id);
    const told = async () => (await notificationsOf(fan.id)).filter((n) => n.comment_id === comment.id && n.type === 'COMMENT_MENTION');
    expect(await mentioned()).toEqual([]);

    const edit = (content: string, users: TestUser[]) => ({
      ...reply,
      content,
      cc: users.map((user) => localActor(user.id)),
      tag: users.map((user) => ({ type: 'Mention', href: localActor(user.id), name: `@${user.username}@kruh.example` })),
      updated: '2026-11-25T10:00:00Z',
    });
    expect(await send(activity('Update', dave, edit('<p>ask fan</p>', [fan])), dave)).toBe(202);
    expect(await commentByAp(reply.id)).toMatchObject({ text: 'ask fan' });
    expect(await mentioned()).toEqual([fan.id]);
    expect(await told()).toEqual([expect.objectContaining({ actor_id: await accountOf(dave), post_id: post.id })]);

    // Edited again, fan still named: no second item; dropped from the tags, no longer a mention.
    expect(await send(activity('Update', dave, edit('<p>ask fan, really</p>', [fan])), dave)).toBe(202);
    expect(await told()).toHaveLength(1);
    expect(await send(activity('Update', dave, edit('<p>never mind</p>', [])), dave)).toBe(202);
    expect(await mentioned()).toEqual([]);
  });

  it("refreshes an account's bio and picture on an Update of its actor by itself only", async () => {
    const account = await accountOf(carol);
    const person = (await (await fetch(carol.id)).json()) as Record<string, unknown>;
    fedi.serveFile('/carol.png', 'image/png', await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).png().toBuffer());
    const renewed = { ...person, summary: '<p>I grow <b>beans</b> now</p>', icon: { type: 'Image', mediaType: 'image/png', url: fedi.url('/carol.png') } };
    const user = async () => {
      const row = await t.app.db.selectFrom('users').select(['bio', 'username', 'pfp_version']).where('id', '=', account).executeTakeFirstOrThrow();
      return { ...row, pfp_version: Number(row.pfp_version) };
    };
    expect(await send(activity('Update', eve, renewed), eve)).toBe(202);
    await runDueJobs(t.app);
    expect(await user()).toEqual({ bio: '', username: carol.account, pfp_version: 0 });
    expect(await send(activity('Update', carol, renewed), carol)).toBe(202);
    expect(await user()).toMatchObject({ bio: 'I grow beans now', username: carol.account });
    await runDueJobs(t.app);
    expect((await user()).pfp_version).toBeGreaterThan(0);
  });

  it('counts a like of a local post and of a stored comment, and takes it back on Undo', async () => {
    const post = await createPost(t.app, alice);
    const like = activity('Like', carol, localPost(post.id));
    expect(await send(like, carol)).toBe(202);
    const likes = async () => Number((await t.app.db.selectFrom('posts').select('likes').where('id', '=', post.id).executeTakeFirstOrThrow()).likes);
    expect(await likes()).toBe(1);
    expect(await t.app.db.selectFrom('post_likes').select('user_id').where('post_id', '=', post.id).execute()).toEqual([{ user_id: await accountOf(carol) }]);
    // Again, under another id: still one like.
    expect(await send({ ...like, id: `${like.id}-again` }, carol)).toBe(202);
    expect(await likes()).toBe(1);
    expect(await send(activity('Undo', eve, like), eve)).toBe(202);
    expect(await likes()).toBe(1);
    expect(await send(activity('Undo', carol, like), carol)).toBe(202);
    expect(await likes()).toBe(0);

    const reply = noteBy(dave, { inReplyTo: localPost(post.id) });
    expect(await send(activity('Create', dave, reply), dave)).toBe(202);
    expect(await send(activity('Like', carol, reply.id), carol)).toBe(202);
    expect((await commentByAp(reply.id))!.likes).toBe(1);
  });

  it("takes back a like on an Undo whose Like names no actor, or names it by an id its server serves, and no one else's like", async () => {
    const post = await createPost(t.app, alice);
    const likes = async () => Number((await t.app.db.selectFrom('posts').select('likes').where('id', '=', post.id).executeTakeFirstOrThrow()).likes);
    const like = activity('Like', carol, localPost(post.id));
    expect(await send(like, carol)).toBe(202);
    const { actor: _actor, ...actorless } = like;
    expect(await send(activity('Undo', eve, actorless), eve)).toBe(202);
    expect(await likes()).toBe(1);
    // The Like's actor, when it names none, is the Undo's own.
    expect(await send(activity('Undo', carol, actorless), carol)).toBe(202);
    expect(await likes()).toBe(0);

    const again = activity('Like', carol, localPost(post.id));
    expect(await send(again, carol)).toBe(202);
    fedi.serve(new URL(again.id).pathname, { '@context': AS_CONTEXT, ...again });
    expect(await send(activity('Undo', eve, again.id), eve)).toBe(202);
    expect(await likes()).toBe(1);
    expect(await send(activity('Undo', carol, again.id), carol)).toBe(202);
    expect(await likes()).toBe(0);
  });

  it('ignores a boost of a local post, and refuses everything from a suspended account', async () => {
    const post = await createPost(t.app, alice);
    const before = await t.app.db.selectFrom('posts').select('id').execute();
    expect(await send(activity('Announce', carol, localPost(post.id)), carol)).toBe(202);
    expect(await t.app.db.selectFrom('posts').select('id').execute()).toEqual(before);

    const frank = await fedi.actor('frank');
    await follow(fan, frank);
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', await accountOf(frank)).execute();
    const note = noteBy(frank);
    // The inbox's boundary refuses a suspended account's activities before any handler sees them.
    expect(await send(activity('Create', frank, note), frank)).toBe(403);
    expect(await send(activity('Like', frank, localPost(post.id)), frank)).toBe(403);
    expect(await postByAp(note.id)).toBeUndefined();
    expect(await t.app.db.selectFrom('post_likes').selectAll().where('post_id', '=', post.id).execute()).toEqual([]);
  });

  it("stores a followed Lemmy community's post and a Lemmy comment on it", async () => {
    const outsider = fixture('lemmy-announce-page.json');
    // Nobody follows the community yet: its post is not wanted.
    expect(await send(outsider, cooking)).toBe(202);
    const page = (outsider.object as { object: { id: string } }).object;
    expect(await postByAp(page.id)).toBeUndefined();

    await follow(fan, cooking);
    expect(await send({ ...outsider, id: `${String(outsider.id)}-followed` }, cooking)).toBe(202);
    const post = await postByAp(page.id);
    expect(post).toMatchObject({
      author_id: await accountOf(dave),
      text: 'Best way to dry tomatoes?\n\nI have far too many tomatoes.\n\nSun or oven?\n\nhttps://recipes.example/dried-tomatoes',
      created_at: Date.parse('2026-11-22T12:00:00Z'),
    });
    // fan follows the community, not dave: the post is in fan's following feed, as dave's, once,
    // however often the community passes it on.
    expect(await send({ ...outsider, id: `${String(outsider.id)}-again` }, cooking)).toBe(202);
    expect(await t.app.db.selectFrom('post_shares').select(['sharer_id', 'post_id']).execute()).toEqual([{ sharer_id: await accountOf(cooking), post_id: post!.id }]);
    // The community is known as one that passes posts on, so its followers' feeds ask for its shares.
    expect(await t.app.db.selectFrom('post_sharers').select('user_id').execute()).toEqual([{ user_id: await accountOf(cooking) }]);
    const following = (await call(t.app, fan, { method: 'GET', url: '/api/feed/following' })).json<{ posts: Array<{ _id: string; author: { username: string } }> }>();
    const community = { _id: await accountOf(cooking), username: `cooking@${fedi.host}` };
    expect(following.posts.filter((p) => p._id === post!.id)).toEqual([
      expect.objectContaining({ author: expect.objectContaining({ username: `dave@${fedi.host}` }), sharedBy: community }),
    ]);
    // The card says which community passed it on wherever it is read.
    const read = (await call(t.app, alice, { method: 'GET', url: `/api/post/${post!.id}` })).json<{ sharedBy?: unknown }>();
    expect(read.sharedBy).toEqual(community);

    const comment = fixture('lemmy-create-comment.json');
    expect(await send(comment, erin)).toBe(202);
    expect(await commentByAp((comment.object as { id: string }).id)).toMatchObject({
      post_id: post!.id,
      author_id: await accountOf(erin),
      text: "Oven, 90 °C, & patience. @dave@remote.example",
    });
  });

  it("takes a followed community's announced Update and Delete as its member's own, and no one else's", async () => {
    // The community is followed here since the test above.
    const note = noteBy(bob, { content: '<p>community words</p>' });
    expect(await send(activity('Announce', cooking, activity('Create', bob, note)), cooking)).toBe(202);
    expect((await postByAp(note.id))!.text).toBe('community words');

    const edited = { ...note, content: '<p>edited words</p>', updated: '2026-11-25T10:00:00Z' };
    // Another member cannot change bob's post by having the community pass it on.
    expect(await send(activity('Announce', cooking, activity('Update', eve, { ...edited, attributedTo: eve.id })), cooking)).toBe(202);
    expect(await send(activity('Announce', cooking, activity('Update', eve, edited)), cooking)).toBe(202);
    expect((await postByAp(note.id))!.text).toBe('community words');
    expect(await send(activity('Announce', cooking, activity('Update', bob, edited)), cooking)).toBe(202);
    expect((await postByAp(note.id))!.text).toBe('edited words');

    expect(await send(activity('Announce', cooking, activity('Delete', eve, note.id)), cooking)).toBe(202);
    expect(await postByAp(note.id)).toBeDefined();
    expect(await send(activity('Announce', cooking, activity('Delete', bob, { id: note.id, type: 'Tombstone' })), cooking)).toBe(202);
    expect(await postByAp(note.id)).toBeUndefined();
  });

  it("stores a following actor's post addressed to a public group in it, and the group announces it to its followers", async () => {
    const veggies = await createGroup(t.app, alice, { name: 'veggies' });
    const helen = await fedi.actor('helen');
    await remoteFollow(helen, veggies.id);
    await remoteFollow(erin, veggies.id);
    await runDueJobs(t.app);
    const from = fedi.received.length;

    // Mastodon style: the group's actor among the addressees.
    const note = noteBy(helen, { to: [PUBLIC, localActor(veggies.id)], content: '<p>carrots are up</p>' });
    expect(await send(activity('Create', helen, note), helen)).toBe(202);
    const post = await postByAp(note.id);
    expect(post).toMatchObject({ author_id: await accountOf(helen), text: 'carrots are up' });
    expect(await groupsOf(post!.id)).toEqual([veggies.id]);

    await runDueJobs(t.app);
    const announces = fedi.received.slice(from).filter((r) => (JSON.parse(r.body) as { type: string }).type === 'Announce');
    expect(announces.map((r) => r.path).sort()).toEqual([new URL(erin.inbox).pathname, new URL(helen.inbox).pathname]);
    // Shaped as a local member's post is passed on: an Announce of its author's Create of the Note.
    expect(JSON.parse(announces[0]!.body)).toMatchObject({
      actor: localActor(veggies.id),
      object: { type: 'Create', actor: helen.id, object: { type: 'Note', id: note.id, attributedTo: helen.id, content: '<p>carrots are up</p>' } },
    });
    expect(await signerOf(t.app, fedi, announces[0]!)).toBe(localActor(veggies.id));

    // Lemmy style: a titled Page naming the group as its audience.
    const page = noteBy(erin, { type: 'Page', name: 'Soup?', content: '<p>with the carrots</p>', audience: localActor(veggies.id) });
    expect(await send({ ...activity('Create', erin, page), audience: localActor(veggies.id) }, erin)).toBe(202);
    const soup = await postByAp(page.id);
    expect(soup).toMatchObject({ text: 'Soup?\n\nwith the carrots' });
    expect(await groupsOf(soup!.id)).toEqual([veggies.id]);

    // Its author edits it there, under the group's rules for remote people; a ban stops that.
    expect(await send(activity('Update', helen, { ...note, content: '<p>carrots and beans are up</p>' }), helen)).toBe(202);
    expect(await postByAp(note.id)).toMatchObject({ text: 'carrots and beans are up' });
    await t.app.db.insertInto('group_bans').values({ group_id: veggies.id, user_id: await accountOf(helen), created_at: Date.now() }).execute();
    expect(await send(activity('Update', helen, { ...note, content: '<p>spam</p>' }), helen)).toBe(202);
    expect(await postByAp(note.id)).toMatchObject({ text: 'carrots and beans are up' });
  });

  it('keeps no remote post to a private, request-join or admins-only group, nor by a banned or not following actor', async () => {
    const ida = await fedi.actor('ida');
    const groups = {
      hidden: await createGroup(t.app, alice, { isPrivate: true }),
      door: await createGroup(t.app, alice, { requestJoin: true }),
      admins: await createGroup(t.app, alice, { everyoneCanPost: false }),
      banned: await createGroup(t.app, alice),
    };
    for (const group of Object.values(groups)) await remoteFollow(ida, group.id);
    await t.app.db.insertInto('group_bans').values({ group_id: groups.banned.id, user_id: await accountOf(ida), created_at: Date.now() }).execute();
    for (const group of Object.values(groups)) {
      const note = noteBy(ida, { to: [PUBLIC, localActor(group.id)] });
      expect(await send(activity('Create', ida, note), ida)).toBe(202);
      expect(await postByAp(note.id)).toBeUndefined();
    }

    const open = await createGroup(t.app, alice);
    const stranger = noteBy(ida, { to: [PUBLIC, localActor(open.id)] });
    expect(await send(activity('Create', ida, stranger), ida)).toBe(202);
    expect(await postByAp(stranger.id)).toBeUndefined();
    // Once following the open group, the same actor's post goes in.
    await remoteFollow(ida, open.id);
    const member = noteBy(ida, { to: [PUBLIC, localActor(open.id)] });
    expect(await send(activity('Create', ida, member), ida)).toBe(202);
    expect(await groupsOf((await postByAp(member.id))!.id)).toEqual([open.id]);
  });

  it("makes a remote reply to a public group's post a comment, which the group announces to its followers; a ban refuses it", async () => {
    const orchard = await createGroup(t.app, alice, { name: 'orchard' });
    await remoteFollow(dave, orchard.id);
    await remoteFollow(carol, orchard.id);
    const post = await createPost(t.app, alice, { text: 'apples are ripe', groupIds: [orchard.id] });
    await runDueJobs(t.app);
    const announced = async (run: () => Promise<unknown>) => {
      const from = fedi.received.length;
      await run();
      await runDueJobs(t.app);
      return fedi.received.slice(from).filter((r) => (JSON.parse(r.body) as { type: string }).type === 'Announce');
    };

    // Mastodon style: a reply to the post's Note, from someone following the group.
    const reply = noteBy(dave, { inReplyTo: localPost(post.id), content: '<p>save me a basket</p>' });
    const first = await announced(async () => expect(await send(activity('Create', dave, reply), dave)).toBe(202));
    const comment = await commentByAp(reply.id);
    expect(comment).toMatchObject({ post_id: post.id, author_id: await accountOf(dave), text: 'save me a basket' });
    // The group passes it on to every follower, its author's server too, as it passes on a local
    // member's comment: an Announce of its author's Create of the Note, in reply to the post.
    expect(first.map((r) => r.path).sort()).toEqual([new URL(dave.inbox).pathname, new URL(carol.inbox).pathname].sort());
    expect(JSON.parse(first[0]!.body)).toMatchObject({
      type: 'Announce',
      actor: localActor(orchard.id),
      object: { type: 'Create', actor: dave.id, object: { type: 'Note', id: reply.id, attributedTo: dave.id, inReplyTo: localPost(post.id) } },
    });
    expect(await signerOf(t.app, fedi, first[0]!)).toBe(localActor(orchard.id));

    // Lemmy style: an answer to that comment, naming the group as its audience.
    const nested = noteBy(carol, { inReplyTo: reply.id, content: '<p>two baskets</p>', audience: localActor(orchard.id) });
    const second = await announced(async () => expect(await send(activity('Create', carol, nested), carol)).toBe(202));
    expect(await commentByAp(nested.id)).toMatchObject({ post_id: post.id, parent_comment_id: comment!.id, text: 'two baskets' });
    const passed = second.map((r) => (JSON.parse(r.body) as { object: { type: string; object: { id: string; inReplyTo: string } } }).object);
    expect(passed.map((create) => [create.type, create.object.id, create.object.inReplyTo])).toEqual([
      ['Create', nested.id, reply.id],
      ['Create', nested.id, reply.id],
    ]);

    // A ban from the group refuses a comment on its posts, as it does a local user's; nothing is announced.
    await t.app.db.insertInto('group_bans').values({ group_id: orchard.id, user_id: await accountOf(carol), created_at: Date.now() }).execute();
    const banned = noteBy(carol, { inReplyTo: localPost(post.id) });
    expect(await announced(async () => expect(await send(activity('Create', carol, banned), carol)).toBe(202))).toEqual([]);
    expect(await commentByAp(banned.id)).toBeUndefined();
  });

  it("passes on a remote member's edit and deletion of their post and comment in a public group, signed by the group, and nothing else", async () => {
    const beans = await createGroup(t.app, alice, { name: 'beans' });
    const jan = await fedi.actor('jan');
    const kim = await fedi.actor('kim');
    await remoteFollow(jan, beans.id);
    await remoteFollow(kim, beans.id);
    const note = noteBy(jan, { to: [PUBLIC, localActor(beans.id)], content: '<p>beans sprouted</p>' });
    expect(await send(activity('Create', jan, note), jan)).toBe(202);
    const soup = await createPost(t.app, alice, { text: 'bean soup tonight', groupIds: [beans.id] });
    const reply = noteBy(jan, { inReplyTo: localPost(soup.id), content: '<p>count me in</p>' });
    expect(await send(activity('Create', jan, reply), jan)).toBe(202);
    await runDueJobs(t.app);
    const announced = async (body: object, signer: FakeActor = jan) => {
      const from = fedi.received.length;
      expect(await send(body, signer)).toBe(202);
      await runDueJobs(t.app);
      return fedi.received.slice(from).filter((r) => (JSON.parse(r.body) as { type: string }).type === 'Announce');
    };
    const followers = [new URL(jan.inbox).pathname, new URL(kim.inbox).pathname].sort();
    /** Each follower got the group's Announce of the activity, signed by the group. */
    const expectPassedOn = async (announces: Awaited<ReturnType<typeof announced>>, passed: { id: string; type: string }) => {
      expect(announces.map((r) => r.path).sort()).toEqual(followers);
      for (const delivery of announces) {
        expect(JSON.parse(delivery.body)).toMatchObject({ type: 'Announce', actor: localActor(beans.id), object: { id: passed.id, type: passed.type, actor: jan.id } });
        expect(await signerOf(t.app, fedi, delivery)).toBe(localActor(beans.id));
      }
    };

    const postEdit = activity('Update', jan, { ...note, content: '<p>beans flowering</p>' });
    await expectPassedOn(await announced(postEdit), postEdit);
    expect((await postByAp(note.id))!.text).toBe('beans flowering');
    const commentEdit = activity('Update', jan, { ...reply, content: '<p>count me in twice</p>' });
    await expectPassedOn(await announced(commentEdit), commentEdit);
    expect((await commentByAp(reply.id))!.text).toBe('count me in twice');

    // A deletion is passed on too, though the post or comment is gone by the time it goes out.
    const commentGone = activity('Delete', jan, reply.id);
    await expectPassedOn(await announced(commentGone), commentGone);
    expect(await commentByAp(reply.id)).toBeUndefined();
    const postGone = activity('Delete', jan, { id: note.id, type: 'Tombstone' });
    await expectPassedOn(await announced(postGone), postGone);
    expect(await postByAp(note.id)).toBeUndefined();

    // A post in no group here was passed on by none: its edit is not either.
    const own = noteBy(bob);
    expect(await send(activity('Create', bob, own), bob)).toBe(202);
    expect(await announced(activity('Update', bob, { ...own, content: '<p>edited alone</p>' }), bob)).toEqual([]);
    expect((await postByAp(own.id))!.text).toBe('edited alone');
    // Nor does a group made private pass on anything (its followers are forgotten as it goes, and
    // one still listed must hear nothing either).
    const kept = noteBy(jan, { to: [PUBLIC, localActor(beans.id)] });
    expect(await send(activity('Create', jan, kept), jan)).toBe(202);
    await runDueJobs(t.app);
    await t.app.db.updateTable('groups').set({ is_private: 1 }).where('id', '=', beans.id).execute();
    expect(await announced(activity('Delete', jan, kept.id))).toEqual([]);
    expect(await postByAp(kept.id)).toBeUndefined();
  });

  it("takes a group's passing on of its member's Update and Delete from another server only as that server shows them", async () => {
    const other = await startFakeFediverse();
    try {
      const hall = await other.actor('hall', { type: 'Group' });
      await follow(fan, hall);
      const note = noteBy(bob, { content: '<p>hall words</p>' });
      const path = new URL(note.id).pathname;
      fedi.serve(path, { '@context': AS_CONTEXT, ...note });
      expect(await send(activity('Announce', hall, note.id), hall)).toBe(202);
      expect((await postByAp(note.id))!.text).toBe('hall words');

      // The group cannot vouch for what another server's member wrote: the Note is read again from there.
      const forged = { ...note, content: '<p>forged words</p>' };
      expect(await send(activity('Announce', hall, activity('Update', bob, forged)), hall)).toBe(202);
      expect((await postByAp(note.id))!.text).toBe('hall words');
      const edited = { ...note, content: '<p>hall edited</p>', updated: '2026-11-25T10:00:00Z' };
      fedi.serve(path, { '@context': AS_CONTEXT, ...edited });
      expect(await send(activity('Announce', hall, activity('Update', bob, edited)), hall)).toBe(202);
      expect((await postByAp(note.id))!.text).toBe('hall edited');

      // A deletion counts once its server no longer has the Note.
      expect(await send(activity('Announce', hall, activity('Delete', bob, note.id)), hall)).toBe(202);
      expect(await postByAp(note.id)).toBeDefined();
      fedi.fail(path, 410);
      expect(await send(activity('Announce', hall, activity('Delete', bob, { id: note.id, type: 'Tombstone' })), hall)).toBe(202);
      expect(await postByAp(note.id)).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("takes a reply to a public group's post from anyone, as it takes a local user's comment, and none to a private group's post", async () => {
    const door = await createGroup(t.app, alice, { requestJoin: true });
    const hidden = await createGroup(t.app, alice, { isPrivate: true });
    // A private group has no remote followers; one written in anyway must hear nothing.
    await remoteFollow(bob, hidden.id);
    // Commenting on a group's posts takes no membership in Kruh: nor does it take following the group.
    const asked = await createPost(t.app, alice, { text: 'who wants pears?', groupIds: [door.id] });
    const reply = noteBy(bob, { inReplyTo: localPost(asked.id) });
    expect(await send(activity('Create', bob, reply), bob)).toBe(202);
    expect(await commentByAp(reply.id)).toMatchObject({ post_id: asked.id });

    const secret = await createPost(t.app, alice, { text: 'members only', groupIds: [hidden.id] });
    const from = fedi.received.length;
    const toSecret = noteBy(bob, { inReplyTo: localPost(secret.id), audience: localActor(hidden.id) });
    expect(await send(activity('Create', bob, toSecret), bob)).toBe(202);
    await runDueJobs(t.app);
    expect(await commentByAp(toSecret.id)).toBeUndefined();
    expect(fedi.received.slice(from)).toEqual([]);
  });

  it('removes an actor that deleted itself, with its posts', async () => {
    const gone = await fedi.actor('gone');
    await follow(fan, gone);
    const note = noteBy(gone);
    expect(await send(activity('Create', gone, note), gone)).toBe(202);
    expect(await postByAp(note.id)).toBeDefined();
    const account = await accountOf(gone);
    expect(await send(activity('Delete', eve, gone.id), eve)).toBe(202);
    expect(await t.app.db.selectFrom('users').select('id').where('id', '=', account).execute()).toHaveLength(1);
    expect(await send(activity('Delete', gone, gone.id), gone)).toBe(202);
    expect(await t.app.db.selectFrom('users').select('id').where('id', '=', account).execute()).toEqual([]);
    expect(await postByAp(note.id)).toBeUndefined();
    expect(await t.app.db.selectFrom('remote_actors').select('id').where('id', '=', gone.id).execute()).toEqual([]);
  });
});
