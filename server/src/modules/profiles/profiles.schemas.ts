import { type Static, Type } from '@sinclair/typebox';

/** User list item (001 §3): pfp is the user id; follows/notify are the caller's follow of them. */
export const UserListItem = Type.Object({
  _id: Type.String(),
  pfp: Type.String(),
  username: Type.String(),
  follows: Type.Boolean(),
  notify: Type.Boolean(),
});
export type UserListItem = Static<typeof UserListItem>;

export const UserListReply = Type.Object({
  userList: Type.Array(UserListItem),
  logged: Type.Boolean(),
  hasMore: Type.Boolean(),
});
export type UserListReply = Static<typeof UserListReply>;

/** Group list item (001 §3): gp is the group id (its avatar key). */
export const GroupListItem = Type.Object({ _id: Type.String(), gp: Type.String(), name: Type.String() });
export type GroupListItem = Static<typeof GroupListItem>;

export const GroupListReply = Type.Object({
  groupList: Type.Array(GroupListItem),
  logged: Type.Boolean(),
  hasMore: Type.Boolean(),
});
export type GroupListReply = Static<typeof GroupListReply>;

export const Profile = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  bio: Type.String(),
  pfp: Type.String(),
  createdAt: Type.Number(),
  followers: Type.Integer(),
  following: Type.Integer(),
  groups: Type.Integer(),
  itsme: Type.Boolean(),
  logged: Type.Boolean(),
  follows: Type.Boolean(),
  notify: Type.Boolean(),
  logFollows: Type.Boolean(),
  isGoogle: Type.Boolean(),
  email: Type.Optional(Type.String()),
});
export type Profile = Static<typeof Profile>;

export const ProfileReply = Type.Object({ user: Profile });

export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1 }) });
export const NameReply = Type.Object({ name: Type.String() });
