import { beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '#core/limits';
import { skeleton } from '#core/text';
import * as nameSkeletons from '../../src/db/migrations/20261123_30_name_skeletons';
import * as latinLookAlikes from '../../src/db/migrations/20261127_20_skeletons_fold_latin_look_alikes';
import { newId } from '../../src/lib/ids';
import { expectError } from '../helpers/expect';
import { call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/** Names and texts judged as a person reads them, through the API. */
describe('names and texts as a person reads them', () => {
  const t = useTestApp();
  let user: TestUser;
  let address = 0;

  beforeAll(async () => {
    user = await createUser(t.app, { username: 'bob' });
    await createGroup(t.app, user, { name: 'Cyklisté' });
  });

  const signup = (username: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/signup',
      payload: { username, email: `n${++address}@example.test`, password: 'secret12' },
      remoteAddress: `10.9.0.${address}`,
    });
  const changeUsername = (who: TestUser, newUsername: string) =>
    call(t.app, who, { method: 'PATCH', url: '/api/account/changeusername', payload: { newUsername } });
  const createGroupCall = (name: string) => call(t.app, user, { method: 'POST', url: '/api/group', payload: { name } });

  describe('sign-up', () => {
    it('refuses a look-alike of an existing username', async () => {
      expectError(await signup('b\u043Eb'), 409, 'username_taken'); // Cyrillic o
      expectError(await signup('\uFF42\uFF4F\uFF42'), 409, 'username_taken'); // full-width
      expectError(await signup('BÓB'), 409, 'username_taken');
    });

    it('refuses a capital I or a 1 in place of an l, and a 0 in place of an o', async () => {
      expect((await signup('paul6832')).statusCode).toBe(201);
      expectError(await signup('pauI6832'), 409, 'username_taken');
      expectError(await signup('pau16832'), 409, 'username_taken');
      expectError(await signup('b0b'), 409, 'username_taken');
    });

    it('refuses a bar in place of an l or an i', async () => {
      expect((await signup('alice7104')).statusCode).toBe(201);
      expectError(await signup('al|ce7104'), 409, 'username_taken');
      expectError(await signup('a|ice7104'), 409, 'username_taken');
    });

    it('refuses invisible, control and direction characters', async () => {
      expectError(await signup('ali\u200Bce'), 400, 'username_characters');
      expectError(await signup('\u202Ealice'), 400, 'username_characters');
      expectError(await signup('alice\u2066'), 400, 'username_characters');
      expectError(await signup('\u3164\u3164\u3164'), 400, 'new_username');
      expectError(await signup('\u0301\u0301\u0301'), 400, 'new_username');
    });

    it('stores the NFKC form of the name and its skeleton', async () => {
      expect((await signup('\uFF2A\uFF41\uFF4E\uFF41')).statusCode).toBe(201);
      const row = await t.app.db.selectFrom('users').select(['username', 'username_lower', 'username_skeleton']).where('username_lower', '=', 'jana').executeTakeFirstOrThrow();
      expect(row).toEqual({ username: 'Jana', username_lower: 'jana', username_skeleton: 'jana' });
    });

    it('catches profanity behind look-alikes', async () => {
      expectError(await signup('\uFF46\uFF55\uFF43\uFF4B'), 400, 'username_profanity');
      expectError(await signup('\u0455hit_happens'), 400, 'username_profanity'); // Cyrillic s
    });
  });

  describe('username change', () => {
    it('refuses a bar in place of an l or an i', async () => {
      await createUser(t.app, { username: 'alice7105' });
      const other = await createUser(t.app);
      expectError(await changeUsername(other, 'a|ice7105'), 409, 'username_taken');
      expectError(await changeUsername(other, 'al|ce7105'), 409, 'username_taken');
    });

    it('refuses a look-alike of another user and hidden characters', async () => {
      const other = await createUser(t.app);
      expectError(await changeUsername(other, 'b\u043Eb'), 409, 'username_taken');
      expectError(await changeUsername(other, 'ot\u200Bher'), 400, 'username_characters');
    });

    it('lets a user restyle their own name and stores the skeleton', async () => {
      const owner = await createUser(t.app, { username: 'karel' });
      const res = await changeUsername(owner, 'Karel');
      expect(res.statusCode).toBe(200);
      const row = await t.app.db.selectFrom('users').select(['username', 'username_skeleton']).where('id', '=', owner.id).executeTakeFirstOrThrow();
      expect(row).toEqual({ username: 'Karel', username_skeleton: 'karel' });
    });
  });

  describe('groups', () => {
    it('refuses a look-alike of an existing group name', async () => {
      expectError(await createGroupCall('Cyklist\u0435'), 409, 'groupname_taken'); // Cyrillic e, no accent
      expectError(await createGroupCall('\uFF43\uFF59\uFF4B\uFF4C\uFF49\uFF53\uFF54\uFF45'), 409, 'groupname_taken');
      expectError(await createGroupCall('Cykl1sté'), 409, 'groupname_taken');
    });

    it('refuses hidden characters and id-shaped names', async () => {
      expectError(await createGroupCall('Běžci\u200B'), 400, 'groupname_characters');
      expectError(await createGroupCall('\u202EBěžci'), 400, 'groupname_characters');
      expectError(await createGroupCall('\u0301\u0301\u0301'), 400, 'new_groupname');
      expectError(await createGroupCall(newId()), 400, 'groupname_reserved');
      expectError(await createGroupCall(newId().toUpperCase()), 400, 'groupname_reserved');
    });

    it('refuses renaming a group to a look-alike of another', async () => {
      const mine = await createGroup(t.app, user, { name: 'Plavci' });
      const res = await call(t.app, user, { method: 'PATCH', url: `/api/group/${mine.id}/update`, payload: { name: 'cyklist\u0435' } });
      expectError(res, 409, 'groupname_taken');
    });

    it('stores the NFKC form and skeleton of a new group name', async () => {
      const res = await createGroupCall('\uFF2C\uFF45\uFF4E\uFF4F\uFF53\uFF49');
      expect(res.statusCode).toBe(201);
      const row = await t.app.db.selectFrom('groups').select(['name', 'name_skeleton']).where('name_lower', '=', 'lenosi').executeTakeFirstOrThrow();
      expect(row).toEqual({ name: 'Lenosi', name_skeleton: 'lenosl' });
    });
  });

  describe('posts and comments', () => {
    const post = (text: string) => call(t.app, user, { method: 'POST', url: '/api/post', payload: { text } });

    it('refuses a post or comment of invisible characters only', async () => {
      expectError(await post('\u200B\u3164\u2800\u200E\u2066'), 400, 'blank_post');
      const parent = await createPost(t.app, user);
      const comment = await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: '\u115F\u1160\uFFA0\uFEFF', parent: parent.id } });
      expectError(comment, 400, 'blank_comment');
    });

    it('refuses a post or comment of combining marks only', async () => {
      expectError(await post('\u0301\u0301\u0301'), 400, 'blank_post');
      const parent = await createPost(t.app, user);
      const comment = await call(t.app, user, { method: 'POST', url: '/api/comment/', payload: { text: ' \u0301\u0308 ', parent: parent.id } });
      expectError(comment, 400, 'blank_comment');
    });

    it('counts lines by every line break', async () => {
      expectError(await post(Array(LIMITS.textMaxLines + 1).fill('l').join('\u2028')), 400, 'max_post_lines');
      expectError(await post(Array(LIMITS.textMaxLines + 1).fill('l').join('\r')), 400, 'max_post_lines');
    });

    it('measures the length after trimming, and stores the trimmed text', async () => {
      const text = 'x'.repeat(LIMITS.textMaxLength);
      const res = await post(`\u200B  ${text}\n\n `);
      expect(res.statusCode).toBe(201);
      expect(res.json().text).toBe(text);
      expectError(await post(`${text}x`), 400, 'max_post_length');
    });
  });

  describe('the migration folding I, l, 1 and O, 0', () => {
    it('recomputes stored skeletons; of two names that now look alike, the older keeps its skeleton', async () => {
      const db = t.app.db;
      const now = Date.now();
      // Skeletons as the earlier folding stored them: 'Ole1', later 'Olel' and 'OLEI' were three names.
      const rows = [
        { id: newId(), username: 'Ole1', stored: 'ole1', createdAt: now - 3000 },
        { id: newId(), username: 'Olel', stored: 'olel', createdAt: now - 2000 },
        { id: newId(), username: 'OLEI', stored: 'olei', createdAt: now - 1000 },
        { id: newId(), username: 'Zdeno', stored: null, createdAt: now },
      ];
      for (const { id, username, stored, createdAt } of rows) {
        await db
          .insertInto('users')
          .values({ id, username, username_lower: username.toLowerCase(), username_skeleton: stored, email: null, password_hash: null, google_sub: null, search_text: username, created_at: createdAt })
          .execute();
      }
      await latinLookAlikes.up(db);
      const after = await db.selectFrom('users').select(['id', 'username_skeleton']).where('id', 'in', rows.map((r) => r.id)).execute();
      expect(new Map(after.map((r) => [r.id, r.username_skeleton]))).toEqual(
        new Map([[rows[0]!.id, 'olel'], [rows[1]!.id, null], [rows[2]!.id, null], [rows[3]!.id, 'zdeno']]),
      );
      expect((await db.selectFrom('users').select('username_skeleton').where('username_lower', '=', 'bob').executeTakeFirstOrThrow()).username_skeleton).toBe('bob');
      expect((await db.selectFrom('groups').select('name_skeleton').where('name_lower', '=', 'cyklisté').executeTakeFirstOrThrow()).name_skeleton).toBe('cykllste');
    });
  });

  describe('the skeleton migration', () => {
    it('fills existing rows, leaves later look-alikes without one and makes the column unique', async () => {
      const db = t.app.db;
      await nameSkeletons.down(db);
      // Rows as they were before the column: 'Vera', then a later 'Vеra' with a Cyrillic e.
      const now = Date.now();
      const [first, later] = [newId(), newId()];
      for (const [id, username, createdAt] of [[first, 'Vera', now - 1000], [later, 'V\u0435ra', now]] as const) {
        await db
          .insertInto('users')
          .values({ id, username, username_lower: username.toLowerCase(), email: null, password_hash: null, google_sub: null, search_text: username, created_at: createdAt })
          .execute();
      }
      await nameSkeletons.up(db);
      const rows = await db.selectFrom('users').select(['id', 'username_skeleton']).where('id', 'in', [first, later]).execute();
      expect(new Map(rows.map((r) => [r.id, r.username_skeleton]))).toEqual(new Map([[first, 'vera'], [later, null]]));
      const groupSkeletons = await db.selectFrom('groups').select('name_skeleton').where('name_lower', '=', 'cyklisté').execute();
      expect(groupSkeletons).toEqual([{ name_skeleton: skeleton('Cyklisté') }]);
      // The index now refuses a third holder of the skeleton, whoever inserts it.
      await expect(createUser(t.app, { username: 'VERA' })).rejects.toThrow();
    });
  });
});
