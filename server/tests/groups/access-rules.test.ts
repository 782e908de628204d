import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  canPostIn,
  canSeeGroupContent,
  holdGroupsForPosting,
  isAdminRole,
  isBannedFromPost,
  isPostVisible,
  type Membership,
  membershipOf,
} from '../../src/modules/groups/group-access';
import { addMember, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

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
    const open = { everyone_can_post: 1 };
    const adminsOnly = { everyone_can_post: 0 };

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
      expect(canSeeGroupContent({ is_private: 0 }, standing(null))).toBe(true);
      expect(canSeeGroupContent({ is_private: 1 }, standing(null))).toBe(false);
      expect(canSeeGroupContent({ is_private: 1 }, standing('member'))).toBe(true);
    });
  });

  describe('against the database', () => {
    let t: TestApp;
    let owner: TestUser;
    let member: TestUser;
    let outsider: TestUser;
    let privateGroup: { id: string };
    let otherPrivate: { id: string };
    let publicGroup: { id: string };

    beforeAll(async () => {
      t = await createTestApp();
      owner = await createUser(t.app);
      member = await createUser(t.app);
      outsider = await createUser(t.app);
      privateGroup = await createGroup(t.app, owner, { isPrivate: true });
      otherPrivate = await createGroup(t.app, owner, { isPrivate: true });
      publicGroup = await createGroup(t.app, owner);
      await addMember(t.app, privateGroup.id, member);
      await addMember(t.app, publicGroup.id, member);
    });
    afterAll(async () => t.close());

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

    it('holds no lock and needs none for a post in no group', async () => {
      await expect(holdGroupsForPosting(t.app.db, [])).resolves.toBeUndefined();
      await expect(holdGroupsForPosting(t.app.db, [publicGroup.id])).resolves.toBeUndefined();
    });
  });
});
