import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, call, createFollow, createGroup, createUser, type TestUser } from '../helpers/fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('profiles', () => {
  let t: TestApp;
  let owner: TestUser;
  let fan: TestUser;
  let stranger: TestUser;
  const created = Date.UTC(2025, 2, 14);

  beforeAll(async () => {
    t = await createTestApp();
    owner = await createUser(t.app, { username: 'Marta_K', createdAt: created });
    fan = await createUser(t.app);
    stranger = await createUser(t.app);
    // owner: 2 followers (fan with notifications, stranger), follows 1 (fan), member of 2 groups.
    await createFollow(t.app, fan, owner, { notify: true });
    await createFollow(t.app, stranger, owner);
    await createFollow(t.app, owner, fan);
    await createGroup(t.app, owner);
    const other = await createGroup(t.app, fan, { isPrivate: true });
    await addMember(t.app, other.id, owner);
  });
  afterAll(async () => t.close());

  const profile = (user: TestUser | null, name: string) => call(t.app, user, { method: 'GET', url: `/api/profile/user/${encodeURIComponent(name)}` });

  describe('GET /profile/user/{username}', () => {
    it('shows a visitor the public fields and the counts', async () => {
      const res = await profile(null, 'Marta_K');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        user: {
          _id: owner.id,
          username: 'Marta_K',
          bio: '',
          pfp: owner.id,
          pfpUrl: `/media/pfp/${owner.id}.jpeg`,
          createdAt: created,
          followers: 2,
          following: 1,
          groups: 2,
          itsme: false,
          logged: false,
          follows: false,
          notify: false,
          logFollows: false,
          isGoogle: false,
        },
      });
    });

    it('finds the user whatever the case of the name', async () => {
      for (const name of ['marta_k', 'MARTA_K', 'mArTa_K']) {
        const res = await profile(null, name);
        expect(res.statusCode).toBe(200);
        expect(res.json().user._id).toBe(owner.id);
      }
    });

    it('shows the owner itsme and the email', async () => {
      const { user } = (await profile(owner, 'marta_k')).json();
      expect(user).toMatchObject({ itsme: true, logged: true, follows: false, notify: false, logFollows: false, email: owner.email });
    });

    it('shows a follower with notifications follows, notify and that they are followed back', async () => {
      const { user } = (await profile(fan, 'Marta_K')).json();
      expect(user).toMatchObject({ itsme: false, logged: true, follows: true, notify: true, logFollows: true });
      expect(user).not.toHaveProperty('email');
    });

    it('shows a silent follower follows without notify', async () => {
      const { user } = (await profile(stranger, 'Marta_K')).json();
      expect(user).toMatchObject({ logged: true, follows: true, notify: false, logFollows: false });
      expect(user).not.toHaveProperty('email');
    });

    it('shows logFollows to someone the user follows but who does not follow back', async () => {
      const back = await createUser(t.app);
      const followed = await createUser(t.app);
      await createFollow(t.app, followed, back);
      const { user } = (await profile(back, followed.username)).json();
      expect(user).toMatchObject({ follows: false, notify: false, logFollows: true, followers: 0, following: 1, groups: 0 });
    });

    it('marks Google accounts', async () => {
      const google = await createUser(t.app, { googleSub: 'google-sub-1' });
      expect((await profile(null, google.username)).json().user.isGoogle).toBe(true);
    });

    it('answers 404 user_not_found for an unknown name, the deleted marker included', async () => {
      for (const name of ['nobody_here', '<deleted>']) {
        const res = await profile(null, name);
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'error/user_not_found' });
      }
    });

    it('answers 401 invalid_token for a bad token', async () => {
      const res = await call(t.app, null, { method: 'GET', url: '/api/profile/user/Marta_K', headers: { authorization: 'Bearer nope' } });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'error/invalid_token' });
    });
  });

  describe('name lookups', () => {
    it('answers a user name by id', async () => {
      const res = await call(t.app, null, { method: 'GET', url: `/api/profile/${owner.id}/username` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: 'Marta_K' });
    });

    it('answers 404 user_not_found for an unknown id and 400 invalid_id for a malformed one', async () => {
      const missing = await call(t.app, null, { method: 'GET', url: `/api/profile/${'d'.repeat(24)}/username` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'error/user_not_found' });
      const bad = await call(t.app, null, { method: 'GET', url: '/api/profile/xyz/username' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'error/invalid_id' });
    });

    it('answers a group name by id', async () => {
      const group = await createGroup(t.app, stranger, { isPrivate: true });
      const res = await call(t.app, null, { method: 'GET', url: `/api/group/${group.id}/name` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ name: group.name });
      const missing = await call(t.app, null, { method: 'GET', url: `/api/group/${'e'.repeat(24)}/name` });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toEqual({ message: 'error/didnt_find_group' });
      const bad = await call(t.app, null, { method: 'GET', url: '/api/group/xyz/name' });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ message: 'error/invalid_group_id' });
    });
  });

  describe('followers and following lists', () => {
    let star: TestUser;
    let followers: TestUser[];
    let viewer: TestUser;
    beforeAll(async () => {
      star = await createUser(t.app);
      viewer = await createUser(t.app);
      const names = ['Žlutý_kůň', 'zlutava', 'Příliš', 'prilis_2', 'karel', 'ZLUTY_pes', 'anna'];
      followers = [];
      for (const [i, name] of names.entries()) {
        const user = await createUser(t.app, { username: name });
        followers.push(user);
        await createFollow(t.app, user, star, { createdAt: 1_700_000_000_000 + i * 1000 });
        await createFollow(t.app, star, user, { createdAt: 1_700_000_000_000 + (names.length - i) * 1000 });
      }
      await createFollow(t.app, viewer, followers[6]!, { notify: true });
      await createFollow(t.app, viewer, followers[5]!);
    });

    const list = (user: TestUser | null, which: string, qs = '') =>
      call(t.app, user, { method: 'GET', url: `/api/profile/user/${star.username}/${which}${qs}` });

    it('lists followers newest first, 5 by default, with the caller follow state', async () => {
      const res = await list(viewer, 'followers');
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.logged).toBe(true);
      expect(body.hasMore).toBe(true);
      expect(body.userList).toHaveLength(5);
      expect(body.userList[0]).toEqual({ _id: followers[6]!.id, pfp: followers[6]!.id, pfpUrl: `/media/pfp/${followers[6]!.id}.jpeg`, username: 'anna', follows: true, notify: true });
      expect(body.userList[1]).toEqual({ _id: followers[5]!.id, pfp: followers[5]!.id, pfpUrl: `/media/pfp/${followers[5]!.id}.jpeg`, username: 'ZLUTY_pes', follows: true, notify: false });
      expect(body.userList[2]).toMatchObject({ username: 'karel', follows: false, notify: false });
      const visitor = (await list(null, 'followers')).json();
      expect(visitor.logged).toBe(false);
      expect(visitor.userList.every((u: { follows: boolean }) => !u.follows)).toBe(true);
    });

    it('pages through every follower exactly once', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 4; page++) {
        const body = (await list(null, 'followers', `?page=${page}&limit=2`)).json();
        seen.push(...body.userList.map((u: { _id: string }) => u._id));
        expect(body.hasMore).toBe(page < 4);
      }
      expect(seen).toEqual([...followers].reverse().map((u) => u.id));
    });

    it('leaves out follows made after the before time', async () => {
      const body = (await list(null, 'followers', `?before=${1_700_000_000_000 + 3000}&limit=10`)).json();
      expect(body.userList.map((u: { username: string }) => u.username)).toEqual(['prilis_2', 'Příliš', 'zlutava', 'Žlutý_kůň']);
    });

    it('lists whom the user follows, newest first', async () => {
      const body = (await list(null, 'following', '?limit=10')).json();
      expect(body.userList.map((u: { username: string }) => u.username)).toEqual(followers.map((u) => u.username));
      expect(body.hasMore).toBe(false);
    });

    it('filters by name, ignoring accents and case', async () => {
      const zluty = (await list(null, 'followers', '?query=ZLUTY')).json();
      expect(zluty.userList.map((u: { username: string }) => u.username)).toEqual(['ZLUTY_pes', 'Žlutý_kůň']);
      const prilis = (await list(null, 'following', `?query=${encodeURIComponent('příl')}`)).json();
      expect(prilis.userList.map((u: { username: string }) => u.username)).toEqual(['Příliš', 'prilis_2']);
      const short = (await list(null, 'followers', '?query=an')).json();
      expect(short.userList.map((u: { username: string }) => u.username)).toEqual(['anna']);
      const none = (await list(null, 'followers', '?query=nikdo')).json();
      expect(none).toEqual({ userList: [], logged: false, hasMore: false });
    });

    it('answers 404 user_not_found for an unknown user', async () => {
      for (const which of ['followers', 'following', 'groups']) {
        const res = await call(t.app, null, { method: 'GET', url: `/api/profile/user/nobody_here/${which}` });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({ message: 'error/user_not_found' });
      }
    });
  });

  describe('groups list', () => {
    let member: TestUser;
    let groups: { id: string; name: string }[];
    beforeAll(async () => {
      member = await createUser(t.app);
      const founder = await createUser(t.app);
      groups = [];
      const names = ['Čeští_včelaři', 'cesky_les', 'Tajná', 'Sdílená', 'Rybáři', 'Horolezci'];
      for (const [i, name] of names.entries()) {
        const group = await createGroup(t.app, founder, { name, isPrivate: i === 2 });
        await t.app.db
          .insertInto('group_members')
          .values({ group_id: group.id, user_id: member.id, role: i === 0 ? 'admin' : 'member', created_at: 1_700_000_000_000 + i * 1000 })
          .execute();
        groups.push(group);
      }
      await createGroup(t.app, founder, { name: 'Cizí' });
    });

    const list = (user: TestUser | null, qs = '') =>
      call(t.app, user, { method: 'GET', url: `/api/profile/user/${member.username}/groups${qs}` });

    it('lists the groups the user belongs to, private ones included, latest joined first', async () => {
      const body = (await list(member)).json();
      expect(body.logged).toBe(true);
      expect(body.hasMore).toBe(true);
      expect(body.groupList).toHaveLength(5);
      expect(body.groupList[0]).toEqual({ _id: groups[5]!.id, gp: groups[5]!.id, gpUrl: `/media/gp/${groups[5]!.id}.jpeg`, name: 'Horolezci' });
      expect(body.groupList.map((g: { name: string }) => g.name)).toContain('Tajná');
    });

    it('pages through every group exactly once', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await list(null, `?page=${page}&limit=2`)).json();
        expect(body.logged).toBe(false);
        expect(body.hasMore).toBe(page < 3);
        seen.push(...body.groupList.map((g: { _id: string }) => g._id));
      }
      expect(seen).toEqual([...groups].reverse().map((g) => g.id));
    });

    it('filters by name, ignoring accents and case', async () => {
      const body = (await list(null, '?query=CEs')).json();
      expect(body.groupList.map((g: { name: string }) => g.name)).toEqual(['cesky_les', 'Čeští_včelaři']);
    });
  });
});
