import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import { describe, expect, it } from 'vitest';
import type { NotificationType } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { appToken } from './oauth-helpers';

/** masto and megalodon, over HTTP, read and dismiss notifications and search. */
describe('client API notifications and search through real client libraries', () => {
  const instance = useInstance();

  async function notify(user: TestUser, type: NotificationType, about: { actor: TestUser; post?: string; group?: string }, secondsAgo: number) {
    const at = Date.now() - secondsAgo * 1000;
    const id = newId(at);
    await instance.app.db
      .insertInto('notifications')
      .values({ id, user_id: user.id, type, actor_id: about.actor.id, post_id: about.post ?? null, group_id: about.group ?? null, created_at: at })
      .execute();
    return id;
  }

  /** A person with a follow, a mention and a group's extra notification, newest last made. */
  async function someoneNotified() {
    const ana = await createUser(instance.app);
    const bob = await createUser(instance.app);
    const post = await createPost(instance.app, bob, { text: 'hello ana' });
    const group = await createGroup(instance.app, bob);
    const follow = await notify(ana, 'NEW_FOLLOWER', { actor: bob }, 30);
    const mention = await notify(ana, 'MENTION', { actor: bob, post: post.id }, 20);
    const extra = await notify(ana, 'MADE_ADMIN', { actor: bob, group: group.id }, 10);
    return { ana, bob, post, ids: { follow, mention, extra }, token: await appToken(instance.app, ana, 'read write') };
  }

  it('masto lists notifications page by page and by type, reads one, dismisses one and clears them', async () => {
    const { bob, post, ids, token } = await someoneNotified();
    const masto = createRestAPIClient({ url: instance.origin, accessToken: token });
    const pages: string[][] = [];
    for await (const page of masto.v1.notifications.list({ limit: 2 })) pages.push(page.map((n) => n.id));
    expect(pages).toEqual([[ids.extra, ids.mention], [ids.follow]]);
    const mentions = await masto.v1.notifications.list({ types: ['mention'] });
    expect(mentions.map((n) => [n.type, n.account.id, n.status?.id])).toEqual([['mention', bob.id, post.id]]);
    expect(await masto.v1.notifications.list({ excludeTypes: ['mention', 'follow'] })).toMatchObject([{ id: ids.extra, type: 'kruh.made_admin' }]);
    expect(await masto.v1.notifications.$select(ids.follow).fetch()).toMatchObject({ id: ids.follow, type: 'follow', account: { id: bob.id } });
    expect(await masto.v1.notifications.unreadCount.fetch()).toEqual({ count: 3 });
    await masto.v1.notifications.$select(ids.mention).dismiss();
    expect((await masto.v1.notifications.list()).map((n) => n.id)).toEqual([ids.extra, ids.follow]);
    await masto.v1.notifications.clear();
    expect(await masto.v1.notifications.list()).toEqual([]);
  });

  it('megalodon lists notifications (leaving out the types it does not know), dismisses one and clears them', async () => {
    const { bob, post, ids, token } = await someoneNotified();
    const client = generator('mastodon', instance.origin, token);
    const listed = await client.getNotifications({ limit: 40 });
    expect(listed.data.map((n) => [n.id, n.type, n.account?.id])).toEqual([
      [ids.mention, 'mention', bob.id],
      [ids.follow, 'follow', bob.id],
    ]);
    expect(listed.data[0]!.status?.id).toBe(post.id);
    expect((await client.getNotifications({ exclude_types: ['mention'] })).data.map((n) => n.id)).toEqual([ids.follow]);
    expect((await client.getNotification(ids.follow)).data.id).toBe(ids.follow);
    await client.dismissNotification(ids.follow);
    expect((await client.getNotifications()).data.map((n) => n.id)).toEqual([ids.mention]);
    await client.dismissNotifications();
    expect((await client.getNotifications()).data).toEqual([]);
  });

  it('masto and megalodon search accounts, statuses and a handle of this server', async () => {
    const { ana, token } = await someoneNotified();
    const author = await createUser(instance.app, { username: `pumpkin${Date.now()}` });
    const post = await createPost(instance.app, author, { text: 'pumpkinseason begins' });
    const masto = createRestAPIClient({ url: instance.origin, accessToken: token });
    const found = await masto.v2.search.list({ q: 'pumpkinseason', type: 'statuses' });
    expect(found.statuses.map((s) => s.id)).toEqual([post.id]);
    const byHandle = await masto.v2.search.list({ q: `@${author.username}@${instance.host}`, type: 'accounts', resolve: true });
    expect(byHandle.accounts.map((a) => a.id)).toEqual([author.id]);
    expect((await masto.v1.accounts.search.list({ q: ana.username })).map((a) => a.id)).toEqual([ana.id]);
    const client = generator('mastodon', instance.origin, token);
    const results = await client.search(author.username, { type: 'accounts', resolve: true });
    expect(results.data.accounts.map((a) => a.acct)).toEqual([author.username]);
    expect((await client.search('pumpkinseason', { type: 'statuses' })).data.statuses.map((s) => s.id)).toEqual([post.id]);
  });
});
