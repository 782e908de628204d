import { PassThrough } from 'node:stream';
import sharp from 'sharp';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readObject } from '../../src/lib/storage';
import { type TestUser, addMember, call, createFollow, createGroup, createPost, createUser } from '../helpers/fixtures';
import { expectError } from '../helpers/expect';
import { type FilePart, multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';
import { readZip } from '../helpers/zip';

const json = (files: Map<string, Buffer>, path: string) => {
  const file = files.get(path);
  if (!file) throw new Error(`${path} is missing from the zip`);
  return JSON.parse(file.toString('utf8'));
};

/** Everything the zip holds, as one text: what must never be anywhere in it is looked for here. */
const allText = (files: Map<string, Buffer>) => [...files.values()].map((data) => data.toString('latin1')).join('\n');

const today = () => new Date().toISOString().slice(0, 10);

describe('GET /api/account/export', () => {
  const t = useTestApp({ RATE_EXPORTS_PER_HOUR: '3' });

  const exportOf = (user: TestUser | null) => call(t.app, user, { method: 'GET', url: '/api/account/export' });

  async function exportFiles(user: TestUser): Promise<Map<string, Buffer>> {
    const res = await exportOf(user);
    expect(res.statusCode, res.body).toBe(200);
    return readZip(res.rawPayload);
  }

  const picture = (color: string) => sharp({ create: { width: 24, height: 24, channels: 3, background: color } }).png().toBuffer();
  const file = async (field: string, color: string): Promise<FilePart> => ({ field, filename: 'a.png', contentType: 'image/png', data: await picture(color) });
  async function upload(user: TestUser, url: string, fields: Record<string, string>, part: FilePart) {
    const body = multipartBody(fields, [part]);
    const res = await call(t.app, user, { method: 'POST', url, payload: body.payload, headers: body.headers });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Rows of the setup get a second each, in the order they are made: lists come oldest first.
  let clock = Date.UTC(2025, 2, 1);
  const tick = () => (clock += 1000);
  async function comment(user: TestUser, parent: string, text: string): Promise<string> {
    const res = await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text, parent } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json()._id as string;
    await t.app.db.updateTable('comments').set({ created_at: tick() }).where('id', '=', id).execute();
    return id;
  }
  async function join(groupId: string, user: TestUser, role: 'member' | 'admin' = 'member') {
    await addMember(t.app, groupId, user, role);
    await t.app.db.updateTable('group_members').set({ created_at: tick() }).where('group_id', '=', groupId).where('user_id', '=', user.id).execute();
  }
  const likePost = (user: TestUser, postId: string) =>
    t.app.db.insertInto('post_likes').values({ post_id: postId, user_id: user.id, created_at: tick() }).execute();
  const likeComment = (user: TestUser, commentId: string) =>
    t.app.db.insertInto('comment_likes').values({ comment_id: commentId, user_id: user.id, created_at: tick() }).execute();

  describe('what the zip holds', () => {
    let alice: TestUser;
    let bob: TestUser;
    let carol: TestUser;
    const ids: Record<string, string> = {};
    // Each user's export, made once (the rate limit allows only a few).
    let aliceReply: Awaited<ReturnType<typeof exportOf>>;
    let aliceFiles: Map<string, Buffer>;
    let bobFiles: Map<string, Buffer>;

    beforeAll(async () => {
      alice = await createUser(t.app, { username: 'Alice_export', createdAt: Date.UTC(2025, 0, 2), passwordHash: 'stored-hash' });
      bob = await createUser(t.app);
      carol = await createUser(t.app);
      await t.app.db.updateTable('users').set({ bio: 'Alice bio', language: 'cs' }).where('id', '=', alice.id).execute();

      // A public group alice is a member of; a private one of bob's she administers.
      const open = await createGroup(t.app, bob, { name: 'OpenExport' });
      await join(open.id, alice);
      const club = await createGroup(t.app, bob, { name: 'ClubExport', isPrivate: true });
      await join(club.id, alice, 'admin');
      await t.app.db.updateTable('group_members').set({ level: 2 }).where('group_id', '=', club.id).where('user_id', '=', alice.id).execute();
      ids.open = open.id;
      ids.club = club.id;

      // Alice's own posts: a public one with a picture, one in bob's private group.
      ids.alicePublic = (await createPost(t.app, alice, { text: 'alice public words', groupIds: [open.id], createdAt: tick() })).id;
      ids.alicePrivate = (await createPost(t.app, alice, { text: 'alice members-only words', groupIds: [club.id], createdAt: tick() })).id;
      await upload(alice, '/api/upload/image', { id: ids.alicePublic, index: '0', alt: 'A blue square' }, await file('image', '#336699'));
      await t.app.db.updateTable('posts').set({ content_warning: 'Spiders' }).where('id', '=', ids.alicePrivate).execute();
      await upload(alice, '/api/upload/pfp', {}, await file('pfp', '#aa2200'));

      // Bob's posts in his private group: one alice likes (she may read it), one she never touched.
      ids.bobClubLiked = (await createPost(t.app, bob, { text: 'bob club liked words', groupIds: [club.id], createdAt: tick() })).id;
      ids.bobClubUntouched = (await createPost(t.app, bob, { text: 'bob club untouched words', groupIds: [club.id], createdAt: tick() })).id;
      await likePost(alice, ids.bobClubLiked);
      ids.bobPublic = (await createPost(t.app, bob, { text: 'bob public words', createdAt: tick() })).id;
      ids.bobComment = await comment(bob, ids.bobPublic, 'bob comment words');

      // Carol's private group: alice wrote there, liked and answered carol's post, then left.
      const secret = await createGroup(t.app, carol, { name: 'SecretExport', isPrivate: true });
      await join(secret.id, alice);
      ids.aliceInSecret = (await createPost(t.app, alice, { text: 'alice words in the secret group', groupIds: [secret.id], createdAt: tick() })).id;
      ids.carolSecret = (await createPost(t.app, carol, { text: 'carol secret words', groupIds: [secret.id], createdAt: tick() })).id;
      await likePost(alice, ids.carolSecret);
      ids.carolSecretComment = await comment(carol, ids.carolSecret, 'carol secret comment words');
      await likeComment(alice, ids.carolSecretComment);
      ids.aliceOnSecret = await comment(alice, ids.carolSecret, 'alice answer in the secret group');
      await t.app.db.deleteFrom('group_members').where('group_id', '=', secret.id).where('user_id', '=', alice.id).execute();

      // Alice's comments: one with a picture on bob's public post; she likes bob's comment.
      ids.aliceComment = await comment(alice, ids.bobPublic, 'alice comment words');
      await upload(alice, '/api/upload/image', { id: ids.aliceComment, index: '0' }, await file('image', '#00aa44'));
      await likeComment(alice, ids.bobComment);

      await createFollow(t.app, alice, bob, { notify: true, createdAt: Date.UTC(2025, 1, 1) });
      await createFollow(t.app, carol, alice, { createdAt: Date.UTC(2025, 1, 2) });
      const settings = await call(t.app, alice, { method: 'PATCH', url: '/api/account/notifications', payload: { newSettings: [true, false, true, true, false, true] } });
      expect(settings.statusCode).toBe(200);

      // A passkey and a device taking push notifications: their names and times go out, never their keys.
      await t.app.db
        .insertInto('passkeys')
        .values({ id: 'pk1', user_id: alice.id, credential_id: 'cred-secret', public_key: 'public-key-bytes', counter: 3, transports: '[]', name: 'Phone', created_at: Date.UTC(2025, 2, 1), last_used_at: Date.UTC(2025, 2, 2) })
        .execute();
      await t.app.db
        .insertInto('push_subscriptions')
        .values({ id: 'ps1', user_id: alice.id, endpoint: 'https://push.example.test/send/device-secret', p256dh: 'p256-secret', auth: 'auth-secret', created_at: Date.UTC(2025, 2, 3), updated_at: Date.UTC(2025, 2, 4) })
        .execute();

      // Her lists: someone blocked, someone muted (a mute leaves her follow of bob alone), a hashtag muted.
      const dan = await createUser(t.app, { username: 'Dan_export' });
      for (const url of [`/api/block/${dan.id}`, `/api/mute/${bob.id}`, '/api/mute/tag/cats']) {
        expect((await call(t.app, alice, { method: 'PUT', url })).statusCode).toBe(200);
      }
      ids.dan = dan.id;

      aliceReply = await exportOf(alice);
      aliceFiles = await readZip(aliceReply.rawPayload);
      bobFiles = await exportFiles(bob);
    });

    it('answers a zip to download, named after the user and the day', async () => {
      const res = aliceReply;
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toBe(`attachment; filename="kruh-Alice_export-${today()}.zip"`);
      expect(res.headers['cache-control']).toBe('no-store');
      expect([...aliceFiles.keys()].sort()).toEqual([
        'README.txt',
        'account.json',
        'comments.json',
        'follows.json',
        'groups.json',
        'images/avatar.jpeg',
        `images/comments/${ids.aliceComment}-0.webp`,
        `images/posts/${ids.alicePublic}-0.webp`,
        'likes.json',
        'notification-settings.json',
        'posts.json',
        'safety.json',
        'sign-in.json',
      ]);
    });

    it('holds the account, its settings, its follows and its groups with the role', async () => {
      const files = aliceFiles;
      expect(json(files, 'account.json')).toEqual({
        id: alice.id,
        username: 'Alice_export',
        email: alice.email,
        bio: 'Alice bio',
        language: 'cs',
        createdAt: '2025-01-02T00:00:00.000Z',
        signsInWithGoogle: false,
        avatar: 'images/avatar.jpeg',
      });
      expect(json(files, 'notification-settings.json')).toEqual({
        follower: true,
        reply: false,
        postFromFollowed: true,
        postMention: true,
        commentMention: false,
        newMember: true,
      });
      expect(json(files, 'follows.json')).toEqual({
        following: [{ id: bob.id, username: bob.username, since: '2025-02-01T00:00:00.000Z', newPostNotifications: true }],
        followers: [{ id: carol.id, username: carol.username, since: '2025-02-02T00:00:00.000Z' }],
      });
      expect(json(files, 'sign-in.json')).toEqual({
        passkeys: [{ name: 'Phone', createdAt: '2025-03-01T00:00:00.000Z', lastUsedAt: '2025-03-02T00:00:00.000Z' }],
        pushDevices: [{ service: 'push.example.test', since: '2025-03-03T00:00:00.000Z', renewedAt: '2025-03-04T00:00:00.000Z' }],
      });
      expect(files.get('sign-in.json')!.toString('utf8')).not.toMatch(/secret|public-key/);
      expect(json(bobFiles, 'sign-in.json')).toEqual({ passkeys: [], pushDevices: [] });
      const since = expect.stringMatching(/^\d{4}-\d\d-\d\dT/);
      expect(json(files, 'safety.json')).toEqual({
        blocked: [{ id: ids.dan, username: 'Dan_export', since }],
        muted: [{ id: bob.id, username: bob.username, since }],
        mutedHashtags: [{ tag: 'cats', since }],
      });
      expect(json(bobFiles, 'safety.json')).toEqual({ blocked: [], muted: [], mutedHashtags: [] });
      const groups = json(files, 'groups.json') as Array<Record<string, unknown>>;
      expect(groups.map(({ joinedAt, ...rest }) => (expect(typeof joinedAt).toBe('string'), rest))).toEqual([
        { id: ids.open, name: 'OpenExport', description: '', private: false, role: 'member', notifications: 'all' },
        { id: ids.club, name: 'ClubExport', description: '', private: true, role: 'admin', notifications: 'none' },
      ]);
    });

    it('holds every post alice wrote, her private-group posts included, and her comments', async () => {
      const files = aliceFiles;
      const posts = json(files, 'posts.json') as Array<Record<string, unknown>>;
      expect(posts.map((p) => p.text)).toEqual(['alice public words', 'alice members-only words', 'alice words in the secret group']);
      expect(posts[0]).toMatchObject({
        id: ids.alicePublic,
        groups: [{ id: ids.open, name: 'OpenExport' }],
        inPrivateGroup: false,
        contentWarning: null,
        images: [`images/posts/${ids.alicePublic}-0.webp`],
        imageDescriptions: ['A blue square'],
      });
      expect(posts[1]).toMatchObject({
        id: ids.alicePrivate,
        groups: [{ id: ids.club, name: 'ClubExport' }],
        inPrivateGroup: true,
        contentWarning: 'Spiders',
        images: [],
        imageDescriptions: [],
      });
      expect(posts[2]).toMatchObject({ id: ids.aliceInSecret, inPrivateGroup: true });

      const comments = json(files, 'comments.json') as Array<Record<string, unknown>>;
      expect(comments.map((c) => c.text)).toEqual(['alice answer in the secret group', 'alice comment words']);
      expect(comments[1]).toMatchObject({
        id: ids.aliceComment,
        postId: ids.bobPublic,
        parentCommentId: null,
        images: [`images/comments/${ids.aliceComment}-0.webp`],
        imageDescriptions: [''],
      });
    });

    it('holds the stored bytes of her avatar and of her pictures', async () => {
      const files = aliceFiles;
      const stored = async (key: string) => (await readObject(t.app.storage, key))!;
      expect(files.get('images/avatar.jpeg')!.equals(await stored(`pfp/${alice.id}.jpeg`))).toBe(true);
      expect(files.get(`images/posts/${ids.alicePublic}-0.webp`)!.equals(await stored(`${ids.alicePublic}0.webp`))).toBe(true);
      expect(files.get(`images/comments/${ids.aliceComment}-0.webp`)!.equals(await stored(`${ids.aliceComment}0.webp`))).toBe(true);
      const avatar = await sharp(files.get('images/avatar.jpeg')!).metadata();
      expect(avatar.format).toBe('jpeg');
    });

    it('shows a liked post or comment only while she may read it, by id alone after that', async () => {
      const files = aliceFiles;
      const likes = json(files, 'likes.json');
      expect(likes.posts).toEqual([
        {
          postId: ids.bobClubLiked,
          likedAt: expect.any(String),
          post: { author: bob.username, text: 'bob club liked words', createdAt: expect.any(String), groups: ['ClubExport'] },
        },
        { postId: ids.carolSecret, likedAt: expect.any(String), post: null },
      ]);
      expect(likes.comments).toEqual([
        { commentId: ids.carolSecretComment, likedAt: expect.any(String), comment: null },
        {
          commentId: ids.bobComment,
          likedAt: expect.any(String),
          comment: { postId: ids.bobPublic, author: bob.username, text: 'bob comment words', createdAt: expect.any(String) },
        },
      ]);
    });

    it('never holds a private-group post of another member she did not like, nor one of a group she left', async () => {
      const text = allText(aliceFiles);
      for (const secret of ['bob club untouched words', 'carol secret words', 'carol secret comment words']) expect(text).not.toContain(secret);
      expect(text).not.toContain(ids.bobClubUntouched);
    });

    it("holds only the exporter's own posts and comments: never another user's", async () => {
      const aliceText = allText(aliceFiles);
      for (const other of ['bob public words', 'bob club untouched words']) expect(aliceText).not.toContain(other);
      // Bob liked nothing of alice's: none of her words are in his export.
      const bobText = allText(bobFiles);
      for (const words of ['alice public words', 'alice members-only words', 'alice comment words', 'alice words in the secret group', 'Alice bio']) {
        expect(bobText).not.toContain(words);
      }
      expect((json(bobFiles, 'posts.json') as Array<{ text: string }>).map((p) => p.text)).toEqual([
        'bob club liked words',
        'bob club untouched words',
        'bob public words',
      ]);
      expect((json(bobFiles, 'comments.json') as Array<{ text: string }>).map((c) => c.text)).toEqual(['bob comment words']);
      expect(json(bobFiles, 'account.json').avatar).toBeNull();
      expect([...bobFiles.keys()].some((path) => path.startsWith('images/'))).toBe(false);
    });

    it('explains each file in README.txt', async () => {
      const readme = (await exportFiles(carol)).get('README.txt')!.toString('utf8');
      for (const name of ['account.json', 'posts.json', 'comments.json', 'likes.json', 'follows.json', 'groups.json', 'notification-settings.json', 'safety.json', 'sign-in.json', 'images/']) {
        expect(readme).toContain(name);
      }
      expect(readme).toContain(carol.username);
    });
  });

  describe('what a block or a suspension hides', () => {
    const patch = (user: TestUser, postId: string, text: string) =>
      call(t.app, user, { method: 'PATCH', url: `/api/post/${postId}`, payload: { text } });
    const block = async (by: TestUser, whom: TestUser) => expect((await call(t.app, by, { method: 'PUT', url: `/api/block/${whom.id}` })).statusCode).toBe(200);

    /** `reader` liked a post and a comment of `author`'s and answered the post; `author` liked one of `reader`'s. */
    async function likedEachOther(reader: TestUser, author: TestUser, tag: string) {
      const postId = (await createPost(t.app, author, { text: `${tag} post words`, createdAt: tick() })).id;
      const commentId = await comment(author, postId, `${tag} comment words`);
      const own = await comment(reader, postId, `${tag} reader answer`);
      const readerPost = (await createPost(t.app, reader, { text: `${tag} reader post`, createdAt: tick() })).id;
      await likePost(reader, postId);
      await likeComment(reader, commentId);
      await likePost(author, readerPost);
      return { postId, commentId, own, readerPost };
    }

    const likesOf = (files: Map<string, Buffer>) => json(files, 'likes.json') as { posts: Array<{ post: unknown }>; comments: Array<{ comment: unknown }> };

    it("leaves out the text of someone who blocked the exporter, edits made after the block included, and keeps the likes by id", async () => {
      const reader = await createUser(t.app);
      const author = await createUser(t.app);
      const ids = await likedEachOther(reader, author, 'blockedby');
      // Readable before the block: the export shows it.
      expect(allText(await exportFiles(reader))).toContain('blockedby post words');
      await block(author, reader);
      expect((await patch(author, ids.postId, 'blockedby edited after the block')).statusCode).toBe(200);
      expect((await call(t.app, reader, { method: 'GET', url: `/api/post/${ids.postId}` })).statusCode).toBe(404);

      const files = await exportFiles(reader);
      const text = allText(files);
      for (const hidden of ['blockedby post words', 'blockedby edited after the block', 'blockedby comment words']) expect(text).not.toContain(hidden);
      expect(likesOf(files).posts).toEqual([{ postId: ids.postId, likedAt: expect.any(String), post: null }]);
      expect(likesOf(files).comments).toEqual([{ commentId: ids.commentId, likedAt: expect.any(String), comment: null }]);
      // Her own answer under the post is her own words.
      expect((json(files, 'comments.json') as Array<{ text: string }>).map((c) => c.text)).toEqual(['blockedby reader answer']);
      // The blocker's export leaves out the reader's words the same way.
      const theirs = await exportFiles(author);
      expect(allText(theirs)).not.toContain('blockedby reader post');
      expect(likesOf(theirs).posts).toEqual([{ postId: ids.readerPost, likedAt: expect.any(String), post: null }]);
    });

    it('leaves out the text of someone the exporter blocked', async () => {
      const reader = await createUser(t.app);
      const author = await createUser(t.app);
      const ids = await likedEachOther(reader, author, 'blockedbyme');
      await block(reader, author);
      const files = await exportFiles(reader);
      const text = allText(files);
      for (const hidden of ['blockedbyme post words', 'blockedbyme comment words']) expect(text).not.toContain(hidden);
      expect(likesOf(files).posts).toEqual([{ postId: ids.postId, likedAt: expect.any(String), post: null }]);
      expect(likesOf(files).comments).toEqual([{ commentId: ids.commentId, likedAt: expect.any(String), comment: null }]);
      expect(allText(await exportFiles(author))).not.toContain('blockedbyme reader post');
    });

    it('leaves out the text of a suspended author', async () => {
      const reader = await createUser(t.app);
      const author = await createUser(t.app);
      await likedEachOther(reader, author, 'suspended');
      await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', author.id).execute();
      const text = allText(await exportFiles(reader));
      for (const hidden of ['suspended post words', 'suspended comment words']) expect(text).not.toContain(hidden);
    });
  });

  it('answers 401 without a session', async () => {
    expectError(await exportOf(null), 401, 'no_token');
    const stale = await t.app.inject({ method: 'GET', url: '/api/account/export', headers: { authorization: 'Bearer x.y.z' } });
    expectError(stale, 401, 'invalid_token');
  });

  it('names the file for any username, with the name as it is in filename*', async () => {
    const user = await createUser(t.app, { username: 'Žofie "Z"' });
    const res = await exportOf(user);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="kruh-_ofie__Z_-${today()}.zip"; filename*=UTF-8''kruh-%C5%BDofie%20%22Z%22-${today()}.zip`,
    );
  });

  it('allows a few exports an hour per user, then answers 429 export_limit', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    for (let i = 0; i < 3; i++) expect((await exportOf(user)).statusCode).toBe(200);
    expectError(await exportOf(user), 429, 'export_limit');
    expectError(await exportOf(user), 429, 'export_limit');
    // Each user has a count of their own.
    expect((await exportOf(other)).statusCode).toBe(200);
    // The window slides: an hour later the user may export again.
    await t.app.db.updateTable('rate_events').set((eb) => ({ created_at: eb('created_at', '-', 60 * 60 * 1000 + 1) })).where('key', '=', `export:${user.id}`).execute();
    expect((await exportOf(user)).statusCode).toBe(200);
  });

  describe('images read as the zip is sent', () => {
    let user: TestUser;
    let postId: string;

    beforeAll(async () => {
      user = await createUser(t.app);
      postId = (await createPost(t.app, user, { text: 'two pictures' })).id;
      await upload(user, '/api/upload/image', { id: postId, index: '0' }, await file('image', '#111111'));
      await upload(user, '/api/upload/image', { id: postId, index: '1' }, await file('image', '#222222'));
    });

    it('leaves out a picture whose file is gone, and does not name it', async () => {
      await t.app.storage.remove([`${postId}0.webp`]);
      const files = await exportFiles(user);
      expect([...files.keys()].filter((path) => path.startsWith('images/'))).toEqual([`images/posts/${postId}-1.webp`]);
      expect((json(files, 'posts.json') as Array<{ images: string[] }>)[0]!.images).toEqual([`images/posts/${postId}-1.webp`]);
    });

    it('breaks the download off when storage fails, rather than send a zip that looks whole', async () => {
      const get = vi.spyOn(t.app.storage, 'get').mockRejectedValue(new Error('disk gone'));
      try {
        const outcome = await exportOf(user).then(
          async (res) => ({ status: res.statusCode, zip: await readZip(res.rawPayload).then(() => 'readable', () => 'broken') }),
          () => ({ status: 0, zip: 'broken' }),
        );
        expect(outcome.zip).toBe('broken');
      } finally {
        get.mockRestore();
      }
    });
  });
});

describe('GET /api/account/export, read a page at a time', () => {
  let statements: string[] | undefined;
  const t = useTestApp({ EXPORT_PAGE_SIZE: '2' }, { onQuery: (sql) => statements?.push(sql) });

  it('reads each long list in pages of EXPORT_PAGE_SIZE rows and writes all of it, in order, as the same JSON text', async () => {
    const user = await createUser(t.app);
    const other = await createUser(t.app);
    // Three posts share a time, so a page ends inside the tie and the id must carry the next one on.
    const times = [1000, 2000, 2000, 2000, 3000].map((ms) => Date.UTC(2025, 4, 1) + ms);
    const mine = [];
    for (const [index, createdAt] of times.entries()) mine.push({ ...(await createPost(t.app, user, { text: `paged post ${index}`, createdAt })), createdAt });
    const theirs = [];
    for (let index = 0; index < 5; index++) theirs.push((await createPost(t.app, other, { text: `their post ${index}`, createdAt: times[index]! })).id);
    const comments: string[] = [];
    for (let index = 0; index < 5; index++) {
      const res = await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: `paged comment ${index}`, parent: theirs[index] } });
      expect(res.statusCode, res.body).toBe(201);
      comments.push(res.json()._id);
      await t.app.db.updateTable('comments').set({ created_at: times[index]! }).where('id', '=', res.json()._id).execute();
    }
    for (const [index, postId] of theirs.entries()) {
      await t.app.db.insertInto('post_likes').values({ post_id: postId, user_id: user.id, created_at: times[index]! }).execute();
      await t.app.db.insertInto('comment_likes').values({ comment_id: comments[index]!, user_id: user.id, created_at: times[index]! }).execute();
    }

    const seen: string[] = [];
    statements = seen;
    let res;
    try {
      res = await call(t.app, user, { method: 'GET', url: '/api/account/export' });
    } finally {
      statements = undefined;
    }
    expect(res.statusCode, res.body).toBe(200);
    const files = await readZip(res.rawPayload);

    // Five rows in pages of two: three reads of each list, each a page of at most two rows.
    const pages = (table: string, also: RegExp) => seen.filter((sql) => sql.includes(`from "${table}"`) && also.test(sql) && /\blimit\b/.test(sql)).length;
    expect(pages('posts', /"posts"\."text"/)).toBe(3);
    expect(pages('comments', /"text"/)).toBe(3);
    expect(pages('post_likes', /"created_at"/)).toBe(3);
    expect(pages('comment_likes', /"created_at"/)).toBe(3);

    const byTimeThenId = [...mine].sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
    const posts = json(files, 'posts.json') as Array<{ id: string; text: string }>;
    expect(posts.map((p) => p.id)).toEqual(byTimeThenId.map((p) => p.id));
    expect(new Set(posts.map((p) => p.text)).size).toBe(5);
    expect((json(files, 'comments.json') as Array<{ text: string }>).map((c) => c.text).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `paged comment ${i}`));
    const likes = json(files, 'likes.json') as { posts: Array<{ post: { text: string } }>; comments: Array<{ comment: { text: string } }> };
    expect(likes.posts.map((like) => like.post.text).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `their post ${i}`));
    expect(likes.comments.map((like) => like.comment.text).sort()).toEqual([0, 1, 2, 3, 4].map((i) => `paged comment ${i}`));
    // Written in pieces, each file is still the text JSON.stringify gives it.
    for (const name of ['posts.json', 'comments.json', 'likes.json', 'follows.json', 'account.json']) {
      const text = files.get(name)!.toString('utf8');
      expect(text).toBe(`${JSON.stringify(JSON.parse(text), null, 2)}\n`);
    }
  });
});

describe('GET /api/account/export, a few at once', () => {
  const t = useTestApp({ EXPORT_CONCURRENCY: '1' });
  const exportOf = (user: TestUser) => call(t.app, user, { method: 'GET', url: '/api/account/export' });
  const slotsTaken = async (user: TestUser) =>
    (await t.app.db.selectFrom('rate_events').select('key').where('key', '=', `export:${user.id}`).execute()).length;

  it('refuses one more export while EXPORT_CONCURRENCY are being sent (429 export_busy, no hourly slot spent), and takes one once it ended', async () => {
    const first = await createUser(t.app);
    const second = await createUser(t.app);
    // The first export's avatar is read from a stream the test holds open: that export stays in flight until it ends.
    const held = new PassThrough();
    let opened!: () => void;
    const reading = new Promise<void>((resolve) => (opened = resolve));
    const open = vi.spyOn(t.app.storage, 'get').mockImplementationOnce(async () => {
      opened();
      return { body: held, size: 3, modified: new Date(), contentType: 'image/jpeg', etag: 'held' };
    });
    try {
      const pending = exportOf(first);
      await reading;
      const refused = await exportOf(second);
      expectError(refused, 429, 'export_busy');
      expect(refused.headers['retry-after']).toBe('60');
      expect(await slotsTaken(second)).toBe(0);

      held.end(Buffer.from('abc'));
      const done = await pending;
      expect(done.statusCode).toBe(200);
      expect((await readZip(done.rawPayload)).get('images/avatar.jpeg')!.toString()).toBe('abc');
    } finally {
      open.mockRestore();
    }
    expect((await exportOf(second)).statusCode).toBe(200);
  });

  it('gives the place back when the export fails on the way', async () => {
    const user = await createUser(t.app);
    const open = vi.spyOn(t.app.storage, 'get').mockRejectedValueOnce(new Error('disk gone'));
    try {
      const broken = await exportOf(user).then((res) => readZip(res.rawPayload).then(() => 'readable', () => 'broken'), () => 'broken');
      expect(broken).toBe('broken');
    } finally {
      open.mockRestore();
    }
    expect((await exportOf(user)).statusCode).toBe(200);
  });
});
