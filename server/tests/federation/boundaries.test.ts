import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { domainsCovering, isHostBlocked, isRemoteActorAllowed, normalizeDomain } from '../../src/modules/federation/boundaries';
import { documentLoaderOf } from '../../src/modules/federation/federation';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { expectError, expectInfo } from '../helpers/expect';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { type FakeActor, type FakeFediverse, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';

/**
 * Where federation stops: domains the moderators block, remote accounts they suspend, a local
 * user's block of a remote account, and the inboxes' size and rate limits. The fake remote server
 * listens on 127.0.0.1, so that is the domain blocked here.
 */

const ORIGIN = 'https://kruh.example';
const FEDERATED = { FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN };
const REMOTE_HOST = '127.0.0.1';

const actor = (id: string) => `${ORIGIN}/ap/actors/${id}`;

describe('federation boundaries', () => {
  const t = useTestApp(FEDERATED);
  let remote: FakeFediverse;
  let bob: FakeActor;
  let alice: TestUser;
  let mod: TestUser;
  let eve: TestUser;
  /** The local account standing for the remote actor. */
  let remoteAccount: string;
  let remotePost: string;

  beforeAll(async () => {
    remote = await startFakeFediverse();
    bob = await remote.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
    mod = await createUser(t.app, { username: 'mod' });
    eve = await createUser(t.app, { username: 'eve' });
    await runAdminCommand(t.app.db, { grant: mod.username });
    remoteAccount = await remoteAccountFor(t.app.db, { id: bob.id, inbox: bob.inbox, sharedInbox: null, handle: bob.handle, url: null, bio: '' }, Date.now());
    remotePost = (await createPost(t.app, { id: remoteAccount } as TestUser, { text: 'a post from afar' })).id;
  });
  afterAll(async () => {
    await remote.close();
  });

  const followOf = (localId: string) => ({ id: `${bob.id}/follows/${randomUUID()}`, type: 'Follow', actor: bob.id, object: actor(localId) });
  const follow = (localId: string) => deliverToInbox(t.app, `/ap/actors/${localId}/inbox`, followOf(localId), bob);
  const storedFollows = (localId: string) => t.app.db.selectFrom('remote_follows').selectAll().where('local_id', '=', localId).execute();
  const clearFollows = () => t.app.db.deleteFrom('remote_follows').execute();
  const block = (user: TestUser, domain: unknown) => call(t.app, user, { method: 'POST', url: '/api/moderation/domain-blocks', payload: { domain } });
  const unblock = (user: TestUser, domain: string) => call(t.app, user, { method: 'DELETE', url: `/api/moderation/domain-blocks/${encodeURIComponent(domain)}` });
  const list = (user: TestUser) => call(t.app, user, { method: 'GET', url: '/api/moderation/domain-blocks' });
  const suspendedAt = async (id: string) => (await t.app.db.selectFrom('users').select('suspended_at').where('id', '=', id).executeTakeFirstOrThrow()).suspended_at;
  /** What the remote server received from now on, once the due jobs ran. */
  async function deliveredAfter(act: () => Promise<void>) {
    await runDueJobs(t.app);
    const from = remote.received.length;
    await act();
    await runDueJobs(t.app);
    return remote.received.slice(from).map((r) => JSON.parse(r.body) as { type: string });
  }

  describe('the moderators’ list of blocked domains', () => {
    it('is for instance moderators only', async () => {
      expectError(await list(eve), 403, 'moderators_only');
      expectError(await block(eve, 'spam.example'), 403, 'moderators_only');
      expectError(await unblock(eve, 'spam.example'), 403, 'moderators_only');
      expectError(await call(t.app, null, { method: 'GET', url: '/api/moderation/domain-blocks' }), 401, 'no_token');
      expect(await t.app.db.selectFrom('federation_domain_blocks').selectAll().execute()).toEqual([]);
    });

    it('refuses what is not a domain, and the instance’s own', async () => {
      for (const domain of ['', 'not a domain', 'https://spam.example/', 'spam.example:443', '*.spam.example', 'com', 'a..b', 'kruh.example', 'x'.repeat(300), 42]) {
        expectError(await block(mod, domain), 400, 'invalid_domain');
      }
      expectError(await call(t.app, mod, { method: 'POST', url: '/api/moderation/domain-blocks', payload: {} }), 400, 'invalid_domain');
      expectError(await unblock(mod, 'not a domain'), 400, 'invalid_domain');
      expect(await t.app.db.selectFrom('federation_domain_blocks').selectAll().execute()).toEqual([]);
    });

    it('adds a domain once, in its plain form, lists it with who blocked it, and removes it', async () => {
      expectInfo(await block(mod, '  Spam.EXAMPLE. '), 'domain_blocked');
      expectInfo(await block(mod, 'spam.example'), 'domain_blocked');
      expectInfo(await block(mod, 'bücher.example'), 'domain_blocked');
      const listed = await list(mod);
      expect(listed.statusCode).toBe(200);
      expect(listed.json()).toEqual({
        domains: [
          expect.objectContaining({ domain: 'xn--bcher-kva.example', createdBy: 'mod' }),
          { domain: 'spam.example', createdBy: 'mod', createdAt: expect.any(Number) },
        ],
        hasMore: false,
      });
      expectInfo(await unblock(mod, 'SPAM.example'), 'domain_unblocked');
      expectInfo(await unblock(mod, 'spam.example'), 'domain_unblocked');
      expectInfo(await unblock(mod, 'xn--bcher-kva.example'), 'domain_unblocked');
      expect(await list(mod).then((r) => r.json())).toEqual({ domains: [], hasMore: false });
      const log = await t.app.db.selectFrom('moderation_actions').select(['action', 'target_kind', 'target_id']).where('target_kind', '=', 'domain').orderBy('created_at').execute();
      expect(log.map((r) => `${r.action} ${r.target_id}`).sort()).toEqual(
        ['block_domain spam.example', 'block_domain xn--bcher-kva.example', 'unblock_domain spam.example', 'unblock_domain xn--bcher-kva.example'].sort(),
      );
    });

    it('reads a domain as blocked with all its subdomains, and no other domain', async () => {
      expect(normalizeDomain('Sub.Example.ORG.')).toBe('sub.example.org');
      expect(domainsCovering('a.b.example.org')).toEqual(['a.b.example.org', 'b.example.org', 'example.org']);
      expectInfo(await block(mod, 'example.org'), 'domain_blocked');
      expect(await isHostBlocked(t.app.db, 'example.org')).toBe(true);
      expect(await isHostBlocked(t.app.db, 'deep.sub.EXAMPLE.org')).toBe(true);
      expect(await isHostBlocked(t.app.db, 'badexample.org')).toBe(false);
      expect(await isHostBlocked(t.app.db, 'example.org.evil.net')).toBe(false);
      expectInfo(await unblock(mod, 'example.org'), 'domain_unblocked');
      expect(await isHostBlocked(t.app.db, 'deep.sub.example.org')).toBe(false);
    });
  });

  describe('a blocked domain', () => {
    it('loses its follows and its accounts’ content, gets nothing queued for it, and is refused', async () => {
      await clearFollows();
      await runDueJobs(t.app);
      const from = remote.received.length;
      // Followed before the block: the Accept is queued, not yet sent.
      expect((await follow(alice.id)).statusCode).toBe(202);
      expect(await storedFollows(alice.id)).toHaveLength(1);
      expect((await call(t.app, null, { method: 'GET', url: `/api/post/${remotePost}` })).statusCode).toBe(200);

      expectInfo(await block(mod, REMOTE_HOST), 'domain_blocked');
      expect(await storedFollows(alice.id)).toEqual([]);
      expect(await suspendedAt(remoteAccount)).not.toBeNull();
      expect((await call(t.app, null, { method: 'GET', url: `/api/post/${remotePost}` })).statusCode).toBe(404);
      expect(await isRemoteActorAllowed(t.app.db, bob.id)).toBe(false);

      // The queued Accept is dropped when due, not retried.
      await runDueJobs(t.app);
      expect(remote.received.slice(from)).toEqual([]);
      const pending = await t.app.db.selectFrom('jobs').select('id').where('kind', '=', 'federation_delivery').execute();
      expect(pending).toEqual([]);

      expectError(await follow(alice.id), 403, 'remote_blocked');
      expect(await storedFollows(alice.id)).toEqual([]);
      // Nor is anything on it read, whatever names it.
      await expect(documentLoaderOf(t.app)(bob.id)).rejects.toThrow(/blocked domain/);
      expect(await deliveredAfter(async () => undefined)).toEqual([]);
    });

    it('is federated with again once unblocked: its accounts restored, its Follow accepted', async () => {
      expectInfo(await unblock(mod, REMOTE_HOST), 'domain_unblocked');
      expect(await suspendedAt(remoteAccount)).toBeNull();
      expect((await call(t.app, null, { method: 'GET', url: `/api/post/${remotePost}` })).statusCode).toBe(200);
      expect((await documentLoaderOf(t.app)(bob.id)).documentUrl).toBe(bob.id);
      const delivered = await deliveredAfter(async () => {
        expect((await follow(alice.id)).statusCode).toBe(202);
      });
      expect(delivered.map((a) => a.type)).toEqual(['Accept']);
      expect(await storedFollows(alice.id)).toHaveLength(1);
    });
  });

  describe('a suspended remote account', () => {
    it('is suspended by the moderators as any account, and its activities are refused', async () => {
      await clearFollows();
      expectInfo(await call(t.app, mod, { method: 'PUT', url: `/api/reports/suspended/${remoteAccount}` }), 'user_suspended');
      expect(await isRemoteActorAllowed(t.app.db, bob.id)).toBe(false);
      const delivered = await deliveredAfter(async () => {
        expectError(await follow(alice.id), 403, 'remote_blocked');
      });
      expect(delivered).toEqual([]);
      expect(await storedFollows(alice.id)).toEqual([]);
    });

    it('stays suspended when a block of its domain comes and goes', async () => {
      const before = await suspendedAt(remoteAccount);
      expectInfo(await block(mod, REMOTE_HOST), 'domain_blocked');
      expectInfo(await unblock(mod, REMOTE_HOST), 'domain_unblocked');
      expect(await suspendedAt(remoteAccount)).toBe(before);
      expectInfo(await call(t.app, mod, { method: 'DELETE', url: `/api/reports/suspended/${remoteAccount}` }), 'user_unsuspended');
      expect(await isRemoteActorAllowed(t.app.db, bob.id)).toBe(true);
    });
  });

  describe('a local user’s block of a remote account', () => {
    it('goes through the block endpoints, ends its follow, and the blocked account’s Follow is not accepted', async () => {
      await clearFollows();
      const carol = await createUser(t.app, { username: 'carol' });
      expect((await follow(carol.id)).statusCode).toBe(202);
      expect(await storedFollows(carol.id)).toHaveLength(1);
      expectInfo(await call(t.app, carol, { method: 'PUT', url: `/api/block/${remoteAccount}` }), 'user_blocked');
      // The block ends the remote account's follow, as it ends a local one.
      expect(await storedFollows(carol.id)).toEqual([]);
      const state = await call(t.app, carol, { method: 'GET', url: `/api/block/${remoteAccount}` });
      expect(state.json()).toEqual({ blocking: true, blockedBy: false, muting: false });
      const ignored = await deliveredAfter(async () => {
        expect((await follow(carol.id)).statusCode).toBe(202);
      });
      expect(ignored).toEqual([]);
      expect(await storedFollows(carol.id)).toEqual([]);

      // Someone who did not block it is followed as ever.
      const accepted = await deliveredAfter(async () => {
        expect((await follow(alice.id)).statusCode).toBe(202);
      });
      expect(accepted.map((a) => a.type)).toEqual(['Accept']);

      expectInfo(await call(t.app, carol, { method: 'DELETE', url: `/api/block/${remoteAccount}` }), 'user_unblocked');
      expect((await follow(carol.id)).statusCode).toBe(202);
      expect(await storedFollows(carol.id)).toHaveLength(1);
    });
  });

  describe('inbox requests', () => {
    it('refuses a body over the inbox limit, and takes one over the API’s', async () => {
      const huge = { ...followOf(alice.id), summary: 'x'.repeat(300 * 1024) };
      expectError(await deliverToInbox(t.app, '/ap/inbox', huge, bob), 413, 'request_too_large');
      const large = { ...followOf(alice.id), summary: 'x'.repeat(100 * 1024) };
      expect((await deliverToInbox(t.app, '/ap/inbox', large, bob)).statusCode).toBe(202);
    });
  });
});

describe('inbox rate limits', () => {
  const t = useTestApp({ ...FEDERATED, RATE_INBOX_POSTS_PER_HOST_PER_HOUR: '2', RATE_INBOX_POSTS_PER_ADDRESS_PER_HOUR: '3' });
  let remote: FakeFediverse;
  let bob: FakeActor;
  let alice: TestUser;

  beforeAll(async () => {
    remote = await startFakeFediverse();
    bob = await remote.actor('bob');
    alice = await createUser(t.app, { username: 'alice' });
  });
  afterAll(async () => {
    await remote.close();
  });

  const followFrom = (actorId: string) => ({ id: `${actorId}/follows/${randomUUID()}`, type: 'Follow', actor: actorId, object: actor(alice.id) });

  it('counts a remote server’s posts to the inboxes, answering 429 with when to come back', async () => {
    for (let i = 0; i < 2; i++) expect((await deliverToInbox(t.app, '/ap/inbox', followFrom(bob.id), bob)).statusCode).toBe(202);
    const refused = await deliverToInbox(t.app, '/ap/inbox', followFrom(bob.id), bob);
    expectError(refused, 429, 'inbox_limit');
    const retryAfter = Number(refused.headers['retry-after']);
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 3600).toBe(true);
    const counted = await t.app.db.selectFrom('rate_events').select('key').where('key', '=', `inbox:host:${REMOTE_HOST}`).execute();
    expect(counted).toHaveLength(2);
  });

  it('counts each network address, whatever servers it speaks for', async () => {
    const from = { remoteAddress: '10.9.8.7' };
    // Unsigned, so Fedify refuses each after the count; the address is what runs out.
    for (let i = 0; i < 3; i++) {
      expect((await deliverToInbox(t.app, '/ap/inbox', followFrom(`https://h${i}.example/actor`), null, from)).statusCode).toBe(401);
    }
    expectError(await deliverToInbox(t.app, '/ap/inbox', followFrom('https://h9.example/actor'), null, from), 429, 'inbox_limit');
    // Another address is not held back by it.
    expect((await deliverToInbox(t.app, '/ap/inbox', followFrom('https://h9.example/actor'), null, { remoteAddress: '10.9.8.6' })).statusCode).toBe(401);
  });
});
