import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import * as accountCounts from '../../src/db/migrations/20261201_19_account_counts';
import * as accountLastStatus from '../../src/db/migrations/20261201_22_account_last_status';
import { untagPostFromGroup } from '../../src/modules/posts/posts.repository';
import { remoteFollowEnded, remoteFollowStarted, remoteFollowsEnded } from '../../src/modules/follows/follows.service';
import { addMember, call, createFollow, createGroup, createPost, createUser, deleteOwnAccount, type TestUser } from '../helpers/fixtures';
import { ok } from '../helpers/steps';
import { useTestApp } from '../helpers/test-app';
import { appGet } from '../clientapi/client-calls';
import { appToken } from '../clientapi/oauth-helpers';

interface Counts {
  followers: number;
  following: number;
  statuses: number;
  lastStatusAt: number | null;
}

/**
 * Each account's followers, follows and posts, and when it last posted, are stored and kept by the
 * writes that change them. Whatever happens, they equal a count made from the rows: every follow,
 * and the author's posts in no private group (what anyone may count), so a private group's
 * activity shows in no count and in no time of a last post.
 */
describe('stored account counts', () => {
  const t = useTestApp();

  /** Every account's counts as the rows have them now. */
  async function freshCounts(): Promise<Map<string, Counts>> {
    const { rows } = await sql<{ id: string; followers: number; following: number; statuses: number; last_status_at: number | null }>`
      select u.id,
        (select count(*) from follows f where f.following_id = u.id) as followers,
        (select count(*) from follows f where f.follower_id = u.id) as following,
        (select count(*) from posts p where p.author_id = u.id and not exists (
          select 1 from post_groups pg join groups g on g.id = pg.group_id where pg.post_id = p.id and g.is_private = 1)) as statuses,
        (select max(p.created_at) from posts p where p.author_id = u.id and not exists (
          select 1 from post_groups pg join groups g on g.id = pg.group_id where pg.post_id = p.id and g.is_private = 1)) as last_status_at
      from users u`.execute(t.app.db);
    return new Map(rows.map((r) => [r.id, { followers: Number(r.followers), following: Number(r.following), statuses: Number(r.statuses), lastStatusAt: r.last_status_at === null ? null : Number(r.last_status_at) }]));
  }

  /** Every account's stored counts, an account without a row counting nothing. */
  async function storedCounts(): Promise<Map<string, Counts>> {
    const rows = await t.app.db
      .selectFrom('users')
      .leftJoin('account_counts', 'account_counts.user_id', 'users.id')
      .select(['users.id', 'account_counts.followers', 'account_counts.following', 'account_counts.statuses', 'account_counts.last_status_at'])
      .execute();
    return new Map(
      rows.map((r) => [
        r.id,
        { followers: Number(r.followers ?? 0), following: Number(r.following ?? 0), statuses: Number(r.statuses ?? 0), lastStatusAt: r.last_status_at == null ? null : Number(r.last_status_at) },
      ]),
    );
  }

  const expectInStep = async () => expect(await storedCounts()).toEqual(await freshCounts());
  const countsOf = async (user: TestUser) => (await storedCounts()).get(user.id);

  const follow = async (by: TestUser, whom: TestUser) => ok(await call(t.app, by, { method: 'POST', url: '/api/follow', payload: { following: whom.id } }), 'follow');
  const unfollow = async (by: TestUser, whom: TestUser) => ok(await call(t.app, by, { method: 'DELETE', url: '/api/follow/delete', payload: { following: whom.id } }), 'unfollow');
  const post = async (by: TestUser, groups: string[] = []): Promise<string> =>
    (ok(await call(t.app, by, { method: 'POST', url: '/api/post', payload: { text: 'counted words', groups } }), 'post').json() as { _id: string })._id;
  const setPrivate = async (owner: TestUser, group: { id: string; name: string }, isPrivate: boolean) =>
    ok(await call(t.app, owner, { method: 'PATCH', url: `/api/group/${group.id}/update`, payload: { name: group.name, isPrivate } }), 'privacy');

  it('equal a count from the rows after follows, blocks, posts, deletions, group moves and an account deletion', async () => {
    const [ana, ben, cyd, dee, eve] = [await createUser(t.app), await createUser(t.app), await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    const open = await createGroup(t.app, ana);
    const closed = await createGroup(t.app, ana, { isPrivate: true });
    for (const user of [ben, cyd]) {
      await addMember(t.app, open.id, user);
      await addMember(t.app, closed.id, user);
    }

    for (const [by, whom] of [[ben, ana], [cyd, ana], [dee, ana], [ana, ben], [cyd, ben], [eve, cyd]] as const) await follow(by, whom);
    await unfollow(dee, ana);
    expect(await countsOf(ana)).toMatchObject({ followers: 2, following: 1 });
    // A block ends the follows both ways.
    ok(await call(t.app, ben, { method: 'PUT', url: `/api/block/${ana.id}` }), 'block');
    expect(await countsOf(ana)).toMatchObject({ followers: 1, following: 0 });
    await expectInStep();

    // A follow from another server's account starts, ends, and ends with its domain.
    await remoteFollowStarted({ app: t.app, db: t.app.db }, dee.id, cyd.id, Date.now());
    await remoteFollowStarted({ app: t.app, db: t.app.db }, eve.id, ana.id, Date.now());
    await remoteFollowEnded(t.app.db, dee.id, cyd.id);
    await remoteFollowStarted({ app: t.app, db: t.app.db }, dee.id, ben.id, Date.now());
    await remoteFollowsEnded(t.app.db, [eve.id, dee.id]);
    await expectInStep();

    const plain = await post(ana);
    await post(ana, [open.id]);
    const secret = await post(ana, [closed.id]);
    const both = await post(cyd, [open.id, closed.id]);
    const cydOpen = await post(cyd, [open.id]);
    await post(ben);
    expect(await countsOf(ana)).toMatchObject({ statuses: 2 });
    expect(await countsOf(cyd)).toMatchObject({ statuses: 1 });
    await expectInStep();

    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/post/${plain}` }), 'delete');
    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/post/${secret}` }), 'delete secret');
    expect(await countsOf(ana)).toMatchObject({ statuses: 1 });
    await expectInStep();

    // The newest post goes: the last post is the one before it again.
    const newest = await post(ana);
    expect((await countsOf(ana))?.lastStatusAt).toBe((await freshCounts()).get(ana.id)?.lastStatusAt);
    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/post/${newest}` }), 'delete newest');
    await expectInStep();

    // Untagged from the private group (its deletion would follow), a post counts and dates the last post meanwhile.
    const hidden = await post(ben, [closed.id]);
    expect(await untagPostFromGroup(t.app.db, closed.id, hidden)).toBe(true);
    await expectInStep();

    // The open group turns private and back: its posts stop counting and count again.
    await setPrivate(ana, open, true);
    expect(await countsOf(ana)).toMatchObject({ statuses: 0 });
    expect(await countsOf(cyd)).toMatchObject({ statuses: 0 });
    await expectInStep();
    await setPrivate(ana, open, false);
    expect(await countsOf(cyd)).toMatchObject({ statuses: 1 });
    await expectInStep();

    // Removed from the private group, a post is deleted (it never counted); from the open one, it stays.
    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/group/${closed.id}/p/${both}` }), 'remove from private');
    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/group/${open.id}/p/${cydOpen}` }), 'remove from open');
    expect(await countsOf(cyd)).toMatchObject({ statuses: 1 });
    await expectInStep();

    // A private post in a public group that leaves the private group when it is deleted.
    const inBoth = await post(cyd, [open.id, closed.id]);
    ok(await call(t.app, ana, { method: 'DELETE', url: `/api/group/${closed.id}` }), 'delete private group');
    expect(await t.app.db.selectFrom('posts').select('id').where('id', '=', inBoth).executeTakeFirst()).toBeUndefined();
    await expectInStep();

    // An account goes: its followers follow one fewer, and those it followed lose a follower.
    await follow(ana, cyd);
    await follow(cyd, eve);
    await follow(ben, cyd);
    const before = await storedCounts();
    ok(await deleteOwnAccount(t.app, cyd), 'delete account');
    expect((await countsOf(ana))?.following).toBe(before.get(ana.id)!.following - 1);
    expect((await countsOf(eve))?.followers).toBe(before.get(eve.id)!.followers - 1);
    await expectInStep();
  });

  it('the client API reads them: the same for every reader, a private group counting for nobody, nor dating the last post', async () => {
    const [author, member, reader] = [await createUser(t.app), await createUser(t.app), await createUser(t.app)];
    const closed = await createGroup(t.app, author, { isPrivate: true });
    await addMember(t.app, closed.id, member);
    await createFollow(t.app, reader, author);
    const day = 86_400_000;
    await createPost(t.app, author, { createdAt: Date.now() - 3 * day });
    // Written later, in the private group: no reader, its members neither, learns of it by the account.
    await createPost(t.app, author, { groupIds: [closed.id] });
    const shown = new Date(Date.now() - 3 * day).toISOString().slice(0, 10);
    for (const token of [undefined, await appToken(t.app, member), await appToken(t.app, reader), await appToken(t.app, author)]) {
      const { status, body } = await appGet(t.app, `/api/v1/accounts/${author.id}`, token);
      expect({ status, ...body }).toMatchObject({ status: 200, followers_count: 1, following_count: 0, statuses_count: 1, last_status_at: shown });
    }
  });

  it('are filled by their migration from the rows as they stand', async () => {
    const [ana, ben] = [await createUser(t.app), await createUser(t.app)];
    const closed = await createGroup(t.app, ana, { isPrivate: true });
    await createFollow(t.app, ana, ben);
    await createFollow(t.app, ben, ana);
    await createPost(t.app, ana);
    await createPost(t.app, ana, { groupIds: [closed.id] });
    await createPost(t.app, ben);
    await accountCounts.down(t.app.db);
    await accountCounts.up(t.app.db);
    await accountLastStatus.up(t.app.db);
    const stored = await storedCounts();
    expect(stored.get(ana.id)).toMatchObject({ followers: 1, following: 1, statuses: 1, lastStatusAt: expect.any(Number) });
    expect(stored.get(ben.id)).toMatchObject({ followers: 1, following: 1, statuses: 1, lastStatusAt: expect.any(Number) });
    expect(stored).toEqual(await freshCounts());
    // Every account has its row: none is left to count from nothing.
    const rows = await t.app.db.selectFrom('account_counts').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(stored.size);
  });
});
