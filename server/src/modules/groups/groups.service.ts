import { infoMessage } from '#core/errors';
import { LIMITS, PAGE_SIZES } from '#core/limits';
import { foldForSearch, normalizeName, skeleton, trimText } from '#core/text';
import { validateDescription, validateGroupName } from '#core/validation';
import { isUniqueViolation } from '../../db/helpers.js';
import type { Executor } from '../../db/schema.js';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import { isId, newId } from '../../lib/ids.js';
import { pageWindow, toPage } from '../../lib/paging.js';
import { takeSlot } from '../../lib/rate-limit.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './groups.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { Viewer } from '../../plugins/auth.js';
import { avatarKey } from '../../policy/media-urls.js';
import { deletePostsWithMedia, groupPrivacyChanged, isPostInGroup, postExists, postIdsInGroup, untagGroup, untagPostFromGroup } from '../posts/group-posts.js';
import { type Membership, canSeeGroupContent, isAdminRole, membershipOf } from '../../policy/group-access.js';
import { isPostVisible } from '../../policy/post-visibility.js';
import { isPostBlockedFor } from '../../policy/blocks.js';
import { type GroupView, toGroupRef, toGroupView, toListedUser } from './groups.mapper.js';
import * as repo from './groups.repository.js';
import type { PageQuery } from '#core/api/common';
import type { GroupBody, GroupSavedReply, GroupUserListReply } from '#core/api/groups';

/**
 * The group rules. Every change runs on the transaction its route opened (`ctx.db`) and first
 * locks the group's row, then reads the membership it decides on, and is conditional on the row it
 * adds or removes: two changes of one group run one after the other, so a ban cannot miss a join
 * that is committing, and a retried or concurrent call cannot count a member or a ban twice.
 */

// ---- Loading ---------------------------------------------------------------------------------

/** A group named in the path by name (or id); missing is 404 didnt_find_group. */
export async function loadGroup(db: Executor, nameOrId: string): Promise<repo.GroupRecord> {
  const group = await repo.findGroupByNameOrId(db, nameOrId);
  if (!group) throw notFound('didnt_find_group');
  return group;
}

/** A group named in the path by id: malformed is 400 invalid_group_id, missing 404 didnt_find_group. */
export async function loadGroupById(db: Executor, id: string): Promise<repo.GroupRecord> {
  if (!isId(id)) throw badRequest('invalid_group_id');
  const group = await repo.findGroupById(db, id);
  if (!group) throw notFound('didnt_find_group');
  return group;
}

/** The group named in the path by name or id, locked for the change the caller makes next. */
async function loadGroupForChange(trx: Executor, nameOrId: string): Promise<repo.GroupRecord> {
  return lockLoaded(trx, await loadGroup(trx, nameOrId));
}

/** As loadGroupById, locked for the change the caller makes next. */
async function loadGroupByIdForChange(trx: Executor, id: string): Promise<repo.GroupRecord> {
  return lockLoaded(trx, await loadGroupById(trx, id));
}

async function lockLoaded(trx: Executor, group: repo.GroupRecord): Promise<repo.GroupRecord> {
  const locked = await repo.lockGroup(trx, group.id);
  if (!locked) throw notFound('didnt_find_group');
  return locked;
}

/**
 * Counts one join, leave or request of the user in the group (groupActionsPerHour), refusing with
 * 429 over the limit. Taken in the change's transaction: a change refused later is not counted.
 */
function takeGroupActionSlot(ctx: ServiceContext, groupId: string, userId: string): Promise<void> {
  const { groupActionsPerHour, windowMs } = ctx.app.config.rates;
  return takeSlot(ctx.db, { key: `group:${groupId}:${userId}`, max: groupActionsPerHour, windowMs }, 'group_action_limit');
}

async function requireAdmin(db: Executor, group: repo.GroupRecord, userId: string, key: AppError['key']): Promise<Membership> {
  const membership = await membershipOf(db, group.id, userId);
  if (!isAdminRole(membership.role)) throw forbidden(key);
  return membership;
}

