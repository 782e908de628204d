import { type Static, Type } from '@sinclair/typebox';
import { CommentList } from './comments.js';
import { GroupListReply, NO_GROUP, NameReply, PathText, RemoteOrigin, UserIdParams, UserListReply, listingEntry, pageEntry } from './common.js';
import { endpoint } from './endpoint.js';
import { postListEntry } from './feeds.js';

/**
 * A user's profile.
 * - pfp is the user's id (the avatar key); pfpUrl the avatar at its version.
 * - createdAt: epoch milliseconds.
 * - followers, following, groups: how many.
 * - itsme: the profile is the caller's own; logged: the caller is signed in.
 * - follows, notify: the caller follows the user, and is notified of their posts;
 *   logFollows: the user follows the caller.
 * - isGoogle: the account signs in with Google.
 * - email: only on the caller's own profile.
 * - admin, owner, banned: the user's standing in the group named by the call's `group` parameter
 *   (admin is true for the owner as well); all false without one, or when the caller may not see
 *   that group's members. banned is told only to the group's admins and to the user themself.
 */
export const Profile = Type.Object({
  _id: Type.String(),
  username: Type.String(),
  bio: Type.String(),
  pfp: Type.String(),
  pfpUrl: Type.String(),
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
  admin: Type.Boolean(),
  owner: Type.Boolean(),
  banned: Type.Boolean(),
  email: Type.Optional(Type.String()),
  /** A remote account (`name@host`): its server and its page there (see RemoteOrigin). */
  remote: Type.Optional(RemoteOrigin),
});
export type Profile = Static<typeof Profile>;

export const ProfileReply = Type.Object({ user: Profile });
export type ProfileReply = Static<typeof ProfileReply>;

/** A user name in the path; an unknown one answers user_not_found. */
export const UsernameParams = Type.Object({ username: Type.String({ minLength: 1 }) });
export type UsernameParams = Static<typeof UsernameParams>;

/** The group (its name or id) whose standing the profile's admin, owner and banned tell; blank names none. */
export const ProfileQuery = Type.Object({ group: Type.Optional(Type.String({ maxLength: 200 })) });
export type ProfileQuery = Static<typeof ProfileQuery>;

/** The profiles calls of the API (see endpoint.ts for how an entry is read). */
export const profilesApi = {
  user: endpoint({
    method: 'GET',
    path: '/profile/user/:username',
    summary: "A user's profile, with the caller's follow of the user",
    description:
      'admin, owner and banned are the user\'s standing in the group named by `group` (its name or id; admin is true ' +
      'for the owner as well). Without `group`, for a group that does not exist, or for a private group the caller ' +
      'is not a member of, all three are false: a private group\'s standing is only told to its members. banned ' +
      'is told only to the group\'s admins and to the user themself, as the banned list is.',
    params: UsernameParams,
    query: ProfileQuery,
    replies: { 200: ProfileReply },
    errors: ['user_not_found'],
  }),
  followers: endpoint({
    method: 'GET',
    path: '/profile/user/:username/followers',
    description: NO_GROUP,
    summary: "A user's followers, page by page",
    params: UsernameParams,
    ...pageEntry(UserListReply),
    errors: ['user_not_found'],
  }),
  following: endpoint({
    method: 'GET',
    path: '/profile/user/:username/following',
    description: NO_GROUP,
    summary: 'The users a user follows, page by page',
    params: UsernameParams,
    ...pageEntry(UserListReply),
    errors: ['user_not_found'],
  }),
  groups: endpoint({
    method: 'GET',
    path: '/profile/user/:username/groups',
    summary: 'The groups a user belongs to (group names are public, so private groups too)',
    params: UsernameParams,
    ...pageEntry(GroupListReply),
    errors: ['user_not_found'],
  }),
  posts: endpoint({
    method: 'GET',
    path: '/profile/posts/:username',
    summary: "A user's posts the caller may see",
    params: Type.Object({ username: PathText }),
    ...postListEntry,
    errors: ['user_not_found'],
  }),
  comments: endpoint({
    method: 'GET',
    path: '/profile/comments/:userId',
    summary: "A user's comments on posts the caller may see",
    params: UserIdParams,
    ...listingEntry(CommentList),
    errors: [],
  }),
  username: endpoint({
    method: 'GET',
    path: '/profile/:userId/username',
    summary: "A user's current name by id (the search history keeps ids)",
    params: UserIdParams,
    replies: { 200: NameReply },
    errors: ['user_not_found'],
  }),
} as const;
