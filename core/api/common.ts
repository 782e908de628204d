import { type Static, type TArray, type TBoolean, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox';
import type { ServerErrorKey } from '../errors.js';
import { SORTS, TIMES } from '../listing.js';
import { endpoint } from './endpoint.js';
import { ID_PATTERN } from '../validation.js';

/** Pieces of the API contract that many calls share. */
export const Id = Type.String({ pattern: ID_PATTERN });
export const IdParams = Type.Object({ id: Id });

/**
 * Path ids named by their kind: a malformed one answers that kind's key (the server's errors plugin,
 * PARAM_KEYS), e.g. invalid_group_id for groupId.
 */
export const GroupIdParams = Type.Object({ groupId: Id });
export const PostIdParams = Type.Object({ postId: Id });
export const CommentIdParams = Type.Object({ commentId: Id });
export const UserIdParams = Type.Object({ userId: Id });

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * `{[name]: schema}` for each name: the fields of an entity that share one type (a relationship's
 * flags, the addresses a server describes itself by), listed once with that type.
 */
export function fieldsOf<T extends TSchema, const K extends string>(schema: T, ...names: readonly K[]): { [P in K]: T } {
  return Object.fromEntries(names.map((name) => [name, schema])) as { [P in K]: T };
}

/** A name or tag in the path, taken as given: the lookup behind it decides whether it exists. */
export const PathText = Type.String({ minLength: 1, maxLength: 200 });

/** `{message: "error/..."}` or `{message: "info/..."}`. */
export const MessageReply = Type.Object({ message: Type.String() });
export type MessageReply = Static<typeof MessageReply>;
export const ErrorReplies = {
  400: MessageReply,
  401: MessageReply,
  403: MessageReply,
  404: MessageReply,
  409: MessageReply,
  422: MessageReply,
  429: MessageReply,
} as const;

/** The success answer of a call that answers only its message (`{message: "info/..."}`). */
export const MessageReplies = { 200: MessageReply } as const;

/** `{message, ...fields}`: a change's message with what it left (the stored name, the new URL...). */
export const messageWith = <P extends TProperties>(fields: P) => Type.Object({ message: Type.String(), ...fields });

/** Body of a like call: absent toggles the caller's like, `{liked}` sets that state (an offline retry). */
export const LikeBody = Type.Optional(Type.Union([Type.Object({ liked: Type.Optional(Type.Boolean()) }), Type.Null()]));
export const LikeReply = Type.Object({ likes: Type.Integer(), liked: Type.Boolean() });
export type LikeReply = Static<typeof LikeReply>;

/** Query and answer of a like call (a post's or a comment's). */
export const likeEntry = { body: LikeBody, replies: { 200: LikeReply } } as const;

/** GET /profile/{id}/username and GET /group/{id}/name. */
export const NameReply = Type.Object({ name: Type.String() });

/** A group as a post tag or a saved group's answer: id and current name. */
export const GroupRef = Type.Object({ _id: Type.String(), name: Type.String() });

/**
 * Where a remote account's post, comment or profile comes from: the server's host (`other.example`)
 * and the original's page there (null when it names none). Null for everything made here. Optional
 * in the replies that carry it only for what a client cached before federation; always sent.
 */
export const RemoteOrigin = Type.Union([Type.Object({ host: Type.String(), url: Type.Union([Type.String(), Type.Null()]) }), Type.Null()]);
export type RemoteOrigin = Static<typeof RemoteOrigin>;

/** What every user list item carries: pfp is the user id (the avatar key), pfpUrl the avatar at its version. */
export const UserRefProperties = { _id: Type.String(), pfp: Type.String(), pfpUrl: Type.String(), username: Type.String() };

/** A user list item with the caller's follow of the user (search, followers, following). */
export const UserListItem = Type.Object({ ...UserRefProperties, follows: Type.Boolean(), notify: Type.Boolean() });
export type UserListItem = Static<typeof UserListItem>;

/** A user list item of a group's members or banned list, with the user's standing there. */
export const GroupUserItem = Type.Object({ ...UserRefProperties, admin: Type.Boolean(), owner: Type.Boolean(), banned: Type.Boolean() });
export type GroupUserItem = Static<typeof GroupUserItem>;

/**
 * `{userList, logged, hasMore, group}` of every user list. `group` is the group whose list it is
 * (a group's members and banned lists) and null for the others (search, followers, following).
 */
export function userListReply<T extends TSchema, G extends TSchema>(item: T, group: G) {
  return Type.Object({ userList: Type.Array(item), logged: Type.Boolean(), hasMore: Type.Boolean(), group });
}

/** The description of a user list that is no group's (search, followers, following). */
export const NO_GROUP = "`group` is null: the list is no group's (a group's members and banned lists name theirs).";

/** A user list that is no group's: `group` is null. */
export const UserListReply = userListReply(UserListItem, Type.Null());
export type UserListReply = Static<typeof UserListReply>;

/** What every group list item carries: gp is the group id (its avatar key), gpUrl the avatar at its version. */
export const GroupRefProperties = { _id: Type.String(), gp: Type.String(), gpUrl: Type.String(), name: Type.String() };

export const GroupListItem = Type.Object(GroupRefProperties);
export type GroupListItem = Static<typeof GroupListItem>;

export const GroupListReply = Type.Object({
  groupList: Type.Array(GroupListItem),
  logged: Type.Boolean(),
  hasMore: Type.Boolean(),
});
export type GroupListReply = Static<typeof GroupListReply>;

/**
 * The furthest page a list serves: far past any real scroll, and small enough that its offset
 * stays an ordinary integer for both databases.
 */
export const MAX_PAGE = 1_000_000;
/** The latest moment a JavaScript Date can hold (epoch ms); a later `before` names no time. */
export const MAX_TIME = 8_640_000_000_000_000;

/**
 * Query parameters shared by every paged list: page is 1-based (0 is read as 1), limit is capped
 * at LIMITS.maxPageSize (see pageWindow), and `before` (epoch ms) pins a listing to the moment
 * its first page was read, so items arriving meanwhile do not shift later pages. A page or moment
 * outside its range (1e308, 20-digit numbers) is refused by the schema rather than reaching SQL;
 * Infinity is refused by the errors plugin.
 */
export const PageQuery = Type.Object({
  page: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_PAGE, default: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1 })),
  query: Type.Optional(Type.String({ maxLength: 200 })),
  before: Type.Optional(Type.Integer({ minimum: 0, maximum: MAX_TIME })),
});
export type PageQuery = Static<typeof PageQuery>;