/** The user a moderation call acts on: malformed id 400 invalid_id, unknown 404 didnt_find_user. */
async function loadTarget(db: Executor, pfp: string): Promise<{ id: string; username: string }> {
  if (!isId(pfp)) throw badRequest('invalid_id');
  const user = await repo.findUser(db, pfp);
  if (!user) throw notFound('didnt_find_user');
  return user;
}

// ---- Create, update, delete ------------------------------------------------------------------

interface CleanGroup {
  fields: repo.GroupFields;
  nameLower: string;
}

/**
 * Name and description by the shared rules. A private group admits members by request only
 * (its content is for members, so nobody walks in), hence request_join is stored as set for it.
 */
function cleanGroupBody(body: GroupBody, current: repo.GroupRecord | null): CleanGroup {
  const name = normalizeName(body.name);
  const nameError = validateGroupName(name);
  if (nameError) throw badRequest(nameError);
  const description = body.description ?? (current ? current.description : '');
  const descriptionError = validateDescription(description);
  if (descriptionError) throw badRequest(descriptionError);
  const isPrivate = body.isPrivate ?? current?.is_private ?? false;
  const requestJoin = isPrivate || (body.requestJoin ?? current?.request_join ?? false);
  return {
    nameLower: name.toLowerCase(),
    fields: {
      name,
      // Stored as its length was measured: trimmed.
      description: trimText(description),
      is_private: isPrivate,
      request_join: requestJoin,
      everyone_can_post: body.everyoneCanPost ?? current?.everyone_can_post ?? true,
      name_skeleton: skeleton(name),
      search_text: foldForSearch(name),
    },
  };
}


/** Two concurrent saves of one name: the unique index decides, the loser gets groupname_taken. */
async function withNameGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('groupname_taken');
    throw err;
  }
}

/**
 * Creates the group with its owner (the caller) as first member. The route runs it with the
 * request's Idempotency-Key, so a retried call (an offline client resending) answers the first
 * call's result instead of groupname_taken.
 */
export async function createGroup(ctx: ServiceContext, viewer: Viewer, body: GroupBody): Promise<GroupSavedReply> {
  const { db } = ctx;
  const clean = cleanGroupBody(body, null);
  return withNameGuard(async () => {
    if ((await repo.countOwnedGroupsLocked(db, viewer.id)) >= LIMITS.ownedGroups) throw forbidden('max_groups');
    if (await repo.nameTaken(db, clean.nameLower, clean.fields.name_skeleton, null)) throw conflict('groupname_taken');
    const now = Date.now();
    const id = newId(now);
    await repo.insertGroup(db, { ...clean.fields, id, owner_id: viewer.id, created_at: now });
    await repo.insertMember(db, id, viewer.id, 'owner', now);
    await repo.adjustCounts(db, id, { members: 1 });
    return { group: toGroupRef({ id, name: clean.fields.name }), message: infoMessage('created_group') };
  });
}

/** The group (by id) and the new settings an update call sends. */
export interface GroupUpdate {
  groupId: string;
  body: GroupBody;
}

export async function updateGroup(ctx: ServiceContext, viewer: Viewer, { groupId, body }: GroupUpdate): Promise<{ _id: string; name: string }> {
  const { db } = ctx;
  return withNameGuard(async () => {
    const group = await loadGroupByIdForChange(db, groupId);
    const actor = await requireAdmin(db, group, viewer.id, 'need_admin');
    const clean = cleanGroupBody(body, group);
    // Making a private group public publishes everything written for its members: the owner's call.
    if (clean.fields.is_private !== group.is_private && actor.role !== 'owner') throw forbidden('need_owner');
    if (await repo.nameTaken(db, clean.nameLower, clean.fields.name_skeleton, group.id)) throw conflict('groupname_taken');
    await repo.updateGroup(db, group.id, clean.fields);
    if (clean.fields.is_private !== group.is_private) await groupPrivacyChanged(db, group.id);
    // A group made private is no actor any more: its remote followers must hear nothing of it.
    if (clean.fields.is_private && !group.is_private) await publishEvent(ctx, 'group.made_private', { groupId: group.id });
    return toGroupRef({ id: group.id, name: clean.fields.name });
  });
}

