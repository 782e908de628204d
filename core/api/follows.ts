import { type Static, Type } from '@sinclair/typebox';
import { Id, MessageReplies, messageWith } from './common.js';
import { endpoint } from './endpoint.js';

/** `following` is the followed user's id (the pfp of a user list item). */
export const FollowBody = Type.Object({ following: Id });
export type FollowBody = Static<typeof FollowBody>;

/** `notify`: whether the caller is notified of the user's new posts. */
export const ChangeFollowBody = Type.Object({ following: Id, notify: Type.Boolean() });
export type ChangeFollowBody = Static<typeof ChangeFollowBody>;

/** The caller's follow of the user after the call. */
export const FollowStateReply = Type.Object({ follows: Type.Boolean(), notify: Type.Boolean() });
export type FollowStateReply = Static<typeof FollowStateReply>;

/** A new follow starts silent: `{message: "info/followed", follows: true, notify: false}`. */
export const FollowedReply = messageWith({ follows: Type.Boolean(), notify: Type.Boolean() });
export type FollowedReply = Static<typeof FollowedReply>;

/** A call naming a user to follow: refused for the caller themself, or for no such user (a malformed id too). */
const onFollowed = { invalidKey: 'invalid_following_id', errors: ['follow_yourself', 'invalid_following_id'] } as const;

/**
 * The follows calls of the API (see endpoint.ts for how an entry is read). An unknown user is 404
 * invalid_following_id, a malformed id 400 with the same key; changing or removing a follow that
 * does not exist is 400 invalid_following_id.
 */
export const followsApi = {
  follow: endpoint({
    method: 'POST',
    path: '/follow',
    summary: 'Follow a user (without notifications)',
    body: FollowBody,
    replies: { 201: FollowedReply },
    ...onFollowed,
    errors: [...onFollowed.errors, 'trying_to_follow', 'blocked'],
  }),
  change: endpoint({
    method: 'PATCH',
    path: '/follow/change',
    summary: "Turn notifications of a followed user's posts on or off",
    body: ChangeFollowBody,
    replies: { 200: FollowStateReply },
    ...onFollowed,
  }),
  unfollow: endpoint({
    method: 'DELETE',
    path: '/follow/delete',
    summary: 'Stop following a user',
    body: FollowBody,
    replies: MessageReplies,
    ...onFollowed,
  }),
} as const;
