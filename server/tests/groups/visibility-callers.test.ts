import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { addMember, call, createFollow, createGroup, createPost, createUser, type TestUser, createGroupWith } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/**
 * A private group's posts are for its members: group-access.ts alone knows it, and every module
 * asks it. These tests hold the rule through each caller: the media route (unsigned images of a
 * private post are refused), the post card (signed image URLs, and only for those who may read
 * it), the comment list, the notification fan-out (non-members are skipped) and the
 * notification list. Changing a group's privacy changes every answer at once, as nothing keeps a
 * copy of the rule.
 */

const t = useTestApp();

let png: Buffer;
beforeAll(async () => {
  png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3a6' } }).png().toBuffer();
});

async function uploadImage(user: TestUser, ownerId: string): Promise<void> {
  const form = multipartBody({ id: ownerId, index: '0' }, [{ field: 'image', filename: 'a.png', contentType: 'image/png', data: png }]);
  const res = await call(t.app, user, { method: 'POST', url: '/api/upload/image', ...form });
  expect(res.statusCode).toBe(201);
}

const readPost = (user: TestUser | null, postId: string) => call(t.app, user, { method: 'GET', url: `/api/post/${postId}` });
const fetchMedia = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
const makePublic = async (owner: TestUser, group: { id: string; name: string }) =>
  expect((await call(t.app, owner, { method: 'PATCH', url: `/api/group/${group.id}/update`, payload: { name: group.name, isPrivate: false } })).statusCode).toBe(200);

describe('images of a private post (media route and post card)', () => {
  it('are refused unsigned to everyone, signed only for those who may read the post, and open once the group is public', async () => {
    const { owner, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const outsider = await createUser(t.app);
    const post = await createPost(t.app, owner, { groupIds: [group.id] });
    await uploadImage(owner, post.id);
    const plainUrl = `/media/${post.id}0.webp`;

    // Not signed: not found, for a visitor, a non-member and a member alike.
    expect(await fetchMedia(plainUrl)).toBe(404);
    expect((await call(t.app, outsider, { method: 'GET', url: plainUrl })).statusCode).toBe(404);
    expect((await call(t.app, member, { method: 'GET', url: plainUrl })).statusCode).toBe(404);
    // A non-member never gets the card, so never a signed URL.
    expect((await readPost(outsider, post.id)).statusCode).toBe(404);
    expect((await readPost(null, post.id)).statusCode).toBe(404);
    // The member's card carries a signed URL that opens.
    const [signed] = (await readPost(member, post.id)).json().media as string[];
    expect(signed).toMatch(/[?&]sig=/);
    expect(await fetchMedia(signed!)).toBe(200);

    // The group made public: the post is no longer private anywhere.
    await makePublic(owner, group);
    expect(await fetchMedia(plainUrl)).toBe(200);
    const [plain] = (await readPost(outsider, post.id)).json().media as string[];
    expect(plain).not.toMatch(/sig=/);
    expect(await fetchMedia(plain!)).toBe(200);
  });

  it('of a post in a public group stay plain and open to all', async () => {
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner);
    const post = await createPost(t.app, owner, { groupIds: [group.id] });
    await uploadImage(owner, post.id);
    const [url] = (await readPost(null, post.id)).json().media as string[];
    expect(url).not.toMatch(/sig=/);
    expect(await fetchMedia(`/media/${post.id}0.webp`)).toBe(200);
  });
});