/**
 * Deletes the group with its memberships, bans, requests and tags (owner only). Posts of a
 * public group stay, untagged. Posts of a private group are deleted with it: untagged they would
 * become readable by everyone, and their authors wrote them for members only. Answers the media
 * keys to remove once committed (group avatar included).
 */
export async function deleteGroup(ctx: ServiceContext, viewer: Viewer, groupId: string): Promise<string[]> {
  const group = await loadGroupByIdForChange(ctx.db, groupId);
  if (group.owner_id !== viewer.id) throw forbidden('owner_delete');
  return removeGroup(ctx, group);
}

/** The deletion itself, for a group already locked; answers the media keys to remove once committed. */
async function removeGroup(ctx: ServiceContext, group: repo.GroupRecord): Promise<string[]> {
  const trx = ctx.db;
  const keys = [avatarKey('gp', group.id)];
  if (group.is_private) keys.push(...(await deletePostsWithMedia(trx, await postIdsInGroup(trx, group.id), ctx.app)));
  await untagGroup(trx, group.id);
  await publishEvent(ctx, 'group.deleting', { groupId: group.id });
  await repo.deleteGroup(trx, group.id);
  return keys;
}

/**
 * Before an account goes: each group it owns passes to its longest-serving admin, else its
 * longest-standing member, who is notified. A group left with nobody is deleted as its owner
 * would delete it, private posts included. Runs in the account deletion's transaction; answers the
 * media keys to remove once committed.
 *
 * What the user owns is read only once it cannot change: a hand-over to them (by the owner, or by
 * an owner's own account deletion) could otherwise commit between the read and the deletion, and
 * the group they were just given would go with their row. So every group they are in is locked
 * first (groups before users, each set in id order, as every other change of a group does), then
 * their own row, which keeps them from joining or being given anything else, and only then is the
 * list of groups they own read.
 */
export async function handOverGroupsOf(ctx: ServiceContext, userId: string): Promise<string[]> {
  const trx = ctx.db;
  const locked = new Set<string>();
  await lockGroupsOfUser(trx, userId, locked);
  await repo.lockUser(trx, userId);
  // A group joined or given between the last read above and the user's lock: rare, and locked out
  // of order (a deadlock that follows is retried with the transaction).
  await lockGroupsOfUser(trx, userId, locked);
  const keys: string[] = [];
  for (const id of await repo.ownedGroupIds(trx, userId)) {
    const group = await repo.lockGroup(trx, id);
    if (!group) continue;
    const successor = await repo.findSuccessor(trx, group.id, userId);
    if (successor) await passOwnership(ctx, group, successor, userId);
    else keys.push(...(await removeGroup(ctx, group)));
  }
  return keys;
}

/**
 * Locks every group the user owns or is in, reading again after each lock until the list holds
 * still: a group they joined or were given while we waited is locked too.
 */
async function lockGroupsOfUser(trx: Executor, userId: string, locked: Set<string>): Promise<void> {
  for (;;) {
    const fresh = (await repo.groupIdsOfUser(trx, userId)).filter((id) => !locked.has(id));
    if (fresh.length === 0) return;
    await repo.lockGroups(trx, fresh);
    for (const id of fresh) locked.add(id);
  }
}

/** Makes `toId` (a member) the owner; the previous owner, if still a member, stays as an admin. */
async function passOwnership(ctx: ServiceContext, group: repo.GroupRecord, toId: string, actorId: string): Promise<void> {
  const trx = ctx.db;
  await repo.setOwner(trx, group.id, toId);
  await repo.setRole(trx, group.id, toId, 'owner');
  await repo.setRole(trx, group.id, group.owner_id, 'admin');
  await publishEvent(ctx, 'group.ownership_passed', { groupId: group.id, actorId, userId: toId });
}

