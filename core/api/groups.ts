import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { GroupIdParams, GroupRef, GroupUserItem, Id, MessageReplies, NameReply, Nullable, PathText, fieldsOf, pageEntry, userListReply } from './common.js';
import { endpoint, readEntry } from './endpoint.js';
import { postListEntry } from './feeds.js';
import { Post } from './posts.js';
import { GroupAdminActionBody, ModerationLogReply, ReportListReply } from './reports.js';

/**
 * Create and update share one body. Lengths are checked by the shared validation rules
 * (so the answer names the broken rule); the caps here only bound what is parsed. On update, a
 * flag left out keeps its current value.
 */
export const GroupBody = Type.Object({
  name: Type.String({ maxLength: 1000 }),
  description: Type.Optional(Type.String({ maxLength: 10_000 })),
  isPrivate: Type.Optional(Type.Boolean()),
  requestJoin: Type.Optional(Type.Boolean()),
  everyoneCanPost: Type.Optional(Type.Boolean()),
});
export type GroupBody = Static<typeof GroupBody>;

/** The saved group (id and name, the name as stored) and what was done. */
export const GroupSavedReply = Type.Object({ group: GroupRef, message: Type.String() });
export type GroupSavedReply = Static<typeof GroupSavedReply>;

/**
 * The Group as the caller sees it. `admin` is true for the owner as well; `pinnedPost`
 * is null when nothing is pinned or the caller may not see the pinned post; `notification` is the
 * caller's per-group level (0 all, 1 essential, 2 none), null for non-members. gp is the group id
 * (its avatar key), gpUrl the avatar at its version.
 */
export const Group = Type.Object({
  ...fieldsOf(Type.String(), '_id', 'name', 'description', 'gp', 'gpUrl'),
  ...fieldsOf(Type.Boolean(), 'private', 'requestJoin', 'everyoneCanPost'),
  ...fieldsOf(Type.Integer(), 'members', 'bans'),
  pinnedPost: Nullable(Type.String()),
  ...fieldsOf(Type.Boolean(), 'member', 'banned', 'owner', 'admin', 'logged', 'canUserPost', 'requested'),
  createdAt: Type.Number(),
  notification: Nullable(Type.Integer()),
});
export type Group = Static<typeof Group>;
export const GroupReply = Type.Object({ group: Group });

/** Members and banned lists; `group.admin` / `group.owner` are the caller's rights there. */
export const GroupUserListReply = userListReply(
  GroupUserItem,
  Type.Object({ _id: Type.String(), name: Type.String(), admin: Type.Boolean(), owner: Type.Boolean() }),
);
export type GroupUserListReply = Static<typeof GroupUserListReply>;

/** A group named in the path by name (or id); ids in the path are checked by the schema. */
export const GroupNameParams = Type.Object({ name: PathText });
/** An admin's or owner's call on one user of the group; pfp is the user's id. */
export const GroupUserParams = Type.Object({ name: PathText, pfp: Id });
export type GroupUserParams = Static<typeof GroupUserParams>;
export const GroupPinParams = Type.Object({ name: PathText, postId: Id });
export const GroupPostParams = Type.Object({ groupId: Id, postId: Id });
export const GroupReportParams = Type.Object({ name: PathText, reportId: Id });

/** The caller's notification level in the group: 0 all, 1 essential, 2 none. */
export const GroupNotificationBody = Type.Object({
  notification: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
});
export const GroupNotificationReply = Type.Object({ notification: Type.Integer() });

/** Keys the shared name and description rules answer (see validateGroupName, validateDescription). */
const GROUP_BODY_ERRORS = [
  'new_groupname',
  'groupname_characters',
  'min_groupname_length',
  'max_groupname_length',
  'group_and',
  'groupname_reserved',
  'groupname_profanity',
  'max_desc_length',
  'max_desc_lines',
] as const;

/** A call on the group named in the path that answers its message (join, leave, request, withdraw, unpin). */
const onGroup = { params: GroupNameParams, replies: MessageReplies } as const;
/** An admin's or owner's call on one user of the group, answering its message. */
const onGroupUser = { params: GroupUserParams, replies: MessageReplies } as const;
/** A page of the group's users (members, banned, requests), with the caller's rights there. */
const groupUsersEntry = { params: GroupNameParams, ...pageEntry(GroupUserListReply) } as const;
/** A page of the group's own moderation (its reports, its actions), for its owner and admins. */
const groupModerationPage = <R extends TSchema>(reply: R) =>
  ({ params: GroupNameParams, ...pageEntry(reply), errors: ['didnt_find_group', 'need_admin'] }) as const;

