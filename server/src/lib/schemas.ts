import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { ID_PATTERN } from './ids';

/** JSON-schema pieces every module's route schemas share. */
export const Id = Type.String({ pattern: ID_PATTERN });
export const IdParams = Type.Object({ id: Id });

/**
 * Path ids named by their kind: a malformed one answers that kind's key (plugins/errors.ts
 * PARAM_KEYS), e.g. invalid_group_id for groupId.
 */
export const GroupIdParams = Type.Object({ groupId: Id });
export const PostIdParams = Type.Object({ postId: Id });
export const CommentIdParams = Type.Object({ commentId: Id });
export const UserIdParams = Type.Object({ userId: Id });

/** A name or tag in the path, taken as given: the lookup behind it decides whether it exists. */
export const PathText = Type.String({ minLength: 1, maxLength: 200 });

/** `{message: "error/..."}` or `{message: "info/..."}`. */
export const MessageReply = Type.Object({ message: Type.String() });
export const ErrorReplies = {
  400: MessageReply,
  401: MessageReply,
  403: MessageReply,
  404: MessageReply,
  409: MessageReply,
  422: MessageReply,
  429: MessageReply,
} as const;

/** Body of a like call: absent toggles the caller's like, `{liked}` sets that state (an offline retry). */
export const LikeBody = Type.Optional(Type.Union([Type.Object({ liked: Type.Optional(Type.Boolean()) }), Type.Null()]));
export const LikeReply = Type.Object({ likes: Type.Integer(), liked: Type.Boolean() });

/** GET /profile/{id}/username and GET /group/{id}/name. */
export const NameReply = Type.Object({ name: Type.String() });

/** A group as a post tag or a saved group's answer: id and current name. */
export const GroupRef = Type.Object({ _id: Type.String(), name: Type.String() });

/** What every user list item carries: pfp is the user id (the avatar key), pfpUrl the avatar at its version. */
const UserRefProperties = { _id: Type.String(), pfp: Type.String(), pfpUrl: Type.String(), username: Type.String() };

/** A user list item with the caller's follow of the user (search, followers, following). */
export const UserListItem = Type.Object({ ...UserRefProperties, follows: Type.Boolean(), notify: Type.Boolean() });
export type UserListItem = Static<typeof UserListItem>;

/** A user list item of a group's members or banned list, with the user's standing there. */
export const GroupUserItem = Type.Object({ ...UserRefProperties, admin: Type.Boolean(), owner: Type.Boolean(), banned: Type.Boolean() });
export type GroupUserItem = Static<typeof GroupUserItem>;

/** `{userList, logged, hasMore}` of every user list; a group's lists add `group`. */
export function userListReply<T extends TSchema>(item: T) {
  return Type.Object({ userList: Type.Array(item), logged: Type.Boolean(), hasMore: Type.Boolean() });
}

export const UserListReply = userListReply(UserListItem);
export type UserListReply = Static<typeof UserListReply>;

/** Group list item: gp is the group id (its avatar key), gpUrl the avatar at its version. */
export const GroupListItem = Type.Object({ _id: Type.String(), gp: Type.String(), gpUrl: Type.String(), name: Type.String() });
export type GroupListItem = Static<typeof GroupListItem>;

export const GroupListReply = Type.Object({
  groupList: Type.Array(GroupListItem),
  logged: Type.Boolean(),
  hasMore: Type.Boolean(),
});
export type GroupListReply = Static<typeof GroupListReply>;