// ---- Reading ---------------------------------------------------------------------------------

export async function getGroup(ctx: ServiceContext, viewer: Viewer | null, nameOrId: string): Promise<GroupView> {
  const { db } = ctx;
  const viewerId = viewer?.id ?? null;
  const group = await loadGroup(db, nameOrId);
  const membership = await membershipOf(db, group.id, viewerId);
  let pinnedPost: string | null = null;
  if (group.pinned_post_id && canSeeGroupContent(group, membership) && (await isPostVisible(db, group.pinned_post_id, viewerId))) {
    // A pinned post by someone a block stands between the viewer and is not named either.
    if (!(await isPostBlockedFor(db, group.pinned_post_id, viewerId))) pinnedPost = group.pinned_post_id;
  }
  const notification = viewerId && membership.role ? await repo.findLevel(db, group.id, viewerId) : null;
  return toGroupView(group, membership, { logged: viewerId !== null, pinnedPost, notification });
}

/** The pinned post's id, after the checks of GET /group/{name}/pinned. */
export async function pinnedPostId(ctx: ServiceContext, viewer: Viewer | null, nameOrId: string): Promise<string> {
  const group = await loadGroup(ctx.db, nameOrId);
  const membership = await membershipOf(ctx.db, group.id, viewer?.id ?? null);
  if (!canSeeGroupContent(group, membership)) throw forbidden('not_member');
  if (!group.pinned_post_id) throw notFound('no_pinned');
  return group.pinned_post_id;
}

/** A user's standing in a group as a profile tells it: admin (the owner too), owner, banned. */
export interface Standing {
  admin: boolean;
  owner: boolean;
  banned: boolean;
}

export const NO_STANDING: Standing = { admin: false, owner: false, banned: false };

/**
 * The user's standing in the group named by name or id, as the viewer may see it: nothing for a
 * group that does not exist or whose members the viewer may not see (a private group they are
 * not in), so a private group's roles and bans never reach outsiders.
 */
export async function standingSeenBy(db: Executor, nameOrId: string, userId: string, viewerId: string | null): Promise<Standing> {
  const group = await repo.findGroupByNameOrId(db, nameOrId);
  if (!group) return NO_STANDING;
  const viewer = await membershipOf(db, group.id, viewerId);
  if (!canSeeGroupContent(group, viewer)) return NO_STANDING;
  const standing = await membershipOf(db, group.id, userId);
  // Who is banned is for the group's admins (the banned list is theirs) and for the user themself.
  const seesBans = isAdminRole(viewer.role) || (viewerId !== null && viewerId === userId);
  return { admin: isAdminRole(standing.role), owner: standing.role === 'owner', banned: seesBans && standing.banned };
}

/** A group's name by its id: public, whoever asks. */
export async function groupName(ctx: ServiceContext, _viewer: Viewer | null, groupId: string): Promise<string> {
  return (await loadGroupById(ctx.db, groupId)).name;
}

/** Which of a group's lists, and the page of it. */
export interface GroupUsersQuery {
  nameOrId: string;
  /** Members are listed to whoever may see the group; the banned and the requests to its admins only. */
  which: 'members' | 'banned' | 'requests';
  query: PageQuery;
}

export async function listGroupUsers(ctx: ServiceContext, viewer: Viewer | null, { nameOrId, which, query }: GroupUsersQuery): Promise<GroupUserListReply> {
  const { db } = ctx;
  const viewerId = viewer?.id ?? null;
  const group = await loadGroup(db, nameOrId);
  const membership = await membershipOf(db, group.id, viewerId);
  if (which !== 'members' && !isAdminRole(membership.role)) throw forbidden('need_admin');
  if (!canSeeGroupContent(group, membership)) throw forbidden('not_member');
  const window = pageWindow(query, PAGE_SIZES.users);
  const list = { members: repo.listMembers, banned: repo.listBanned, requests: repo.listRequests }[which];
  const rows = await list(db, group.id, query, window);
  const page = toPage(rows, window);
  return {
    userList: page.items.map((u) => toListedUser(u, which === 'banned')),
    logged: viewerId !== null,
    hasMore: page.hasMore,
    group: { ...toGroupRef(group), admin: isAdminRole(membership.role), owner: membership.role === 'owner' },
  };
}