describe('images of a comment on a private post (comment list)', () => {
  it('are signed for the member and refused unsigned', async () => {
    const { owner, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const post = await createPost(t.app, owner, { groupIds: [group.id] });
    const created = await call(t.app, member, { method: 'POST', url: '/api/comment/', payload: { text: 'pic', parent: post.id } });
    const commentId = created.json()._id as string;
    await uploadImage(member, commentId);

    expect(await fetchMedia(`/media/${commentId}0.webp`)).toBe(404);
    const list = await call(t.app, member, { method: 'GET', url: `/api/post/${post.id}/comments` });
    const [url] = list.json().comments[0].media as string[];
    expect(url).toMatch(/[?&]sig=/);
    expect(await fetchMedia(url!)).toBe(200);
  });
});

describe('notification fan-out of a private post', () => {
  const recipients = async (postId: string) =>
    (await t.app.db.selectFrom('notifications').select(['user_id', 'type']).where('post_id', '=', postId).orderBy('user_id').execute());
  const announce = async (postId: string) => {
    await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId });
    await runDueJobs(t.app);
  };

  it('skips non-members whatever the reason they would be told (follow, mention, reply, comment)', async () => {
    const { owner: author, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const outsider = await createUser(t.app);
    for (const user of [member, outsider]) await createFollow(t.app, user, author, { notify: true });

    // A reply to the outsider's public post, in the private group, mentioning both.
    const original = await createPost(t.app, outsider);
    const post = await createPost(t.app, author, { groupIds: [group.id], replyTo: original.id });
    await t.app.db
      .insertInto('post_mentions')
      .values([member, outsider].map((user, position) => ({ post_id: post.id, position, user_id: user.id, username: user.username })))
      .execute();
    await announce(post.id);
    expect(await recipients(post.id)).toEqual([{ user_id: member.id, type: 'MENTION' }]);

    // A comment mentioning the outsider: nothing for them either.
    const commentId = (await call(t.app, member, {
      method: 'POST', url: '/api/comment/', payload: { text: `hi @${outsider.username}`, parent: post.id, mentions: [outsider.username] },
    })).json()._id as string;
    await runDueJobs(t.app);
    const aboutComment = await t.app.db.selectFrom('notifications').select('user_id').where('comment_id', '=', commentId).execute();
    expect(aboutComment.map((row) => row.user_id)).toEqual([author.id]);
  });

  it('reaches followers and group members who are members, and in two private groups only members of both', async () => {
    const author = await createUser(t.app);
    const inBoth = await createUser(t.app);
    const inFirst = await createUser(t.app);
    const followerInFirst = await createUser(t.app);
    const first = await createGroup(t.app, author, { isPrivate: true });
    const second = await createGroup(t.app, author, { isPrivate: true });
    for (const user of [inBoth, inFirst, followerInFirst]) await addMember(t.app, first.id, user);
    await addMember(t.app, second.id, inBoth);
    await createFollow(t.app, followerInFirst, author, { notify: true });

    const inOne = await createPost(t.app, author, { groupIds: [first.id] });
    await announce(inOne.id);
    expect(await recipients(inOne.id)).toEqual(
      [
        { user_id: inBoth.id, type: 'GROUP_POST' },
        { user_id: inFirst.id, type: 'GROUP_POST' },
        { user_id: followerInFirst.id, type: 'NEW_POST' },
      ].sort((a, b) => (a.user_id < b.user_id ? -1 : 1)),
    );

    const inTwo = await createPost(t.app, author, { groupIds: [first.id, second.id] });
    await announce(inTwo.id);
    expect(await recipients(inTwo.id)).toEqual([{ user_id: inBoth.id, type: 'GROUP_POST' }]);
  });
});

describe('notification list', () => {
  it('hides items about a private post from someone who left the group, and shows them again on return', async () => {
    const { owner: author, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
    const post = await createPost(t.app, author, { groupIds: [group.id] });
    await enqueueNotificationEvent(t.app.db, { kind: 'post_created', postId: post.id });
    await runDueJobs(t.app);
    const listed = async () => {
      const res = await call(t.app, member, { method: 'GET', url: '/api/notification/' });
      return (res.json().notifications as { context: { post: string | null } }[]).map((item) => item.context.post);
    };
    expect(await listed()).toEqual([post.id]);

    expect((await call(t.app, member, { method: 'DELETE', url: `/api/group/${group.name}/leave` })).statusCode).toBe(200);
    expect(await listed()).toEqual([]);
    await addMember(t.app, group.id, member);
    expect(await listed()).toEqual([post.id]);
  });
});
