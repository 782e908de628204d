import { describe, expect, it } from 'vitest';
import { call, createGroupWith, createPost, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { newTransaction } from '../../src/db/helpers';
import { TEST_DB, useTestApp } from '../helpers/test-app';
import { expectError, groupState } from './helpers';

/**
 * A private group's posts stay private whatever happens to the group's row. Two ways it could go
 * were races: the owner handing the group to a member (or deleting their account, which hands it
 * over) while that member deletes their own account. The member's deletion must see the group it
 * is about to own and pass it on or delete it with its posts; a group row must never vanish while
 * posts still carry its tag, since an untagged post is public. No interleaving answers 5xx. The
 * races matter on PostgreSQL (many connections); on SQLite the same checks run on serialised writers.
 */

const t = useTestApp();

const ROUNDS = 6;

interface Scene {
  owner: TestUser;
  member: TestUser;
  group: { id: string; name: string };
  secret: string;
  postIds: string[];
}

/** A private group of two, each of them with a post in it, words only a search for `secret` finds. */
async function privateScene(round: number): Promise<Scene> {
  const { owner, group, members: [member] } = await createGroupWith(t.app, ['member'], { isPrivate: true });
  const secret = `zqrace${round}x${Date.now()}`;
  const mine = await createPost(t.app, owner, { text: `${secret} by the owner`, groupIds: [group.id] });
  const theirs = await createPost(t.app, member, { text: `${secret} by the member`, groupIds: [group.id] });
  return { owner, member, group, secret, postIds: [mine.id, theirs.id] };
}

/** What a visitor or a signed-in outsider can read of the scene's posts; empty when nothing. */
async function leaksOf(scene: Scene, outsider: TestUser): Promise<string[]> {
  const leaks: string[] = [];
  for (const viewer of [null, outsider]) {
    const who = viewer ? 'outsider' : 'visitor';
    for (const id of scene.postIds) {
      const res = await call(t.app, viewer, { method: 'GET', url: `/api/post/${id}` });
      if (res.statusCode !== 404) leaks.push(`${who}: GET /post/${id} answered ${res.statusCode} ${res.body}`);
    }
    for (const url of ['/api/feed', '/api/feed?sort=popular&time=all', `/api/search/for/posts?query=${scene.secret}&time=all`]) {
      const res = await call(t.app, viewer, { method: 'GET', url });
      for (const word of [scene.secret, ...scene.postIds]) if (res.body.includes(word)) leaks.push(`${who}: ${url} shows ${word}`);
    }
  }
  return leaks;
}

function expectNo5xx(results: Array<{ statusCode: number; body: string }>): void {
  expect(results.filter((res) => res.statusCode >= 500).map((res) => `${res.statusCode} ${res.body}`)).toEqual([]);
}

describe('a private group whose owner changes while a member leaves the site', () => {
  it('owner hands the group over while the member deletes their account: nothing becomes public, no 5xx', async () => {
    const outsider = await createUser(t.app);
    for (let round = 0; round < ROUNDS; round++) {
      const scene = await privateScene(round);
      const results = await Promise.all([
        call(t.app, scene.owner, { method: 'PATCH', url: `/api/group/${scene.group.name}/owner/${scene.member.id}` }),
        deleteOwnAccount(t.app, scene.member),
      ]);
      expectNo5xx(results);
      expect(await leaksOf(scene, outsider)).toEqual([]);
      expect(results[1].statusCode).toBe(200);
      // Whichever ran first, the group is still there and back with its first owner, who is in it.
      const state = await groupState(t.app, scene.group.id);
      expect(state.group?.owner_id).toBe(scene.owner.id);
      expect(state.members.map((m) => [m.user_id, m.role])).toEqual([[scene.owner.id, 'owner']]);
    }
  });

  it('owner and member delete their accounts at once: the group goes with its posts, no 5xx', async () => {
    const outsider = await createUser(t.app);
    for (let round = 0; round < ROUNDS; round++) {
      const scene = await privateScene(round);
      const results = await Promise.all([
        deleteOwnAccount(t.app, scene.owner),
        deleteOwnAccount(t.app, scene.member),
      ]);
      expectNo5xx(results);
      expect(await leaksOf(scene, outsider)).toEqual([]);
      expect(results.map((res) => res.statusCode)).toEqual([200, 200]);
      expect((await groupState(t.app, scene.group.id)).group).toBeUndefined();
      const left = await t.app.db.selectFrom('posts').select('id').where('id', 'in', scene.postIds).execute();
      expect(left).toEqual([]);
    }
  });
});

describe('a private group going away never publishes its posts', () => {
  it('the owner deleting the group deletes its posts', async () => {
    const outsider = await createUser(t.app);
    const scene = await privateScene(0);
    const res = await call(t.app, scene.owner, { method: 'DELETE', url: `/api/group/${scene.group.id}` });
    expect(res.statusCode).toBe(200);
    expect(await t.app.db.selectFrom('posts').select('id').where('id', 'in', scene.postIds).execute()).toEqual([]);
    expect(await leaksOf(scene, outsider)).toEqual([]);
  });

  it('the last one out (the owner deleting their account after the member did) takes the posts along', async () => {
    const outsider = await createUser(t.app);
    const scene = await privateScene(0);
    expect((await deleteOwnAccount(t.app, scene.member)).statusCode).toBe(200);
    expect((await deleteOwnAccount(t.app, scene.owner)).statusCode).toBe(200);
    expect((await groupState(t.app, scene.group.id)).group).toBeUndefined();
    expect(await t.app.db.selectFrom('posts').select('id').where('id', 'in', scene.postIds).execute()).toEqual([]);
    expect(await leaksOf(scene, outsider)).toEqual([]);
  });

  it('the database refuses to drop a group row its posts still carry, even by cascade from its owner', async () => {
    const outsider = await createUser(t.app);
    const scene = await privateScene(0);
    // Past the services, as a forgotten hand-over would: the owner's row cascading to the group's.
    await expect(t.app.db.deleteFrom('users').where('id', '=', scene.owner.id).execute()).rejects.toThrow();
    await expect(t.app.db.deleteFrom('groups').where('id', '=', scene.group.id).execute()).rejects.toThrow();
    expect((await groupState(t.app, scene.group.id)).tags).toHaveLength(2);
    expect(await leaksOf(scene, outsider)).toEqual([]);
  });

  it('the member losing the race to a hand-over is told they are no member', async () => {
    const scene = await privateScene(0);
    expect((await deleteOwnAccount(t.app, scene.member)).statusCode).toBe(200);
    const res = await call(t.app, scene.owner, { method: 'PATCH', url: `/api/group/${scene.group.name}/owner/${scene.member.id}` });
    expectError(res, 404, 'didnt_find_user');
  });
});

describe('a deadlock is retried, never answered as an error', () => {
  it.skipIf(TEST_DB !== 'postgres')('two transactions locking two rows in opposite orders both commit', async () => {
    const [a, b] = await Promise.all([createUser(t.app), createUser(t.app)]);
    let attempts = 0;
    let firstLocks = 0;
    let release!: () => void;
    const bothHoldOne = new Promise<void>((resolve) => (release = resolve));
    const lockBoth = (first: string, second: string) =>
      newTransaction(t.app.db, async (trx) => {
        attempts++;
        const lock = (id: string) => trx.selectFrom('users').select('id').where('id', '=', id).forUpdate().execute();
        await lock(first);
        // The first attempts wait for each other, so each holds the row the other wants next.
        if (++firstLocks === 2) release();
        if (firstLocks <= 2) await bothHoldOne;
        await lock(second);
        await trx.updateTable('users').set({ bio: `locked ${first}` }).where('id', '=', second).execute();
      });
    await Promise.all([lockBoth(a.id, b.id), lockBoth(b.id, a.id)]);
    expect(attempts).toBe(3);
    const bios = await t.app.db.selectFrom('users').select('bio').where('id', 'in', [a.id, b.id]).execute();
    expect(bios.map((row) => row.bio).sort()).toEqual([`locked ${a.id}`, `locked ${b.id}`].sort());
  });
});
