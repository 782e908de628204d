import { beforeAll, describe, expect, it } from 'vitest';
import { toBool } from '../../src/db/helpers';
import { canPostIn, canSeeGroupContent, holdGroupsForPosting, isAdminRole, isBannedFromPost, type Membership, memberMayPost, membershipOf } from '../../src/policy/group-access';
import { isPostVisible, postAudience, postIsPrivate } from '../../src/policy/post-visibility';
import { addMember, createGroup, createPost, createUser, type TestUser, useUsers } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const standing = (role: Membership['role'], banned = false): Membership => ({ role, banned, requested: false });

describe('group access rules', () => {
  describe('isAdminRole', () => {
    it('counts admins and the owner as admins, members and outsiders not', () => {
      expect(isAdminRole('owner')).toBe(true);
      expect(isAdminRole('admin')).toBe(true);
      expect(isAdminRole('member')).toBe(false);
      expect(isAdminRole(null)).toBe(false);
    });
  });

  describe('canPostIn', () => {
    const open = { everyone_can_post: true };
    const adminsOnly = { everyone_can_post: false };

    it('lets any member post where everyone may', () => {
      expect(canPostIn(open, standing('member'))).toBe(true);
      expect(canPostIn(open, standing('owner'))).toBe(true);
    });

    it('lets only admins and the owner post where everyone may not', () => {
      expect(canPostIn(adminsOnly, standing('member'))).toBe(false);
      expect(canPostIn(adminsOnly, standing('admin'))).toBe(true);
      expect(canPostIn(adminsOnly, standing('owner'))).toBe(true);
    });

    it('never lets an outsider or a banned member post', () => {
      expect(canPostIn(open, standing(null))).toBe(false);
      expect(canPostIn(open, standing('member', true))).toBe(false);
      expect(canPostIn(adminsOnly, standing('admin', true))).toBe(false);
    });
  });

  describe('canSeeGroupContent', () => {
    it('shows a public group to everyone and a private one to members only', () => {
      expect(canSeeGroupContent({ is_private: false }, standing(null))).toBe(true);
      expect(canSeeGroupContent({ is_private: true }, standing(null))).toBe(false);
      expect(canSeeGroupContent({ is_private: true }, standing('member'))).toBe(true);
    });
  });

  describe('against the database', () => {
    const t = useTestApp();
    const { owner, member, outsider } = useUsers(t, 'owner', 'member', 'outsider');
    let privateGroup: { id: string };
    let otherPrivate: { id: string };
    let publicGroup: { id: string };

    beforeAll(async () => {
      privateGroup = await createGroup(t.app, owner, { isPrivate: true });
      otherPrivate = await createGroup(t.app, owner, { isPrivate: true });
      publicGroup = await createGroup(t.app, owner);
      await addMember(t.app, privateGroup.id, member);
      await addMember(t.app, publicGroup.id, member);
    });

    it('shows a post in no private group to everyone, visitors included', async () => {
      const plain = await createPost(t.app, owner);
      const inPublic = await createPost(t.app, owner, { groupIds: [publicGroup.id] });
      for (const postId of [plain.id, inPublic.id]) {
        expect(await isPostVisible(t.app.db, postId, outsider.id)).toBe(true);
        expect(await isPostVisible(t.app.db, postId, null)).toBe(true);
      }
    });

    it('shows a post in a private group to its members only, never to visitors', async () => {
      const post = await createPost(t.app, owner, { groupIds: [privateGroup.id, publicGroup.id] });
      expect(await isPostVisible(t.app.db, post.id, member.id)).toBe(true);
      expect(await isPostVisible(t.app.db, post.id, owner.id)).toBe(true);
      expect(await isPostVisible(t.app.db, post.id, outsider.id)).toBe(false);
      expect(await isPostVisible(t.app.db, post.id, null)).toBe(false);
    });

    it('requires membership of every private group the post is in', async () => {
      const post = await createPost(t.app, owner, { groupIds: [privateGroup.id, otherPrivate.id] });
      expect(await isPostVisible(t.app.db, post.id, owner.id)).toBe(true);
      expect(await isPostVisible(t.app.db, post.id, member.id)).toBe(false);
    });

    it('answers false for a post that does not exist', async () => {
      expect(await isPostVisible(t.app.db, 'no-such-post', owner.id)).toBe(false);
    });

    it('calls a post private when any of its groups is private, whatever the other groups', async () => {
      const privacyOf = async (postId: string) => {
        const row = await t.app.db
          .selectFrom('posts')
          .select(postIsPrivate('posts.id').as('is_private'))
          .where('posts.id', '=', postId)
          .executeTakeFirstOrThrow();
        return toBool(row.is_private);
      };
      expect(await privacyOf((await createPost(t.app, owner)).id)).toBe(false);
      expect(await privacyOf((await createPost(t.app, owner, { groupIds: [publicGroup.id] })).id)).toBe(false);
      expect(await privacyOf((await createPost(t.app, owner, { groupIds: [publicGroup.id, privateGroup.id] })).id)).toBe(true);
    });

    describe('postAudience: the same rule over many candidates at once', () => {
      /** Which of the users the audience condition admits, asked in one query. */
      async function admitted(postId: string, users: TestUser[]): Promise<string[]> {
        const audience = await postAudience(t.app.db, postId);
        const rows = await t.app.db
          .selectFrom('users')
          .select('users.id')
          .where('users.id', 'in', users.map((user) => user.id))
          .where(audience('users.id'))
          .execute();
        return rows.map((row) => row.id).sort();
      }
      const ids = (...users: TestUser[]) => users.map((user) => user.id).sort();

      it('admits everyone to a post in no private group', async () => {
        const plain = await createPost(t.app, owner);
        const inPublic = await createPost(t.app, owner, { groupIds: [publicGroup.id] });
        expect(await admitted(plain.id, [owner, member, outsider])).toEqual(ids(owner, member, outsider));
        expect(await admitted(inPublic.id, [owner, member, outsider])).toEqual(ids(owner, member, outsider));
      });

      it('admits only the members of a private group the post is in', async () => {
        const post = await createPost(t.app, owner, { groupIds: [publicGroup.id, privateGroup.id] });
        expect(await admitted(post.id, [owner, member, outsider])).toEqual(ids(owner, member));
      });

      it('admits only members of every private group the post is in, as isPostVisible does', async () => {
        const post = await createPost(t.app, owner, { groupIds: [privateGroup.id, otherPrivate.id] });
        expect(await admitted(post.id, [owner, member, outsider])).toEqual(ids(owner));
        for (const user of [owner, member, outsider]) {
          expect((await admitted(post.id, [user])).length === 1).toBe(await isPostVisible(t.app.db, post.id, user.id));
        }
      });
    });

    it('reads role, ban and pending request of one user in one group', async () => {
      const requester = await createUser(t.app);
      const banned = await createUser(t.app);
      const now = Date.now();
      await t.app.db.insertInto('group_requests').values({ group_id: publicGroup.id, user_id: requester.id, created_at: now }).execute();
      await t.app.db.insertInto('group_bans').values({ group_id: publicGroup.id, user_id: banned.id, created_at: now }).execute();
      expect(await membershipOf(t.app.db, publicGroup.id, owner.id)).toEqual({ role: 'owner', banned: false, requested: false });
      expect(await membershipOf(t.app.db, publicGroup.id, member.id)).toEqual({ role: 'member', banned: false, requested: false });
      expect(await membershipOf(t.app.db, publicGroup.id, requester.id)).toEqual({ role: null, banned: false, requested: true });
      expect(await membershipOf(t.app.db, publicGroup.id, banned.id)).toEqual({ role: null, banned: true, requested: false });
      // Standing in one group says nothing about another.
      expect(await membershipOf(t.app.db, privateGroup.id, requester.id)).toEqual({ role: null, banned: false, requested: false });
      expect(await membershipOf(t.app.db, publicGroup.id, null)).toEqual({ role: null, banned: false, requested: false });
    });

    it('finds a ban in any group the post is tagged with, and only for the banned user', async () => {
      const banned = await createUser(t.app);
      await t.app.db.insertInto('group_bans').values({ group_id: otherPrivate.id, user_id: banned.id, created_at: Date.now() }).execute();
      const tagged = await createPost(t.app, owner, { groupIds: [publicGroup.id, otherPrivate.id] });
      const elsewhere = await createPost(t.app, owner, { groupIds: [publicGroup.id] });
      expect(await isBannedFromPost(t.app.db, tagged.id, banned.id)).toBe(true);
      expect(await isBannedFromPost(t.app.db, tagged.id, member.id)).toBe(false);
      expect(await isBannedFromPost(t.app.db, elsewhere.id, banned.id)).toBe(false);
    });

    it('memberMayPost admits in SQL exactly the memberships canPostIn allows', async () => {
      const open = await createGroup(t.app, owner);
      const adminsOnly = await createGroup(t.app, owner, { everyoneCanPost: false });
      const admin = await createUser(t.app);
      const banned = await createUser(t.app);
      for (const group of [open, adminsOnly]) {
        await addMember(t.app, group.id, admin, 'admin');
        await addMember(t.app, group.id, member);
        // A ban row beside a membership row, so the condition itself must turn the member away.
        await addMember(t.app, group.id, banned);
        await t.app.db.insertInto('group_bans').values({ group_id: group.id, user_id: banned.id, created_at: Date.now() }).execute();
      }
      const mayPostInSql = async (groupId: string, userId: string) =>
        (await t.app.db
          .selectFrom('group_members')
          .innerJoin('groups', 'groups.id', 'group_members.group_id')
          .select('groups.id')
          .where('group_members.group_id', '=', groupId)
          .where('group_members.user_id', '=', userId)
          .where(memberMayPost)
          .executeTakeFirst()) !== undefined;
      const expected = { open: [true, true, true, false], adminsOnly: [true, true, false, false] };
      for (const [name, group] of [['open', open], ['adminsOnly', adminsOnly]] as const) {
        const everyoneCanPost = name === 'open';
        const answers = [];
        for (const user of [owner, admin, member, banned]) {
          const inSql = await mayPostInSql(group.id, user.id);
          expect(inSql).toBe(canPostIn({ everyone_can_post: everyoneCanPost }, await membershipOf(t.app.db, group.id, user.id)));
          answers.push(inSql);
        }
        expect(answers).toEqual(expected[name]);
      }
    });

    it('holds no lock and needs none for a post in no group', async () => {
      await expect(holdGroupsForPosting(t.app.db, [])).resolves.toBeUndefined();
      await expect(holdGroupsForPosting(t.app.db, [publicGroup.id])).resolves.toBeUndefined();
    });
  });
});
