import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, call, createFollow, createGroup, createGroupWith, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { expectError, groupPicture, userPicture } from '../helpers/expect';

describe('profiles', () => {
  const t = useTestApp();
  let owner: TestUser;
  let fan: TestUser;
  let stranger: TestUser;
  const created = Date.UTC(2025, 2, 14);

  beforeAll(async () => {
    owner = await createUser(t.app, { username: 'Marta_K', createdAt: created });
    fan = await createUser(t.app);
    stranger = await createUser(t.app);
    // owner: 2 followers (fan with notifications, stranger), follows 1 (fan), member of 2 groups,
    // one of them private (fan's).
    await createFollow(t.app, fan, owner, { notify: true });
    await createFollow(t.app, stranger, owner);
    await createFollow(t.app, owner, fan);
    await createGroup(t.app, owner);
    const other = await createGroup(t.app, fan, { isPrivate: true });
    await addMember(t.app, other.id, owner);
  });

  const profile = (user: TestUser | null, name: string) => call(t.app, user, { method: 'GET', url: `/api/profile/user/${encodeURIComponent(name)}` });

  describe('GET /profile/user/{username}', () => {
    it('shows a visitor the public fields and the counts', async () => {
      const res = await profile(null, 'Marta_K');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        user: {
          ...userPicture(owner.id),
          username: 'Marta_K',
          bio: '',
          createdAt: created,
          followers: 2,
          following: 1,
          // The private group is counted only for its members.
          groups: 1,
          itsme: false,
          logged: false,
          follows: false,
          notify: false,
          logFollows: false,
          isGoogle: false,
          admin: false,
          owner: false,
          banned: false,
          remote: null,
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
      expect(user).toMatchObject({ itsme: true, logged: true, follows: false, notify: false, logFollows: false, email: owner.email, groups: 2 });
    });

    it('shows a follower with notifications follows, notify and that they are followed back', async () => {
      const { user } = (await profile(fan, 'Marta_K')).json();
      expect(user).toMatchObject({ itsme: false, logged: true, follows: true, notify: true, logFollows: true, groups: 2 });
      expect(user).not.toHaveProperty('email');
      // A stranger is no member of the private group.
      expect((await profile(stranger, 'Marta_K')).json().user.groups).toBe(1);
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
      for (const name of ['nobody_here', '<deleted>']) expectError(await profile(null, name), 404, 'user_not_found');
    });

    it('answers 401 invalid_token for a bad token', async () => {
      const res = await call(t.app, null, { method: 'GET', url: '/api/profile/user/Marta_K', headers: { authorization: 'Bearer nope' } });
      expectError(res, 401, 'invalid_token');
    });
  });

  describe('name lookups', () => {
    const lookup = (url: string) => call(t.app, null, { method: 'GET', url });

    it('answers a user name by id', async () => {
      const res = await lookup(`/api/profile/${owner.id}/username`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { name: 'Marta_K' } });
    });

    it('answers a group name by id, a private one too', async () => {
      const group = await createGroup(t.app, stranger, { isPrivate: true });
      const res = await lookup(`/api/group/${group.id}/name`);
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 200, body: { name: group.name } });
    });

    it.each([
      [`/api/profile/${'d'.repeat(24)}/username`, 404, 'user_not_found'],
      ['/api/profile/xyz/username', 400, 'invalid_id'],
      [`/api/group/${'e'.repeat(24)}/name`, 404, 'didnt_find_group'],
      ['/api/group/xyz/name', 400, 'invalid_group_id'],
    ])('answers %s with %i %s (an unknown or a malformed id)', async (url, status, key) => {
      expectError(await lookup(url), status, key);
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
      expect(body.userList[0]).toEqual({ ...userPicture(followers[6]!.id), username: 'anna', follows: true, notify: true });
      expect(body.userList[1]).toEqual({ ...userPicture(followers[5]!.id), username: 'ZLUTY_pes', follows: true, notify: false });
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
      expect(none).toEqual({ userList: [], logged: false, hasMore: false, group: null });
    });

    it('answers 404 user_not_found for an unknown user', async () => {
      for (const which of ['followers', 'following', 'groups']) {
        expectError(await call(t.app, null, { method: 'GET', url: `/api/profile/user/nobody_here/${which}` }), 404, 'user_not_found');
      }
    });
  });

  describe('standing in a group (?group=)', () => {
    const standing = async (viewer: TestUser | null, user: TestUser, group?: string) => {
      const query = group === undefined ? '' : `?group=${encodeURIComponent(group)}`;
      const res = await call(t.app, viewer, { method: 'GET', url: `/api/profile/user/${encodeURIComponent(user.username)}${query}` });
      expect(res.statusCode).toBe(200);
      const { admin, owner, banned } = res.json().user;
      return { admin, owner, banned };
    };
    const NONE = { admin: false, owner: false, banned: false };
    const ban = async (actor: TestUser, group: { name: string }, user: TestUser) => {
      expect((await call(t.app, actor, { method: 'PUT', url: `/api/group/${encodeURIComponent(group.name)}/ban/${user.id}` })).statusCode).toBe(200);
    };

    it("tells the roles in a public group, by name or id, to anyone, and a ban only to its admins and the banned user", async () => {
      const { owner: boss, group, members: [member, admin] } = await createGroupWith(t.app, ['member', 'admin']);
      const outcast = await createUser(t.app);
      await ban(boss, group, outcast);
      for (const viewer of [null, stranger, member!, admin!, boss, outcast]) {
        const seesBans = viewer === admin || viewer === boss || viewer === outcast;
        for (const named of [group.name, group.id, group.name.toUpperCase()]) {
          expect(await standing(viewer, boss, named)).toEqual({ admin: true, owner: true, banned: false });
          expect(await standing(viewer, admin!, named)).toEqual({ admin: true, owner: false, banned: false });
          expect(await standing(viewer, member!, named)).toEqual(NONE);
          expect(await standing(viewer, outcast, named)).toEqual({ admin: false, owner: false, banned: seesBans });
        }
      }
    });

    it('answers all false without a group, for a blank one and for a group that does not exist', async () => {
      const { owner: boss, group } = await createGroupWith(t.app, []);
      expect(await standing(boss, boss)).toEqual(NONE);
      expect(await standing(boss, boss, '')).toEqual(NONE);
      expect(await standing(boss, boss, '   ')).toEqual(NONE);
      expect(await standing(boss, boss, 'no_such_group_here')).toEqual(NONE);
      expect(await standing(boss, boss, 'f'.repeat(24))).toEqual(NONE);
      expect(await standing(boss, boss, group.name)).toEqual({ admin: true, owner: true, banned: false });
    });

    it("never tells a private group's roles and bans to a visitor, an outsider or a banned user; its members see the roles", async () => {
      const { owner: boss, group, members: [member, admin] } = await createGroupWith(t.app, ['member', 'admin'], { isPrivate: true });
      const outcast = await createUser(t.app);
      await addMember(t.app, group.id, outcast);
      await ban(boss, group, outcast);
      for (const viewer of [null, stranger, outcast]) {
        for (const named of [group.name, group.id]) {
          for (const user of [boss, admin!, member!, outcast]) expect(await standing(viewer, user, named)).toEqual(NONE);
        }
      }
      for (const viewer of [member!, admin!, boss]) {
        expect(await standing(viewer, boss, group.name)).toEqual({ admin: true, owner: true, banned: false });
        expect(await standing(viewer, admin!, group.id)).toEqual({ admin: true, owner: false, banned: false });
        expect(await standing(viewer, member!, group.name)).toEqual(NONE);
        // The banned list is the admins': a plain member is not told who is banned.
        expect(await standing(viewer, outcast, group.name)).toEqual({ admin: false, owner: false, banned: viewer !== member });
      }
    });

    it('refuses a group name longer than any with 400', async () => {
      const res = await call(t.app, null, { method: 'GET', url: `/api/profile/user/${owner.username}?group=${'a'.repeat(201)}` });
      expect(res.statusCode).toBe(400);
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

    it('lists the groups the user belongs to, private ones included for a member, latest joined first', async () => {
      const body = (await list(member)).json();
      expect(body.logged).toBe(true);
      expect(body.hasMore).toBe(true);
      expect(body.groupList).toHaveLength(5);
      expect(body.groupList[0]).toEqual({ ...groupPicture(groups[5]!.id), name: 'Horolezci' });
      expect(body.groupList.map((g: { name: string }) => g.name)).toContain('Tajná');
    });

    it('pages through every group exactly once', async () => {
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await list(member, `?page=${page}&limit=2`)).json();
        expect(body.hasMore).toBe(page < 3);
        seen.push(...body.groupList.map((g: { _id: string }) => g._id));
      }
      expect(seen).toEqual([...groups].reverse().map((g) => g.id));
    });

    it('leaves the private group out for a visitor and a non-member, pages and all', async () => {
      const publicOnes = [...groups].reverse().filter((g) => g.name !== 'Tajná').map((g) => g.id);
      for (const viewer of [null, await createUser(t.app)]) {
        const seen: string[] = [];
        for (let page = 1; page <= 3; page++) {
          const body = (await list(viewer, `?page=${page}&limit=2`)).json();
          expect(body.logged).toBe(viewer !== null);
          expect(body.hasMore).toBe(page < 3);
          seen.push(...body.groupList.map((g: { _id: string }) => g._id));
        }
        expect(seen).toEqual(publicOnes);
        expect((await list(viewer, '?query=tajna')).json().groupList).toEqual([]);
      }
    });

    it('filters by name, ignoring accents and case', async () => {
      const body = (await list(null, '?query=CEs')).json();
      expect(body.groupList.map((g: { name: string }) => g.name)).toEqual(['cesky_les', 'Čeští_včelaři']);
    });
  });
});
