import { type Static, Type } from '@sinclair/typebox';
import { PageQuery } from '../../lib/paging';
import { GroupRef, GroupUserItem, Id, userListReply } from '../../lib/schemas';

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

export const GroupSavedReply = Type.Object({ group: GroupRef, message: Type.String() });

/**
 * The Group as the caller sees it. `admin` is true for the owner as well; `pinnedPost`
 * is null when nothing is pinned or the caller may not see the pinned post; `notification` is the
 * caller's per-group level (0 all, 1 essential, 2 none), null for non-members.
 */
export const GroupSchema = Type.Object({
  _id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  gp: Type.String(),
  gpUrl: Type.String(),
  private: Type.Boolean(),
  requestJoin: Type.Boolean(),
  everyoneCanPost: Type.Boolean(),
  members: Type.Integer(),
  bans: Type.Integer(),
  pinnedPost: Type.Union([Type.String(), Type.Null()]),
  member: Type.Boolean(),
  banned: Type.Boolean(),
  owner: Type.Boolean(),
  admin: Type.Boolean(),
  logged: Type.Boolean(),
  canUserPost: Type.Boolean(),
  requested: Type.Boolean(),
  createdAt: Type.Number(),
  notification: Type.Union([Type.Integer(), Type.Null()]),
});
export type GroupView = Static<typeof GroupSchema>;
export const GroupReply = Type.Object({ group: GroupSchema });

/** Members and banned lists; `group.admin` / `group.owner` are the caller's rights there. */
export const GroupUserListReply = Type.Composite([
  userListReply(GroupUserItem),
  Type.Object({ group: Type.Object({ _id: Type.String(), name: Type.String(), admin: Type.Boolean(), owner: Type.Boolean() }) }),
]);

/** A group named in the path by name (or id); ids in the path are checked by the schema. */
const GroupName = Type.String({ minLength: 1, maxLength: 200 });
export const NameParams = Type.Object({ name: GroupName });
export type NameParams = Static<typeof NameParams>;
export const UserActionParams = Type.Object({ name: GroupName, pfp: Id });
export type UserActionParams = Static<typeof UserActionParams>;
export const PinParams = Type.Object({ name: GroupName, postId: Id });
export const GroupPostParams = Type.Object({ groupId: Id, postId: Id });

export const ListQuery = PageQuery;
export type ListQuery = Static<typeof ListQuery>;

export const NotificationBody = Type.Object({
  notification: Type.Union([Type.Literal(0), Type.Literal(1), Type.Literal(2)]),
});
export const NotificationReply = Type.Object({ notification: Type.Integer() });