/** Refusals of a call on a user's join request (accept, deny). */
const JOIN_REQUEST_ERRORS = ['didnt_find_group', 'admin_accept', 'didnt_find_user', 'user_banned', 'user_member', 'hasnt_requested'] as const;
/** Refusals of a call on a member's role besides the caller's rights (admin, deadmin, owner). */
const MEMBER_ERRORS = ['didnt_find_user', 'admin_banned', 'isnt_member'] as const;

/** The body create and update take, and the key a body the schema refuses answers. */
const groupBodyEntry = { body: GroupBody, invalidKey: 'invalid_group' } as const;

/** What the update call takes and answers: it is served at PATCH and at POST alike. */
const updateEntry = {
  path: '/group/:groupId/update',
  params: GroupIdParams,
  ...groupBodyEntry,
  replies: { 200: GroupSavedReply },
  errors: ['didnt_find_group', 'need_admin', 'need_owner', 'groupname_taken', ...GROUP_BODY_ERRORS],
} as const;

/** The groups calls of the API (see endpoint.ts for how an entry is read). */
export const groupsApi = {
  posts: endpoint({
    method: 'GET',
    path: '/group/:name/posts',
    summary: "A group's posts (a private group's only for its members)",
    params: GroupNameParams,
    ...postListEntry,
    errors: ['didnt_find_group', 'not_member'],
  }),
  create: endpoint({
    method: 'POST',
    path: '/group',
    summary: 'Create a group, the caller its owner (send an Idempotency-Key so a retry is applied once)',
    ...groupBodyEntry,
    replies: { 201: GroupSavedReply },
    errors: ['max_groups', 'groupname_taken', 'idempotency_mismatch', ...GROUP_BODY_ERRORS],
  }),
  update: endpoint({
    method: 'PATCH',
    summary: "Change a group's name, description and settings (admins; its privacy the owner's)",
    ...updateEntry,
  }),
  updateByPost: endpoint({
    method: 'POST',
    summary: "Change a group's name, description and settings: the update call, served at POST as well",
    ...updateEntry,
  }),
  delete: endpoint({
    method: 'DELETE',
    path: '/group/:groupId',
    summary: 'Delete a group (its owner); a private group takes its posts with it',
    params: GroupIdParams,
    replies: MessageReplies,
    errors: ['didnt_find_group', 'owner_delete'],
  }),
  get: readEntry('/group/:name', 'The group as the caller sees it, by name or id', GroupNameParams, GroupReply, ['didnt_find_group']),
  name: readEntry('/group/:groupId/name', "A group's current name, by id", GroupIdParams, NameReply, ['didnt_find_group']),
  pinned: readEntry('/group/:name/pinned', "The group's pinned post as its card", GroupNameParams, Post, ['didnt_find_group', 'not_member', 'no_pinned', 'didnt_find_pinned']),
  members: endpoint({
    method: 'GET',
    path: '/group/:name/members',
    summary: "A page of the group's members (a private group's for its members)",
    ...groupUsersEntry,
    errors: ['didnt_find_group', 'not_member'],
  }),
  banned: endpoint({
    method: 'GET',
    path: '/group/:name/banned',
    summary: "A page of the group's banned users (admins)",
    ...groupUsersEntry,
    errors: ['didnt_find_group', 'need_admin', 'not_member'],
  }),
  requests: endpoint({
    method: 'GET',
    path: '/group/:name/requests',
    summary: "A page of the users asking to join the group, oldest request first (admins)",
    ...groupUsersEntry,
    errors: ['didnt_find_group', 'need_admin', 'not_member'],
  }),
  join: endpoint({
    method: 'PUT',
    path: '/group/:name/join',
    summary: 'Join a group that admits without a request',
    ...onGroup,
    errors: ['didnt_find_group', 'banned', 'already_member', 'need_request', 'group_action_limit'],
  }),
  leave: endpoint({
    method: 'DELETE',
    path: '/group/:name/leave',
    summary: 'Leave a group (not its owner, who deletes it instead)',
    ...onGroup,
    errors: ['didnt_find_group', 'not_member', 'owner_delete', 'group_action_limit'],
  }),
  request: endpoint({
    method: 'POST',
    path: '/group/:name/request',
    summary: 'Ask to join a group that admits by request',
    ...onGroup,
    errors: ['didnt_find_group', 'banned', 'already_member', 'no_request', 'already_requested', 'group_action_limit'],
  }),
  withdraw: endpoint({
    method: 'DELETE',
    path: '/group/:name/request',
    summary: "Withdraw the caller's own pending join request",
    ...onGroup,
    errors: ['didnt_find_group', 'no_pending_request', 'group_action_limit'],
  }),
  accept: endpoint({
    method: 'POST',
    path: '/group/:name/accept/:pfp',
    summary: "Accept a user's join request (admins)",
    ...onGroupUser,
    errors: JOIN_REQUEST_ERRORS,
  }),
  deny: endpoint({
    method: 'POST',
    path: '/group/:name/deny/:pfp',
    summary: "Deny a user's join request (admins)",
    ...onGroupUser,
    errors: JOIN_REQUEST_ERRORS,
  }),
  admin: endpoint({
    method: 'PATCH',
    path: '/group/:name/admin/:pfp',
    summary: 'Make a member an admin (admins)',
    ...onGroupUser,
    errors: ['didnt_find_group', 'need_admin', ...MEMBER_ERRORS, 'already_admin'],
  }),
  deadmin: endpoint({
    method: 'PATCH',
    path: '/group/:name/deadmin/:pfp',
    summary: "Revoke an admin's rights (the owner)",
    ...onGroupUser,
    errors: ['didnt_find_group', 'need_admin', ...MEMBER_ERRORS, 'isnt_admin', 'admin_admin'],
  }),
  ban: endpoint({
    method: 'PUT',
    path: '/group/:name/ban/:pfp',
    summary: 'Ban a user from the group, ending their membership and request (admins; an admin by the owner)',
    ...onGroupUser,
    errors: ['didnt_find_group', 'admin_ban', 'didnt_find_user', 'ban_owner', 'admin_admin', 'already_banned'],
  }),
  unban: endpoint({
    method: 'PUT',
    path: '/group/:name/unban/:pfp',
    summary: 'Lift a ban (admins)',
    ...onGroupUser,
    errors: ['didnt_find_group', 'admin_ban', 'didnt_find_user', 'not_banned'],
  }),
  owner: endpoint({
    method: 'PATCH',
    path: '/group/:name/owner/:pfp',
    summary: 'Hand the group to a member (the owner, who stays an admin)',
    ...onGroupUser,
    errors: ['didnt_find_group', 'need_owner', ...MEMBER_ERRORS, 'already_admin'],
  }),
  pin: endpoint({
    method: 'PUT',
    path: '/group/:name/pin/:postId',
    summary: "Pin one of the group's posts, replacing the pinned one (admins)",
    params: GroupPinParams,
    replies: MessageReplies,
    errors: ['didnt_find_group', 'admin_pin', 'didnt_find_post', 'invalid_post'],
  }),
  unpin: endpoint({
    method: 'PUT',
    path: '/group/:name/unpin',
    summary: "Unpin the group's pinned post (admins)",
    ...onGroup,
    errors: ['didnt_find_group', 'admin_pin', 'no_pinned'],
  }),
  removePost: endpoint({
    method: 'DELETE',
    path: '/group/:groupId/p/:postId',
    summary: 'Take a post out of the group (admins); in a private group the post is deleted',
    params: GroupPostParams,
    replies: MessageReplies,
    errors: ['didnt_find_group', 'need_admin', 'didnt_find_post'],
  }),
  notification: endpoint({
    method: 'PATCH',
    path: '/group/:groupId/notification',
    summary: "Set the caller's notification level in the group (members)",
    params: GroupIdParams,
    body: GroupNotificationBody,
    replies: { 200: GroupNotificationReply },
    // A level outside all, essential and none is a setting that is not allowed.
    invalidKey: 'invalid_settings',
    errors: ['didnt_find_group', 'not_member'],
  }),
  // The group's own moderation: reports of its posts, for its owner and admins.
  reportQueue: endpoint({
    method: 'GET',
    path: '/group/:name/reports',
    summary: "Open reports of posts in the group, newest first (the group's owner and admins)",
    ...groupModerationPage(ReportListReply),
  }),
  actOnReport: endpoint({
    method: 'POST',
    path: '/group/:name/reports/:reportId',
    summary: "Settle a report of a post in the group: remove the post from it, ban its author there, or dismiss (the group's owner and admins)",
    params: GroupReportParams,
    body: GroupAdminActionBody,
    replies: MessageReplies,
    invalidKey: 'invalid_moderation_action',
    errors: ['didnt_find_group', 'need_admin', 'report_not_found', 'invalid_moderation_action', 'own_report', 'didnt_find_post', 'admin_ban', 'didnt_find_user', 'ban_owner', 'admin_admin', 'already_banned'],
  }),
  reportLog: endpoint({
    method: 'GET',
    path: '/group/:name/reports/log',
    summary: "The group's moderation actions, newest first (the group's owner and admins)",
    ...groupModerationPage(ModerationLogReply),
  }),
} as const;
