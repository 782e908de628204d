import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { openDatabase } from '../../src/db/database';
import { newId } from '../../src/lib/ids';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { call, type TestUser } from '../helpers/fixtures';
import { TEST_DB, type TestApp } from '../helpers/test-app';
import type { NotificationReply } from '../../src/modules/notifications/notifications.mapper';

/** Runs every due notification job, as the worker would. */
export const drain = (app: FastifyInstance) => runDueJobs(app);

export async function listFor(app: FastifyInstance, user: TestUser, query = '') {
  const res = await call(app, user, { method: 'GET', url: `/api/notification/${query}` });
  if (res.statusCode !== 200) throw new Error(`list failed: ${res.statusCode} ${res.body}`);
  return res.json() as { notifications: NotificationReply[]; hasMore: boolean };
}

export async function typesFor(app: FastifyInstance, user: TestUser): Promise<string[]> {
  const rows = await app.db.selectFrom('notifications').select('type').where('user_id', '=', user.id).orderBy('type').execute();
  return rows.map((row) => row.type);
}

/** Each named user's notification types, for one expectation over several users that names them. */
export async function typesOfEach(app: FastifyInstance, users: Record<string, TestUser>): Promise<Record<string, string[]>> {
  const types = await Promise.all(Object.entries(users).map(async ([name, user]) => [name, await typesFor(app, user)] as const));
  return Object.fromEntries(types);
}

export async function setSettings(app: FastifyInstance, user: TestUser, settings: Partial<Record<number, boolean>>) {
  const list = [true, true, true, true, true, true].map((value, index) => settings[index] ?? value);
  await app.db.updateTable('users').set({ notification_settings: JSON.stringify(list) }).where('id', '=', user.id).execute();
}

export async function setLevel(app: FastifyInstance, groupId: string, user: TestUser, level: number) {
  await app.db.updateTable('group_members').set({ level }).where('group_id', '=', groupId).where('user_id', '=', user.id).execute();
}

export async function mention(app: FastifyInstance, postId: string, users: TestUser[]) {
  await app.db
    .insertInto('post_mentions')
    .values(users.map((user, position) => ({ post_id: postId, position, user_id: user.id, username: user.username })))
    .execute();
}

export async function createComment(
  app: FastifyInstance,
  author: TestUser,
  postId: string,
  options: { parent?: string; mentions?: TestUser[] } = {},
): Promise<string> {
  const id = newId();
  await app.db
    .insertInto('comments')
    .values({ id, post_id: postId, parent_comment_id: options.parent ?? null, author_id: author.id, text: `comment ${id}`, search_text: 'comment', created_at: Date.now() })
    .execute();
  if (options.mentions?.length) {
    await app.db
      .insertInto('comment_mentions')
      .values(options.mentions.map((user, position) => ({ comment_id: id, position, user_id: user.id, username: user.username })))
      .execute();
  }
  return id;
}

/**
 * Closes the app and opens a fresh one on the same database, as after a server restart. The
 * returned close() also removes what createTestApp made (temp folder, PostgreSQL database).
 */
export async function restart(t: TestApp): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  await t.app.close();
  const app = await openSibling(t);
  return {
    app,
    async close() {
      await app.close();
      await t.close();
    },
  };
}

/** A second app on the same database (another server process, in effect). */
export async function openSibling(t: TestApp): Promise<FastifyInstance> {
  const database =
    TEST_DB === 'postgres'
      ? openDatabase({ url: t.config.databaseUrl, dataDir: t.config.dataDir, poolSize: 4 })
      : openDatabase({ dataDir: t.config.dataDir });
  const app = await buildApp({ config: t.config, database, logger: false });
  await app.ready();
  return app;
}

/** Adds `count` new users to a group straight in the database, in multi-row inserts. */
export async function seedMembers(app: FastifyInstance, groupId: string, count: number, batch = 5000): Promise<void> {
  const tag = newId().slice(-10);
  // An hour back: ids start with their second, so members seeded in the same second as the test's
  // own users would sort among them at random, and which user falls in which fan-out batch (the
  // author's own membership counts against a batch) would depend on the clock.
  const now = Date.now() - 60 * 60 * 1000;
  for (let start = 0; start < count; start += batch) {
    const users = Array.from({ length: Math.min(batch, count - start) }, (_, i) => {
      const username = `m${tag}_${start + i}`;
      return { id: newId(now), username, username_lower: username, search_text: username, created_at: now };
    });
    await app.db.transaction().execute(async (trx) => {
      await trx.insertInto('users').values(users).execute();
      await trx
        .insertInto('group_members')
        .values(users.map((user) => ({ group_id: groupId, user_id: user.id, role: 'member' as const, created_at: now })))
        .execute();
    });
  }
  await app.db.updateTable('groups').set((eb) => ({ members: eb('members', '+', count) })).where('id', '=', groupId).execute();
}

export async function notificationStats(app: FastifyInstance, postId: string) {
  const row = await app.db
    .selectFrom('notifications')
    .select((eb) => [eb.fn.countAll<number>().as('total'), eb.fn.count<number>('user_id').distinct().as('users')])
    .where('post_id', '=', postId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), users: Number(row.users) };
}