// ---- Membership ------------------------------------------------------------------------------

/**
 * A change of the caller's own membership (join, leave, request), on the route's transaction:
 * `change` gets the group, locked as it is now, and the caller's standing in it.
 */
async function changeOwnMembership(
  ctx: ServiceContext,
  nameOrId: string,
  userId: string,
  change: (trx: Executor, group: repo.GroupRecord, membership: Membership) => Promise<void>,
): Promise<void> {
  const group = await loadGroupForChange(ctx.db, nameOrId);
  await change(ctx.db, group, await membershipOf(ctx.db, group.id, userId));
}

/** A banned user or a member can neither join nor ask to. */
function refuseBannedOrMember(membership: Membership): void {
  if (membership.banned) throw forbidden('banned');
  if (membership.role) throw conflict('already_member');
}

export function joinGroup(ctx: ServiceContext, viewer: Viewer, nameOrId: string): Promise<void> {
  const userId = viewer.id;
  return changeOwnMembership(ctx, nameOrId, userId, async (trx, group, membership) => {
    refuseBannedOrMember(membership);
    if (group.request_join || group.is_private) throw badRequest('need_request');
    await takeGroupActionSlot(ctx, group.id, userId);
    if (!(await repo.insertMember(trx, group.id, userId, 'member', Date.now()))) throw conflict('already_member');
    await repo.adjustCounts(trx, group.id, { members: 1 });
    await repo.deleteUserRow(trx, 'group_requests', group.id, userId);
    await publishEvent(ctx, 'group.member_joined', { groupId: group.id, userId });
  });
}

/** The owner cannot leave (403 owner_delete): a group always has its owner, who deletes it instead. */
export function leaveGroup(ctx: ServiceContext, viewer: Viewer, nameOrId: string): Promise<void> {
  const userId = viewer.id;
  return changeOwnMembership(ctx, nameOrId, userId, async (trx, group, membership) => {
    if (!membership.role) throw forbidden('not_member');
    if (membership.role === 'owner') throw forbidden('owner_delete');
    await takeGroupActionSlot(ctx, group.id, userId);
    if (!(await repo.deleteMember(trx, group.id, userId))) throw forbidden('not_member');
    await repo.adjustCounts(trx, group.id, { members: -1 });
  });
}

export function requestJoin(ctx: ServiceContext, viewer: Viewer, nameOrId: string): Promise<void> {
  const userId = viewer.id;
  return changeOwnMembership(ctx, nameOrId, userId, async (trx, group, membership) => {
    refuseBannedOrMember(membership);
    if (!group.request_join && !group.is_private) throw badRequest('no_request');
    if (membership.requested) throw conflict('already_requested');
    await takeGroupActionSlot(ctx, group.id, userId);
    if (!(await repo.insertUserRow(trx, 'group_requests', group.id, userId, Date.now()))) throw conflict('already_requested');
    await publishEvent(ctx, 'group.join_requested', { groupId: group.id, userId });
  });
}

/** The requester takes back a request nobody has answered yet; the admins' items about it go, and nothing else tells them. */
export function withdrawRequest(ctx: ServiceContext, viewer: Viewer, nameOrId: string): Promise<void> {
  const userId = viewer.id;
  return changeOwnMembership(ctx, nameOrId, userId, async (trx, group, membership) => {
    if (!membership.requested) throw notFound('no_pending_request');
    await takeGroupActionSlot(ctx, group.id, userId);
    if (!(await repo.deleteUserRow(trx, 'group_requests', group.id, userId))) throw notFound('no_pending_request');
    await publishEvent(ctx, 'group.join_withdrawn', { groupId: group.id, userId });
  });
}

