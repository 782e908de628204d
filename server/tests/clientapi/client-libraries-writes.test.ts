import { createRestAPIClient } from 'masto';
import generator from 'megalodon';
import { describe, expect, it } from 'vitest';
import { createGroup, createUser } from '../helpers/fixtures';
import { useInstance } from '../helpers/kruh-instance';
import { appToken } from './oauth-helpers';

/**
 * The two client libraries apps are built on, signed in, writing over HTTP to a running instance:
 * a status with a content warning, a reply, a like, following a person and a group, a post into
 * the group, and deleting.
 */
describe('client API writes through real client libraries', () => {
  const instance = useInstance();

  it('masto posts with a warning, replies, likes, follows a person and a group, posts into it, deletes', async () => {
    const me = await createUser(instance.app);
    const friend = await createUser(instance.app);
    const owner = await createUser(instance.app);
    const group = await createGroup(instance.app, owner);
    const masto = createRestAPIClient({ url: instance.origin, accessToken: await appToken(instance.app, me, 'read write follow') });

    const post = await masto.v1.statuses.create({ status: 'Hello from masto', spoilerText: 'a warning', visibility: 'public' });
    expect(post).toMatchObject({ account: { id: me.id }, spoilerText: 'a warning', sensitive: true });
    const reply = await masto.v1.statuses.create({ status: 'and a reply', inReplyToId: post.id });
    expect(reply).toMatchObject({ inReplyToId: post.id });
    expect((await masto.v1.statuses.$select(post.id).favourite()).favouritesCount).toBe(1);
    expect((await masto.v1.statuses.$select(post.id).unfavourite()).favourited).toBe(false);
    await expect(masto.v1.statuses.$select(post.id).reblog()).rejects.toMatchObject({ statusCode: 422, message: expect.stringContaining('Boosts') });

    expect(await masto.v1.accounts.$select(friend.id).follow()).toMatchObject({ id: friend.id, following: true });
    expect(await masto.v1.accounts.$select(`g${group.id}`).follow()).toMatchObject({ id: `g${group.id}`, following: true });
    const intoGroup = await masto.v1.statuses.create({ status: `@${group.name} hello group` });
    const statuses = await masto.v1.accounts.$select(`g${group.id}`).statuses.list();
    expect(statuses.map((s) => s.id)).toEqual([intoGroup.id]);
    expect(await masto.v1.accounts.$select(`g${group.id}`).unfollow()).toMatchObject({ following: false });

    const deleted = await masto.v1.statuses.$select(reply.id).remove();
    expect(deleted).toMatchObject({ id: reply.id, text: 'and a reply' });
    await expect(masto.v1.statuses.$select(reply.id).fetch()).rejects.toMatchObject({ statusCode: 404 });
  });

  it('megalodon posts, replies, likes, follows, posts into a group, deletes; a read-only token is refused', async () => {
    const me = await createUser(instance.app);
    const friend = await createUser(instance.app);
    const owner = await createUser(instance.app);
    const group = await createGroup(instance.app, owner, { requestJoin: true });
    const client = generator('mastodon', instance.origin, await appToken(instance.app, me, 'read write follow'));

    const post = (await client.postStatus('Hello from megalodon', { spoiler_text: 'cw', visibility: 'public' })).data;
    expect(post).toMatchObject({ account: { id: me.id }, spoiler_text: 'cw' });
    const id = (post as { id: string }).id;
    const reply = (await client.postStatus('a reply', { in_reply_to_id: id })).data as { id: string; in_reply_to_id: string };
    expect(reply.in_reply_to_id).toBe(id);
    expect((await client.favouriteStatus(id)).data).toMatchObject({ favourited: true, favourites_count: 1 });
    expect((await client.followAccount(friend.id)).data).toMatchObject({ following: true });
    // A group that takes requests: following it asks to join.
    expect((await client.followAccount(`g${group.id}`)).data).toMatchObject({ following: false, requested: true });
    await expect(client.postStatus(`@${group.name} may I?`)).rejects.toMatchObject({ response: { status: 403 } });
    expect((await client.unfollowAccount(`g${group.id}`)).data).toMatchObject({ requested: false });
    expect((await client.deleteStatus(id)).status).toBe(200);
    await expect(client.getStatus(id)).rejects.toMatchObject({ response: { status: 404 } });

    const reader = generator('mastodon', instance.origin, await appToken(instance.app, me, 'read'));
    await expect(reader.postStatus('not allowed')).rejects.toMatchObject({ response: { status: 403, data: { message: 'error/insufficient_scope' } } });
  });
});
