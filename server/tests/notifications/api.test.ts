import { describe, expect, it } from 'vitest';
import { PAGE_SIZES } from '#core/limits';
import { newId } from '../../src/lib/ids';
import { enqueueNotificationEvent } from '../../src/modules/notifications/events';
import { call, createFollow, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { drain, listFor } from './support';

describe('notification endpoints', () => {
  const t = useTestApp();

  /** `count` NEW_FOLLOWER items for `user`, one second apart, oldest first; returns their actors. */
  async function followers(user: TestUser, count: number): Promise<TestUser[]> {
    const actors: TestUser[] = [];
    const start = Date.now() - count * 1000;
    for (let i = 0; i < count; i++) {
      const actor = await createUser(t.app);
      await createFollow(t.app, actor, user);
      await enqueueNotificationEvent(t.app.db, { kind: 'follow', actorId: actor.id, userId: user.id }, start + i * 1000);
      await drain(t.app);
      await t.app.db.updateTable('notifications').set({ created_at: start + i * 1000 }).where('actor_id', '=', actor.id).execute();
      actors.push(actor);
    }
    return actors;
  }

  it('answers no_token without a token and invalid_token with a bad one', async () => {
    for (const [method, url] of [
      ['GET', '/api/notification/'],
      ['GET', '/api/notification/unread'],
      ['PATCH', '/api/notification/seen'],
      ['DELETE', '/api/notification/all'],
      ['DELETE', `/api/notification/${newId()}`],
      ['GET', '/api/notification/stream'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ message: 'error/no_token' });
      const bad = await t.app.inject({ method, url, headers: { authorization: 'Bearer nope' } });
      expect(bad.statusCode).toBe(401);
      expect(bad.json()).toEqual({ message: 'error/invalid_token' });
    }
    const res = await t.app.inject({ method: 'GET', url: '/api/notification/stream?token=nope' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'error/invalid_token' });
  });

  it('pages six at a time, newest first, with hasMore', async () => {
    const user = await createUser(t.app);
    const actors = await followers(user, PAGE_SIZES.notifications + 2);
    const first = await listFor(t.app, user);
    expect(first.notifications.map((n) => n.author)).toEqual(actors.slice(2).reverse().map((a) => a.username));
    expect(first.hasMore).toBe(true);
    const second = await listFor(t.app, user, '?page=2');
    expect(second.notifications.map((n) => n.author)).toEqual([actors[1]!.username, actors[0]!.username]);
    expect(second.hasMore).toBe(false);
    const custom = await listFor(t.app, user, '?page=3&limit=3');
    expect(custom.notifications).toHaveLength(2);
    expect(custom.hasMore).toBe(false);
    const bad = await call(t.app, user, { method: 'GET', url: '/api/notification/?page=abc' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toMatch(/^error\//);
  });

  it('only lists the viewer’s own items', async () => {
    const user = await createUser(t.app);
    const stranger = await createUser(t.app);
    await followers(user, 2);
    expect((await listFor(t.app, stranger)).notifications).toEqual([]);
  });

  it('counts unread items and marks them all seen', async () => {
    const user = await createUser(t.app);
    await followers(user, 3);
    const unread = () => call(t.app, user, { method: 'GET', url: '/api/notification/unread' });
    expect((await unread()).json()).toEqual({ count: 3 });
    const seen = await call(t.app, user, { method: 'PATCH', url: '/api/notification/seen' });
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toEqual({ count: 0 });
    expect((await unread()).json()).toEqual({ count: 0 });
    expect((await listFor(t.app, user)).notifications.every((n) => n.seen)).toBe(true);
  });

  it('deletes one own item; another user’s or a missing one is 404 invalid_id, a malformed id 400', async () => {
    const user = await createUser(t.app);
    const stranger = await createUser(t.app);
    await followers(user, 2);
    const [first, second] = (await listFor(t.app, user)).notifications;
    const foreign = await call(t.app, stranger, { method: 'DELETE', url: `/api/notification/${first!._id}` });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ message: 'error/invalid_id' });
    const missing = await call(t.app, user, { method: 'DELETE', url: `/api/notification/${newId()}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'error/invalid_id' });
    const malformed = await call(t.app, user, { method: 'DELETE', url: '/api/notification/xyz' });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ message: 'error/invalid_id' });
    const res = await call(t.app, user, { method: 'DELETE', url: `/api/notification/${first!._id}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'info/notification_deleted' });
    expect((await listFor(t.app, user)).notifications.map((n) => n._id)).toEqual([second!._id]);
  });

  it('deletes all own items and nobody else’s', async () => {
    const user = await createUser(t.app);
    const stranger = await createUser(t.app);
    await followers(user, 3);
    await followers(stranger, 1);
    const res = await call(t.app, user, { method: 'DELETE', url: '/api/notification/all' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'info/notifications_cleared' });
    expect((await listFor(t.app, user)).notifications).toEqual([]);
    expect((await listFor(t.app, stranger)).notifications).toHaveLength(1);
    const again = await call(t.app, user, { method: 'DELETE', url: '/api/notification/all' });
    expect(again.statusCode).toBe(200);
  });
});
