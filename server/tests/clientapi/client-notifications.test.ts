import { describe, expect, it } from 'vitest';
import { ClientNotification } from '#core/api/client-notifications';
import type { NotificationType } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { createComment } from '../notifications/support';
import { addMember, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { appGet, asApp, expectShape, linkOf } from './client-calls';
import { appToken } from './oauth-helpers';

/** The caller's notifications through the client API: their types, paging, one, dismissing, the count. */

const t = useTestApp();

/** A notification of `user`, stored as the fan-out stores it, `secondsAgo` before now. */
async function notify(user: TestUser, type: NotificationType, about: { actor?: TestUser; post?: string; comment?: string; group?: string }, secondsAgo = 0): Promise<string> {
  const at = Date.now() - secondsAgo * 1000;
  const id = newId(at);
  await t.app.db
    .insertInto('notifications')
    .values({ id, user_id: user.id, type, actor_id: about.actor?.id ?? null, post_id: about.post ?? null, comment_id: about.comment ?? null, group_id: about.group ?? null, created_at: at })
    .execute();
  return id;
}

const get = (token: string | null, url: string) => appGet(t.app, url, token);

describe('client API: notifications', () => {
  it("maps Kruh's kinds to the types apps know, with the account, status and group of each", async () => {
    const ana = await createUser(t.app);
    const bob = await createUser(t.app);
    const group = await createGroup(t.app, ana);
    await addMember(t.app, group.id, bob);
    const anaPost = await createPost(t.app, ana, { text: 'my post' });
    const bobPost = await createPost(t.app, bob, { text: 'hi @ana' });
    const replyPost = await createPost(t.app, bob, { text: 'answering', replyTo: anaPost.id });
    const comment = await createComment(t.app, bob, anaPost.id);
    const ids = {
      follow: await notify(ana, 'NEW_FOLLOWER', { actor: bob }, 70),
      mention: await notify(ana, 'MENTION', { actor: bob, post: bobPost.id }, 60),
      replyComment: await notify(ana, 'NEW_REPLY', { actor: bob, post: anaPost.id, comment }, 50),
      replyPost: await notify(ana, 'NEW_REPLY', { actor: bob, post: replyPost.id }, 40),
      joinRequest: await notify(ana, 'GROUP_JOIN_REQUEST', { actor: bob, group: group.id }, 30),
      madeAdmin: await notify(ana, 'MADE_ADMIN', { actor: bob, group: group.id }, 20),
    };
    const token = await appToken(t.app, ana, 'read');
    const { status, body } = await get(token, '/api/v1/notifications');
    expect(status).toBe(200);
    for (const item of body) expectShape(ClientNotification, item);
    const byId = new Map((body as ClientNotification[]).map((n) => [n.id, n]));
    expect(body.map((n: ClientNotification) => n.id)).toEqual([ids.madeAdmin, ids.joinRequest, ids.replyPost, ids.replyComment, ids.mention, ids.follow]);
    expect(byId.get(ids.follow)).toMatchObject({ type: 'follow', account: { id: bob.id, acct: bob.username } });
    expect(byId.get(ids.follow)!.status).toBeUndefined();
    expect(byId.get(ids.mention)).toMatchObject({ type: 'mention', status: { id: bobPost.id } });
    expect(byId.get(ids.replyComment)).toMatchObject({ type: 'mention', status: { id: `c${comment}`, in_reply_to_id: anaPost.id } });
    expect(byId.get(ids.replyPost)).toMatchObject({ type: 'status', status: { id: replyPost.id } });
    expect(byId.get(ids.joinRequest)).toMatchObject({ type: 'follow_request', account: { id: bob.id }, group: { id: `g${group.id}`, group: true } });
    expect(byId.get(ids.madeAdmin)).toMatchObject({ type: 'kruh.made_admin', group: { id: `g${group.id}` } });
    expect(Date.parse(byId.get(ids.follow)!.created_at)).toBeLessThan(Date.parse(byId.get(ids.mention)!.created_at));
  });

  it('keeps the types asked for and leaves out the excluded ones, in either spelling', async () => {
    const ana = await createUser(t.app);
    const bob = await createUser(t.app);
    const post = await createPost(t.app, bob);
    const follow = await notify(ana, 'NEW_FOLLOWER', { actor: bob }, 3);
    const mention = await notify(ana, 'MENTION', { actor: bob, post: post.id }, 2);
    const newPost = await notify(ana, 'NEW_POST', { actor: bob, post: post.id }, 1);
    const token = await appToken(t.app, ana, 'read:notifications');
    const ids = async (query: string) => ((await get(token, `/api/v1/notifications?${query}`)).body as ClientNotification[]).map((n) => n.id);
    expect(await ids('types[]=mention')).toEqual([mention]);
    expect(await ids('types[]=mention&types[]=follow')).toEqual([mention, follow]);
    expect(await ids('types=status')).toEqual([newPost]);
    expect(await ids('exclude_types[]=follow&exclude_types[]=status')).toEqual([mention]);
    expect(await ids('types[]=follow&exclude_types[]=follow')).toEqual([]);
    expect(await ids('types[]=reblog')).toEqual([]);
    expect(await ids('')).toEqual([newPost, mention, follow]);
  });

  it('pages by ids with the Link header, catching up oldest first with min_id', async () => {
    const ana = await createUser(t.app);
    const ids: string[] = [];
    for (let i = 5; i >= 1; i--) ids.push(await notify(ana, 'NEW_FOLLOWER', { actor: await createUser(t.app) }, i * 10));
    // Newest first: ids[0] is the newest.
    ids.reverse();
    const token = await appToken(t.app, ana, 'read');
    const first = await get(token, '/api/v1/notifications?limit=2');
    expect(first.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(0, 2));
    const next = linkOf(first.link, 'next')!;
    expect(next).toContain(`max_id=${ids[1]}`);
    const second = await get(token, next);
    expect(second.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(2, 4));
    const prev = await get(token, linkOf(second.link, 'prev')!);
    expect(prev.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(0, 2));
    const since = await get(token, `/api/v1/notifications?since_id=${ids[3]}&limit=2`);
    expect(since.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(0, 2));
    const catchUp = await get(token, `/api/v1/notifications?min_id=${ids[3]}&limit=2`);
    expect(catchUp.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(1, 3));
    const last = await get(token, `/api/v1/notifications?max_id=${ids[3]}&limit=2`);
    expect(last.body.map((n: ClientNotification) => n.id)).toEqual(ids.slice(4));
    expect(linkOf(last.link, 'next')).toBeUndefined();
  });

  it('reads one, dismisses one and clears all, never anyone else’s; the unread count follows', async () => {
    const ana = await createUser(t.app);
    const bob = await createUser(t.app);
    const one = await notify(ana, 'NEW_FOLLOWER', { actor: bob }, 2);
    const two = await notify(ana, 'NEW_FOLLOWER', { actor: await createUser(t.app) }, 1);
    const bobs = await notify(bob, 'NEW_FOLLOWER', { actor: ana });
    const token = await appToken(t.app, ana, 'read write');
    expect(await get(token, '/api/v1/notifications/unread_count')).toMatchObject({ status: 200, body: { count: 2 } });
    expect(await get(token, `/api/v1/notifications/${one}`)).toMatchObject({ status: 200, body: { id: one, type: 'follow', account: { id: bob.id } } });
    expect((await get(token, `/api/v1/notifications/${bobs}`)).status).toBe(404);
    expect((await get(token, '/api/v1/notifications/nonsense')).status).toBe(404);

    const dismiss = (id: string) => asApp(t.app, token, { method: 'POST', url: `/api/v1/notifications/${id}/dismiss` });
    expect((await dismiss(bobs)).statusCode).toBe(404);
    const dismissed = await dismiss(one);
    expect({ status: dismissed.statusCode, body: dismissed.json() }).toEqual({ status: 200, body: {} });
    expect((await get(token, '/api/v1/notifications')).body.map((n: ClientNotification) => n.id)).toEqual([two]);
    expect((await get(token, '/api/v1/notifications/unread_count')).body).toEqual({ count: 1 });

    const cleared = await asApp(t.app, token, { method: 'POST', url: '/api/v1/notifications/clear' });
    expect({ status: cleared.statusCode, body: cleared.json() }).toEqual({ status: 200, body: {} });
    expect((await get(token, '/api/v1/notifications')).body).toEqual([]);
    // Bob's own stayed.
    const bobToken = await appToken(t.app, bob, 'read');
    expect((await get(bobToken, '/api/v1/notifications')).body.map((n: ClientNotification) => n.id)).toEqual([bobs]);
  });

  it('asks for a token with the notifications scope: reading needs read, dismissing write', async () => {
    const ana = await createUser(t.app);
    const id = await notify(ana, 'NEW_FOLLOWER', { actor: await createUser(t.app) });
    const reader = await appToken(t.app, ana, 'read');
    const writer = await appToken(t.app, ana, 'write');
    const profile = await appToken(t.app, ana, 'profile');
    const refusal = async (token: string | null, method: 'GET' | 'POST', url: string) => {
      const res = await asApp(t.app, token, { method, url });
      return { status: res.statusCode, message: res.json().message };
    };
    for (const url of ['/api/v1/notifications', '/api/v1/notifications/unread_count', `/api/v1/notifications/${id}`]) {
      expect(await refusal(null, 'GET', url)).toEqual({ status: 401, message: 'error/no_token' });
      expect(await refusal(writer, 'GET', url)).toEqual({ status: 403, message: 'error/insufficient_scope' });
      expect(await refusal(profile, 'GET', url)).toEqual({ status: 403, message: 'error/insufficient_scope' });
      expect((await asApp(t.app, reader, { method: 'GET', url })).statusCode).toBe(200);
    }
    for (const url of [`/api/v1/notifications/${id}/dismiss`, '/api/v1/notifications/clear']) {
      expect(await refusal(null, 'POST', url)).toEqual({ status: 401, message: 'error/no_token' });
      expect(await refusal(reader, 'POST', url)).toEqual({ status: 403, message: 'error/insufficient_scope' });
    }
    // Nothing was deleted by the refused calls.
    expect((await get(reader, '/api/v1/notifications')).body.map((n: ClientNotification) => n.id)).toEqual([id]);
  });

  it('leaves out what the caller may no longer read: a private group post after leaving, a deleted comment', async () => {
    const ana = await createUser(t.app);
    const owner = await createUser(t.app);
    const group = await createGroup(t.app, owner, { isPrivate: true });
    await addMember(t.app, group.id, ana);
    const secret = await createPost(t.app, owner, { text: 'zqsecret words', groupIds: [group.id] });
    const open = await createPost(t.app, ana);
    const comment = await createComment(t.app, owner, open.id);
    await notify(ana, 'GROUP_POST', { actor: owner, post: secret.id, group: group.id }, 3);
    const reply = await notify(ana, 'NEW_REPLY', { actor: owner, post: open.id, comment }, 2);
    const token = await appToken(t.app, ana, 'read');
    const listed = async () => (await get(token, '/api/v1/notifications')).body as ClientNotification[];
    expect((await listed()).map((n) => n.type)).toEqual(['mention', 'status']);
    await t.app.db.deleteFrom('group_members').where('group_id', '=', group.id).where('user_id', '=', ana.id).execute();
    await t.app.db.updateTable('comments').set({ deleted: 1 }).where('id', '=', comment).execute();
    const after = await get(token, '/api/v1/notifications');
    expect(after.body).toEqual([]);
    expect(JSON.stringify(after.body)).not.toContain('zqsecret');
    expect((await get(token, `/api/v1/notifications/${reply}`)).status).toBe(404);
  });
});
