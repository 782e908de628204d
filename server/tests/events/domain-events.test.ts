import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { newTransaction } from '../../src/db/helpers';
import { EVENT_SUBSCRIBERS } from '../../src/events';
import { type EventSubscriber, publishEvent } from '../../src/lib/events/domain-events';
import { contextOf } from '../../src/lib/service-context';
import { enqueueTestJob } from '../helpers/test-jobs';
import { call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const FEDERATED = { FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: 'http://kruh.test' };

/** The queued jobs of the kinds that react to events, as kind and payload. */
async function reactions(app: FastifyInstance) {
  const rows = await app.db.selectFrom('jobs').select(['kind', 'payload']).where('kind', 'in', ['notification_event', 'federation_outgoing', 'heard']).orderBy('id').execute();
  return rows.map((row) => ({ kind: row.kind, payload: JSON.parse(row.payload) as unknown }));
}

async function writePost(app: FastifyInstance, text: string): Promise<string> {
  const author = await createUser(app);
  const res = await call(app, author, { method: 'POST', url: '/api/post', payload: { text } });
  expect(res.statusCode).toBe(201);
  return res.json<{ _id: string }>()._id;
}

/** Notes each post.created it hears, with whether it ran inside a transaction, as a job of its own. */
const heard: EventSubscriber<'post.created'> = async (ctx, { postId }) => {
  await enqueueTestJob(ctx.db, 'heard', { postId, inTransaction: ctx.db.isTransaction });
};

describe('a post written, with the app’s subscribers', () => {
  const t = useTestApp(FEDERATED);

  it('queues its notification event and its federation job, in the transaction of the write', async () => {
    const postId = await writePost(t.app, 'told to followers and to other servers');
    expect(await reactions(t.app)).toEqual([
      { kind: 'notification_event', payload: { kind: 'post_created', postId } },
      { kind: 'federation_outgoing', payload: { kind: 'post', postId, change: 'create' } },
    ]);
  });

  it('leaves no job behind when the write that published it rolls back', async () => {
    const before = await reactions(t.app);
    const rollback = new Error('rolled back');
    await expect(
      newTransaction(t.app.db, async (trx) => {
        await publishEvent(contextOf(t.app, trx), 'post.created', { postId: 'f'.repeat(24), pictures: 0 });
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await reactions(t.app)).toEqual(before);
  });
});

describe('a subscriber registered for post.created', () => {
  const t = useTestApp(FEDERATED, { events: { ...EVENT_SUBSCRIBERS, 'post.created': [...EVENT_SUBSCRIBERS['post.created'], heard] } });

  it('runs after the others, inside the route’s transaction', async () => {
    const postId = await writePost(t.app, 'heard by one more');
    expect(await reactions(t.app)).toEqual([
      { kind: 'notification_event', payload: { kind: 'post_created', postId } },
      { kind: 'federation_outgoing', payload: { kind: 'post', postId, change: 'create' } },
      { kind: 'heard', payload: { postId, inTransaction: true } },
    ]);
  });
});

describe('an app with no subscribers', () => {
  const t = useTestApp(FEDERATED, { events: {} });

  it('queues nothing for a post written: the posts module tells only the registry', async () => {
    await writePost(t.app, 'heard by nobody');
    expect(await reactions(t.app)).toEqual([]);
  });
});
