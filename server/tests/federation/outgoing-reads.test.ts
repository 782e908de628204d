import type { FastifyInstance } from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { addRemoteFollow, saveRemoteActor } from '../../src/modules/federation/federation.repository';
import { FEDERATION_OUTGOING_JOB } from '../../src/modules/federation/outbound/outgoing';
import { federationOutgoingJob } from '../../src/modules/federation/outbound/outgoing-activities';
import { addMember, call, createGroup, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const ORIGIN = 'https://kruh.example';

/**
 * The outgoing job reads what it sends through the services, as a visitor would read it, without
 * a request to the app's own API: it runs each queued `federation_outgoing` job here with
 * `app.inject` watched, and reads the deliveries it queued.
 */
describe('the outgoing federation job', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });

  async function runOutgoing(app: FastifyInstance) {
    const jobs = await app.db.selectFrom('jobs').select(['id', 'payload']).where('kind', '=', FEDERATION_OUTGOING_JOB).orderBy('id').execute();
    await app.db.deleteFrom('jobs').where('kind', '=', FEDERATION_OUTGOING_JOB).execute();
    const inject = vi.spyOn(app, 'inject');
    try {
      for (const job of jobs) await federationOutgoingJob.outside(app, JSON.parse(job.payload), Date.now());
      return inject.mock.calls.length;
    } finally {
      inject.mockRestore();
    }
  }

  async function deliveredActivities(app: FastifyInstance) {
    const rows = await app.db.selectFrom('jobs').select('payload').where('kind', '=', 'federation_delivery').orderBy('id').execute();
    await app.db.deleteFrom('jobs').where('kind', '=', 'federation_delivery').execute();
    return rows.map((row) => (JSON.parse(row.payload) as { inbox: string; activity: { type: string; object: { type: string; content?: string } } }));
  }

  it('sends a post and a comment under it, passed on by their public group, without a request to the API', async () => {
    const alice = await createUser(t.app);
    const garden = await createGroup(t.app, alice);
    const bob = await createUser(t.app);
    await addMember(t.app, garden.id, bob);
    const now = Date.now();
    const remote = { id: 'https://elsewhere.example/users/carol', inbox: 'https://elsewhere.example/users/carol/inbox', shared_inbox: null, handle: 'carol@elsewhere.example' };
    await saveRemoteActor(t.app.db, remote, now);
    await addRemoteFollow(t.app.db, remote.id, garden.id, now);

    const post = await call(t.app, alice, { method: 'POST', url: '/api/post', payload: { text: 'Seedlings are up', groups: [garden.id] } });
    expect(post.statusCode, post.body).toBe(201);
    expect(await runOutgoing(t.app)).toBe(0);
    const sentPost = await deliveredActivities(t.app);
    expect(sentPost.map(({ inbox, activity }) => [inbox, activity.type, activity.object.type])).toEqual([[remote.inbox, 'Announce', 'Create']]);

    const comment = await call(t.app, bob, { method: 'POST', url: '/api/comment/', payload: { text: 'Mine too', parent: post.json<{ _id: string }>()._id } });
    expect(comment.statusCode, comment.body).toBe(201);
    expect(await runOutgoing(t.app)).toBe(0);
    const sentComment = await deliveredActivities(t.app);
    expect(sentComment).toHaveLength(1);
    expect(sentComment[0]!.activity.type).toBe('Announce');
    expect(JSON.stringify(sentComment[0]!.activity)).toContain('Mine too');
  });
});