/** An admin's or owner's call on one user of a group: the group (by name or id) and the user's id. */
export interface GroupUserCall {
  nameOrId: string;
  userId: string;
}

export async function resolveRequest(ctx: ServiceContext, viewer: Viewer, { nameOrId, userId, accept }: GroupUserCall & { accept: boolean }): Promise<void> {
  const trx = ctx.db;
  const actorId = viewer.id;
  const group = await loadGroupForChange(trx, nameOrId);
  await requireAdmin(trx, group, actorId, 'admin_accept');
  const target = await loadTarget(trx, userId);
  const membership = await membershipOf(trx, group.id, target.id);
  if (membership.banned) throw conflict('user_banned');
  if (membership.role) throw conflict('user_member');
  if (!(await repo.deleteUserRow(trx, 'group_requests', group.id, target.id))) throw notFound('hasnt_requested');
  if (accept) {
    await repo.insertMember(trx, group.id, target.id, 'member', Date.now());
    await repo.adjustCounts(trx, group.id, { members: 1 });
    await publishEvent(ctx, 'group.join_accepted', { groupId: group.id, actorId, userId: target.id });
    await publishEvent(ctx, 'group.member_joined', { groupId: group.id, userId: target.id });
  } else {
    await publishEvent(ctx, 'group.join_denied', { groupId: group.id, actorId, userId: target.id });
  }
}

/**
 * Promote or demote. Demoting an admin is the owner's alone (admin_admin),
 * and the owner is never demoted.
 */
export async function setAdmin(ctx: ServiceContext, viewer: Viewer, { nameOrId, userId, makeAdmin }: GroupUserCall & { makeAdmin: boolean }): Promise<void> {
  const trx = ctx.db;
  const actorId = viewer.id;
  const group = await loadGroupForChange(trx, nameOrId);
  const actor = await requireAdmin(trx, group, actorId, 'need_admin');
  const target = await loadTarget(trx, userId);
  const membership = await membershipOf(trx, group.id, target.id);
  if (membership.banned) throw conflict('admin_banned');
  if (!membership.role) throw notFound('isnt_member');
  if (makeAdmin) {
    if (isAdminRole(membership.role)) throw conflict('already_admin');
    if (!(await repo.changeRole(trx, group.id, target.id, 'member', 'admin'))) throw conflict('already_admin');
    await publishEvent(ctx, 'group.admin_granted', { groupId: group.id, actorId, userId: target.id });
  } else {
    if (membership.role === 'member') throw conflict('isnt_admin');
    if (membership.role === 'owner' || actor.role !== 'owner') throw forbidden('admin_admin');
    if (!(await repo.changeRole(trx, group.id, target.id, 'admin', 'member'))) throw conflict('isnt_admin');
    await publishEvent(ctx, 'group.admin_revoked', { groupId: group.id, actorId, userId: target.id });
  }
}

/**
 * Hands the group to another member (the owner's call alone). The target must be a member and not
 * banned, with the keys make-admin answers; the previous owner stays on as an admin.
 */
export async function transferOwnership(ctx: ServiceContext, viewer: Viewer, { nameOrId, userId }: GroupUserCall): Promise<void> {
  const trx = ctx.db;
  const group = await loadGroupForChange(trx, nameOrId);
  if (group.owner_id !== viewer.id) throw forbidden('need_owner');
  const target = await loadTarget(trx, userId);
  const membership = await membershipOf(trx, group.id, target.id);
  if (membership.banned) throw conflict('admin_banned');
  if (!membership.role) throw notFound('isnt_member');
  if (membership.role === 'owner') throw conflict('already_admin');
  await passOwnership(ctx, group, target.id, viewer.id);
}

/**
 * Ban (also of a non-member, e.g. a post's author in a public group) or unban. Never the owner
 * (ban_owner); an admin is banned by the owner only (admin_admin). A ban ends the membership and
 * any pending request.
 */
