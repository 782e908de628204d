import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { addMember, call, createFollow, createGroup, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { expectError } from '../helpers/expect';

describe('user and group search', () => {
  const t = useTestApp();
  let viewer: TestUser;
  const kuns: TestUser[] = [];

  beforeAll(async () => {
    viewer = await createUser(t.app, { username: 'hledač' });
    // 12 users matching "kun", one of them named exactly so.
    for (let i = 0; i < 11; i++) kuns.push(await createUser(t.app, { username: `žlutý_kůň_${String(i).padStart(2, '0')}` }));
    kuns.push(await createUser(t.app, { username: 'Kůň' }));
    await createUser(t.app, { username: 'Příliš' });
    await createFollow(t.app, viewer, kuns[11]!, { notify: true });
  });

  const get = (user: TestUser | null, url: string) => call(t.app, user, { method: 'GET', url });

  describe('GET /search/users', () => {
    it('suggests at most 10 users, the exact name first, as _id and name', async () => {
      const res = await get(null, '/api/search/users?query=KUN');
      expect(res.statusCode).toBe(200);
      const list = res.json();
      expect(list).toHaveLength(LIMITS.suggestionsMax);
      expect(list[0]).toEqual({ _id: kuns[11]!.id, name: 'Kůň' });
      expect(list[1]).toEqual({ _id: kuns[0]!.id, name: 'žlutý_kůň_00' });
      expect(Object.keys(list[1]).sort()).toEqual(['_id', 'name']);
    });

    it('finds without accents and case', async () => {
      expect((await get(null, '/api/search/users?query=prilis')).json()).toEqual([expect.objectContaining({ name: 'Příliš' })]);
      expect((await get(null, `/api/search/users?query=${encodeURIComponent('HLEDAČ')}`)).json()).toEqual([{ _id: viewer.id, name: 'hledač' }]);
    });

    it('answers [] for a blank or missing query', async () => {
      for (const qs of ['', '?query=', '?query=%20%20']) {
        const res = await get(null, `/api/search/users${qs}`);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
      }
    });
  });

  describe('GET /search/for/users', () => {
    it('pages through every match once, 5 by default, with the caller follow state', async () => {
      const first = (await get(viewer, '/api/search/for/users?query=kun')).json();
      expect(first.logged).toBe(true);
      expect(first.hasMore).toBe(true);
      expect(first.group).toBeNull();
      expect(first.userList).toHaveLength(5);
      expect(first.userList[0]).toEqual({ _id: kuns[11]!.id, pfp: kuns[11]!.id, pfpUrl: `/media/pfp/${kuns[11]!.id}.jpeg`, username: 'Kůň', follows: true, notify: true });
      expect(first.userList[1]).toMatchObject({ username: 'žlutý_kůň_00', follows: false, notify: false });
      const seen: string[] = [];
      for (let page = 1; page <= 3; page++) {
        const body = (await get(null, `/api/search/for/users?query=kun&page=${page}`)).json();
        expect(body.logged).toBe(false);
        expect(body.hasMore).toBe(page < 3);
        seen.push(...body.userList.map((u: { _id: string }) => u._id));
      }
      expect(seen).toHaveLength(12);
      expect(new Set(seen)).toEqual(new Set(kuns.map((u) => u.id)));
    });

    it('lists the name itself, then names starting with it, then names containing it, each by name, across pages', async () => {
      for (const name of ['marianna', 'Anna_3', 'joanna', 'anna_1', 'Ánna', 'anna_2', 'annabel']) await createUser(t.app, { username: name });
      const pages: string[][] = [];
      for (let page = 1; page <= 3; page++) {
        pages.push((await get(null, `/api/search/for/users?query=anna&limit=3&page=${page}`)).json().userList.map((u: { username: string }) => u.username));
      }
      expect(pages).toEqual([
        ['Ánna', 'anna_1', 'anna_2'],
        ['Anna_3', 'annabel', 'joanna'],
        ['marianna'],
      ]);
    });

    it('honours the limit and answers an empty page past the end', async () => {
      const body = (await get(null, '/api/search/for/users?query=zluty&limit=4&page=3')).json();
      expect(body.userList.map((u: { username: string }) => u.username)).toEqual(['žlutý_kůň_08', 'žlutý_kůň_09', 'žlutý_kůň_10']);
      expect(body.hasMore).toBe(false);
      expect((await get(null, '/api/search/for/users?query=zluty&page=9')).json()).toEqual({ userList: [], logged: false, hasMore: false, group: null });
    });

    it('a `before` snapshot leaves out accounts and groups made later', async () => {
      const snapshot = Date.now() - 1;
      const late = await createUser(t.app, { username: 'snapzebra', createdAt: snapshot + 1000 });
      const owner = await createUser(t.app, { username: 'snapowner', createdAt: snapshot - 1000 });
      const group = await createGroup(t.app, owner, { name: 'snapzebras' });
      const ids = async (url: string) => (await get(null, url)).json();
      expect((await ids(`/api/search/for/users?query=snapzebra&before=${snapshot}`)).userList).toEqual([]);
      expect((await ids('/api/search/for/users?query=snapzebra')).userList.map((u: { _id: string }) => u._id)).toEqual([late.id]);
      expect((await ids(`/api/search/for/groups?query=snapzebras&before=${snapshot - 5000}`)).groupList).toEqual([]);
      expect((await ids('/api/search/for/groups?query=snapzebras')).groupList.map((g: { _id: string }) => g._id)).toEqual([group.id]);
    });
  });

  describe('groups', () => {
    let owner: TestUser;
    const groups: Record<string, { id: string; name: string }> = {};
    beforeAll(async () => {
      owner = await createUser(t.app);
      const make = async (name: string, opts: Parameters<typeof createGroup>[2] = {}) => {
        groups[name] = await createGroup(t.app, owner, { name, ...opts });
        return groups[name]!;
      };
      await make('Včelaři_otevření');
      await make('Včelaři_tajní', { isPrivate: true });
      await make('Včelaři_jen_admini', { everyoneCanPost: false });
      await make('Včelaři_admin', { everyoneCanPost: false });
      await make('Včelaři_ban');
      await make('Včelaři_cizí');
      await make('Rybáři');
      await addMember(t.app, groups['Včelaři_otevření']!.id, viewer);
      await addMember(t.app, groups['Včelaři_tajní']!.id, viewer);
      await addMember(t.app, groups['Včelaři_jen_admini']!.id, viewer);
      await addMember(t.app, groups['Včelaři_admin']!.id, viewer, 'admin');
      await addMember(t.app, groups['Včelaři_ban']!.id, viewer);
      await addMember(t.app, groups['Rybáři']!.id, viewer);
      await t.app.db.insertInto('group_bans').values({ group_id: groups['Včelaři_ban']!.id, user_id: viewer.id, created_at: Date.now() }).execute();
    });

    it('GET /search/mygroups needs a token', async () => {
      const res = await get(null, '/api/search/mygroups?query=vcel');
      expectError(res, 401, 'no_token');
    });

    it('GET /search/mygroups lists only matching groups where the caller may post', async () => {
      const res = await get(viewer, '/api/search/mygroups?query=VCELARI');
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([
        { _id: groups['Včelaři_admin']!.id, name: 'Včelaři_admin' },
        { _id: groups['Včelaři_otevření']!.id, name: 'Včelaři_otevření' },
        { _id: groups['Včelaři_tajní']!.id, name: 'Včelaři_tajní' },
      ]);
      expect((await get(viewer, '/api/search/mygroups?query=ryb')).json()).toEqual([{ _id: groups['Rybáři']!.id, name: 'Rybáři' }]);
      expect((await get(viewer, '/api/search/mygroups?query=%20')).json()).toEqual([]);
      const ownerView = (await get(owner, '/api/search/mygroups?query=vcelari')).json();
      expect(ownerView).toHaveLength(6);
    });

    it('GET /search/mygroups answers at most 10', async () => {
      const busy = await createUser(t.app);
      for (let i = 0; i < 12; i++) await createGroup(t.app, busy, { name: `Hory_${String(i).padStart(2, '0')}` });
      const list = (await get(busy, '/api/search/mygroups?query=hory')).json();
      expect(list).toHaveLength(LIMITS.suggestionsMax);
      expect(list[0].name).toBe('Hory_00');
    });

    it('GET /search/for/groups lists private groups by name too and pages each once', async () => {
      const first = (await get(viewer, '/api/search/for/groups?query=včelaři')).json();
      expect(first.logged).toBe(true);
      expect(first.hasMore).toBe(true);
      expect(first.groupList).toHaveLength(5);
      expect(first.groupList[0]).toEqual({
        _id: groups['Včelaři_admin']!.id,
        gp: groups['Včelaři_admin']!.id,
        gpUrl: `/media/gp/${groups['Včelaři_admin']!.id}.jpeg`,
        name: 'Včelaři_admin',
      });
      const second = (await get(null, '/api/search/for/groups?query=vcelari&page=2')).json();
      expect(second).toEqual({ groupList: [expect.objectContaining({ name: 'Včelaři_tajní' })], logged: false, hasMore: false });
      const names = [...first.groupList, ...second.groupList].map((g: { name: string }) => g.name);
      expect(names).toEqual(['Včelaři_admin', 'Včelaři_ban', 'Včelaři_cizí', 'Včelaři_jen_admini', 'Včelaři_otevření', 'Včelaři_tajní']);
    });
  });
});