export const ListingQuery = Type.Composite([
  PageQuery,
  Type.Object({
    sort: Type.Optional(Type.Union(SORTS.map((s) => Type.Literal(s)))),
    time: Type.Optional(Type.Union(TIMES.map((t) => Type.Literal(t)))),
  }),
]);
export type ListingQuery = Static<typeof ListingQuery>;

/** Query and answer of a paged list: the page query and the page it answers. */
export const pageEntry = <R extends TSchema>(reply: R) => ({ query: PageQuery, replies: { 200: reply } }) as const;

/** A list only the instance's moderators read, page by page (see pageEntry). */
export const moderatorsList = <const P extends string, R extends TSchema>(path: P, summary: string, reply: R) =>
  endpoint({ method: 'GET', path, summary, ...pageEntry(reply), errors: ['moderators_only'] });

/**
 * A change only the instance's moderators make, answering its message: `key` is its refusal of
 * what it cannot take, and the answer to a request the schema refuses.
 */
export const moderatorsChange = <const K extends ServerErrorKey>(key: K) =>
  ({ replies: MessageReplies, invalidKey: key, errors: ['moderators_only', key] }) as const;

/** Query and answer of a sorted list (posts, comments): the listing query and the page it answers. */
export const listingEntry = <R extends TSchema>(reply: R) => ({ query: ListingQuery, replies: { 200: reply } }) as const;

/** `{[key]: items}`: a whole list, answered at once (no pages). */
export function listOf<K extends string, T extends TSchema>(key: K, item: T): TObject<{ [P in K]: TArray<T> }> {
  return Type.Object({ [key]: Type.Array(item) } as { [P in K]: TArray<T> });
}

/** `{[key]: items, hasMore}`: one page of a list, and whether a page after it has anything. */
export function pageOf<K extends string, T extends TSchema>(key: K, item: T): TObject<{ [P in K]: TArray<T> } & { hasMore: TBoolean }> {
  return Type.Object({ [key]: Type.Array(item), hasMore: Type.Boolean() } as { [P in K]: TArray<T> } & { hasMore: TBoolean });
}
