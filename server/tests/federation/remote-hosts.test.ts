import { beforeAll, describe, expect, it } from 'vitest';
import * as normalizedHosts from '../../src/db/migrations/20261129_10_remote_hosts_normalized';
import { isRemoteActorAllowed } from '../../src/modules/federation/boundaries';
import { hostOf, normalizeHost } from '../../src/lib/hosts';
import { addRemoteFollow, saveRemoteActor } from '../../src/modules/federation/federation.repository';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { runAdminCommand } from '../../src/modules/reports/admin';
import { newId } from '../../src/lib/ids';
import { expectInfo } from '../helpers/expect';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * A host is one host however an address spells it: in any case, with or without the final dot of
 * a fully qualified name, an international name in Unicode or in its ASCII form. Remote actors are
 * stored, and domain blocks match them, in one spelling, so no spelling slips past a block.
 */

const ORIGIN = 'https://kruh.example';

describe('remote hosts as stored and blocked', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let mod: TestUser;
  let alice: TestUser;

  beforeAll(async () => {
    mod = await createUser(t.app, { username: 'mod' });
    alice = await createUser(t.app, { username: 'alice' });
    await runAdminCommand(t.app.db, { grant: mod.username });
  });

  const block = (domain: string) => call(t.app, mod, { method: 'POST', url: '/api/moderation/domain-blocks', payload: { domain } });
  const unblock = (domain: string) => call(t.app, mod, { method: 'DELETE', url: `/api/moderation/domain-blocks/${encodeURIComponent(domain)}` });
  const suspended = async (id: string) => (await t.app.db.selectFrom('users').select('suspended_at').where('id', '=', id).executeTakeFirstOrThrow()).suspended_at !== null;
  const explore = async () => ((await call(t.app, alice, { method: 'GET', url: '/api/feed?limit=50' })).json() as { posts: Array<{ _id: string }> }).posts.map((p) => p._id);
  const followersOf = async (localId: string) =>
    (await t.app.db.selectFrom('remote_follows').select('remote_actor_id').where('local_id', '=', localId).execute()).map((r) => r.remote_actor_id);

  /** A remote actor at `id` with an account, a post in Explore, and a follow of Alice. */
  async function actorWithPost(id: string, handle: string) {
    const account = await remoteAccountFor(t.app.db, { id, inbox: `${id}/inbox`, sharedInbox: null, handle, url: null, bio: '' }, Date.now());
    await addRemoteFollow(t.app.db, id, alice.id, Date.now());
    const post = await createPost(t.app, { id: account } as TestUser, { text: `from ${id}` });
    return { account, post: post.id };
  }

  it('spells a host one way: lower case, no final dot, an international name in ASCII, the port apart', () => {
    expect(normalizeHost('EVIL.Example.')).toBe('evil.example');
    expect(normalizeHost('bücher.example')).toBe('xn--bcher-kva.example');
    expect(normalizeHost('XN--BCHER-KVA.example.')).toBe('xn--bcher-kva.example');
    expect(hostOf('https://Evil.Example.:8443/users/x')).toBe('evil.example');
    expect(hostOf('https://bücher.example/users/x')).toBe('xn--bcher-kva.example');
    expect(hostOf('not an address')).toBeNull();
  });

  it('stores an actor whose address ends in a dot under its host without it, in its name and handle too', async () => {
    const { account } = await actorWithPost('https://Stored.Example.:8443/users/Zed', '@Zed@stored.example.:8443');
    const user = await t.app.db.selectFrom('users').select(['username', 'username_lower']).where('id', '=', account).executeTakeFirstOrThrow();
    expect(user).toEqual({ username: 'Zed@stored.example:8443', username_lower: 'zed@stored.example:8443' });
    const actor = await t.app.db.selectFrom('remote_actors').select(['domain', 'handle']).where('user_id', '=', account).executeTakeFirstOrThrow();
    expect(actor).toEqual({ domain: 'stored.example', handle: '@Zed@stored.example:8443' });
    // A follower known without an account, too.
    await saveRemoteActor(t.app.db, { id: 'https://Stored.Example./users/fan', inbox: 'https://stored.example./users/fan/inbox', shared_inbox: null, handle: '@fan@stored.example.' }, Date.now());
    const fan = await t.app.db.selectFrom('remote_actors').select(['domain', 'handle']).where('id', '=', 'https://Stored.Example./users/fan').executeTakeFirstOrThrow();
    expect(fan).toEqual({ domain: 'stored.example', handle: '@fan@stored.example' });
  });

  it('a block of evil.example covers an actor on evil.example.: refused, suspended, out of Explore and the followers', async () => {
    const id = 'https://evil.example./users/x';
    const { account, post } = await actorWithPost(id, '@x@evil.example.');
    expect(await explore()).toContain(post);
    expect(await followersOf(alice.id)).toContain(id);

    expectInfo(await block('evil.example'), 'domain_blocked');
    expect(await isRemoteActorAllowed(t.app.db, id)).toBe(false);
    expect(await suspended(account)).toBe(true);
    expect(await explore()).not.toContain(post);
    expect(await followersOf(alice.id)).not.toContain(id);

    expectInfo(await unblock('evil.example'), 'domain_unblocked');
    expect(await suspended(account)).toBe(false);
    expect(await explore()).toContain(post);
  });

  it('stores a block of EVIL.example. as evil.example, and it covers the actors there', async () => {
    const id = 'https://EVIL.example/users/y';
    const { account } = await actorWithPost(id, '@y@EVIL.example');
    expectInfo(await block('EVIL.example.'), 'domain_blocked');
    const stored = await t.app.db.selectFrom('federation_domain_blocks').select('domain').execute();
    expect(stored.map((row) => row.domain)).toEqual(['evil.example']);
    expect(await suspended(account)).toBe(true);
    expectInfo(await unblock('evil.example'), 'domain_unblocked');
    expect(await suspended(account)).toBe(false);
  });

  it('matches a block of an international name to its ASCII spelling, and the other way round', async () => {
    const ascii = await actorWithPost('https://xn--bcher-kva.example/users/a', '@a@xn--bcher-kva.example');
    const unicode = await actorWithPost('https://bücher.example./users/u', '@u@bücher.example.');
    const name = await t.app.db.selectFrom('users').select('username').where('id', '=', unicode.account).executeTakeFirstOrThrow();
    expect(name.username).toBe('u@xn--bcher-kva.example');
    expectInfo(await block('bücher.example'), 'domain_blocked');
    expect(await suspended(ascii.account)).toBe(true);
    expect(await suspended(unicode.account)).toBe(true);
    expect(await isRemoteActorAllowed(t.app.db, 'https://BÜCHER.example./users/new')).toBe(false);
    expectInfo(await unblock('xn--bcher-kva.example'), 'domain_unblocked');
    expect(await suspended(ascii.account)).toBe(false);
    expect(await suspended(unicode.account)).toBe(false);
  });

  it('covers the subdomains of a blocked domain, however they are spelled', async () => {
    const deep = await actorWithPost('https://Deep.Sub.evil.example./users/d', '@d@Deep.Sub.evil.example.');
    const beside = await actorWithPost('https://notevil.example/users/n', '@n@notevil.example');
    expectInfo(await block('evil.example'), 'domain_blocked');
    expect(await suspended(deep.account)).toBe(true);
    expect(await suspended(beside.account)).toBe(false);
    expect(await isRemoteActorAllowed(t.app.db, 'https://other.deep.sub.EVIL.example./users/z')).toBe(false);
    expectInfo(await unblock('evil.example'), 'domain_unblocked');
    expect(await suspended(deep.account)).toBe(false);
  });

  it('a migration spells the hosts stored before in the one way; a name another account holds stays as it was', async () => {
    const db = t.app.db;
    const now = Date.now();
    /** An account and its actor as they were stored before hosts were normalised. */
    async function stored(id: string, name: string, host: string) {
      const userId = newId();
      const username = `${name}@${host}`;
      await db
        .insertInto('users')
        .values({ id: userId, username, username_lower: username.toLowerCase(), username_skeleton: null, email: null, password_hash: null, google_sub: null, search_text: username.toLowerCase(), created_at: now })
        .execute();
      await db
        .insertInto('remote_actors')
        .values({ id, inbox: `${id}/inbox`, shared_inbox: null, handle: `@${username}`, url: null, domain: new URL(id).hostname, user_id: userId, fetched_at: now })
        .execute();
      return userId;
    }
    const dotted = await stored('https://old.example./users/p', 'p', 'old.example.');
    const twin = await stored('https://twin.example/users/q', 'q', 'twin.example');
    const twinDotted = await stored('https://twin.example./users/q', 'q', 'twin.example.');
    await db.insertInto('federation_domain_blocks').values({ domain: 'blocked.example.', created_at: now, created_by: null }).execute();
    await db.insertInto('federation_domain_blocks').values({ domain: 'twice.example.', created_at: now, created_by: null }).execute();
    await db.insertInto('federation_domain_blocks').values({ domain: 'twice.example', created_at: now, created_by: null }).execute();

    await normalizedHosts.up(db);

    const users = await db.selectFrom('users').select(['id', 'username', 'username_lower']).where('id', 'in', [dotted, twin, twinDotted]).execute();
    expect(new Map(users.map((u) => [u.id, [u.username, u.username_lower]]))).toEqual(
      new Map([
        [dotted, ['p@old.example', 'p@old.example']],
        [twin, ['q@twin.example', 'q@twin.example']],
        [twinDotted, ['q@twin.example.', 'q@twin.example.']],
      ]),
    );
    const actors = await db.selectFrom('remote_actors').select(['id', 'domain', 'handle']).where('user_id', 'in', [dotted, twinDotted]).orderBy('id').execute();
    expect(actors).toEqual([
      { id: 'https://old.example./users/p', domain: 'old.example', handle: '@p@old.example' },
      { id: 'https://twin.example./users/q', domain: 'twin.example', handle: '@q@twin.example.' },
    ]);
    const blocks = await db.selectFrom('federation_domain_blocks').select('domain').where('domain', 'like', '%.example%').orderBy('domain').execute();
    expect(blocks.map((row) => row.domain)).toEqual(['blocked.example', 'twice.example']);
  });
});