export async function setBan(ctx: ServiceContext, viewer: Viewer, { nameOrId, userId, ban }: GroupUserCall & { ban: boolean }): Promise<void> {
  const trx = ctx.db;
  const group = await loadGroupForChange(trx, nameOrId);
  const actor = await requireAdmin(trx, group, viewer.id, 'admin_ban');
  const target = await loadTarget(trx, userId);
  const now = Date.now();
  if (ban) {
    const membership = await membershipOf(trx, group.id, target.id);
    if (membership.role === 'owner' || group.owner_id === target.id) throw forbidden('ban_owner');
    if (membership.role === 'admin' && actor.role !== 'owner') throw forbidden('admin_admin');
    if (!(await repo.insertUserRow(trx, 'group_bans', group.id, target.id, now))) throw conflict('already_banned');
    const wasMember = await repo.deleteMember(trx, group.id, target.id);
    await repo.deleteUserRow(trx, 'group_requests', group.id, target.id);
    await repo.adjustCounts(trx, group.id, { bans: 1, members: wasMember ? -1 : 0 });
  } else {
    if (!(await repo.deleteUserRow(trx, 'group_bans', group.id, target.id))) throw conflict('not_banned');
    await repo.adjustCounts(trx, group.id, { bans: -1 });
  }
}

export async function setNotificationLevel(ctx: ServiceContext, viewer: Viewer, { groupId, level }: { groupId: string; level: number }): Promise<number> {
  const group = await loadGroupById(ctx.db, groupId);
  if (!(await repo.setLevel(ctx.db, group.id, viewer.id, level))) throw forbidden('not_member');
  return level;
}

// ---- Posts in the group ----------------------------------------------------------------------

export async function pinPost(ctx: ServiceContext, viewer: Viewer, { nameOrId, postId }: { nameOrId: string; postId: string }): Promise<void> {
  const trx = ctx.db;
  const group = await loadGroup(trx, nameOrId);
  await requireAdmin(trx, group, viewer.id, 'admin_pin');
  if (!isId(postId)) throw badRequest('invalid_post');
  if (!(await postExists(trx, postId))) throw notFound('didnt_find_post');
  if (!(await isPostInGroup(trx, group.id, postId))) throw badRequest('invalid_post');
  await repo.setPinned(trx, group.id, postId);
}

export async function unpinPost(ctx: ServiceContext, viewer: Viewer, nameOrId: string): Promise<void> {
  const group = await loadGroup(ctx.db, nameOrId);
  await requireAdmin(ctx.db, group, viewer.id, 'admin_pin');
  if (!group.pinned_post_id) throw notFound('no_pinned');
  await repo.setPinned(ctx.db, group.id, null);
}

/**
 * Removes a post from the group (admins). In a public group the post stays, untagged. In a
 * private group it is deleted: untagging would publish what was written for members only.
 * Answers media keys to remove once committed.
 */
export async function removePost(ctx: ServiceContext, viewer: Viewer, { groupId, postId }: { groupId: string; postId: string }): Promise<string[]> {
  const trx = ctx.db;
  const group = await loadGroupById(trx, groupId);
  await requireAdmin(trx, group, viewer.id, 'need_admin');
  if (!isId(postId)) throw badRequest('invalid_post');
  if (!(await untagPostFromGroup(trx, group.id, postId))) throw notFound('didnt_find_post');
  // A private group's post is deleted: untagged it would be readable by a wider audience than its
  // author wrote it for.
  return group.is_private ? deletePostsWithMedia(trx, [postId], ctx.app) : [];
}

/** POST /upload/gp/{groupId}: who may replace the avatar (admins). */
export async function groupForAvatar(ctx: ServiceContext, viewer: Viewer, groupId: string): Promise<repo.GroupRecord> {
  const group = await loadGroupById(ctx.db, groupId);
  await requireAdmin(ctx.db, group, viewer.id, 'need_admin');
  return group;
}
