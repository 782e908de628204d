import { type Static, Type } from '@sinclair/typebox';
import { Account, CustomEmoji, MediaAttachment, Relationship, Status } from './client-entities.js';
import { LIMITS } from '../limits.js';
import { endpoint } from './endpoint.js';

/**
 * What fediverse apps write through the client API: statuses (posts and comments), likes, and the
 * caller's standing towards accounts (follows, blocks, mutes; a group's account is joined or left).
 * Each goes through the same rules and limits as the web app's calls.
 */

const ClientId = Type.String({ minLength: 1, maxLength: 40 });
const IdParams = Type.Object({ id: ClientId });
/** Form fields arrive as text: a boolean is `true`/`false` (or `1`/`0`) either way. */
const Flag = Type.Union([Type.Boolean(), Type.String({ maxLength: 5 })]);

/** A new status. Fields apps send that have no meaning here (`poll`, `scheduled_at`) are ignored. */
export const NewStatus = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 100_000 })),
  media_ids: Type.Optional(Type.Union([ClientId, Type.Array(ClientId, { maxItems: 20 })])),
  in_reply_to_id: Type.Optional(Type.Union([ClientId, Type.Null()])),
  spoiler_text: Type.Optional(Type.String({ maxLength: 10_000 })),
  sensitive: Type.Optional(Flag),
  language: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
  visibility: Type.Optional(Type.String({ maxLength: 20 })),
});

/** A post's new text; its groups never change. */
export const StatusEdit = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 100_000 })),
  spoiler_text: Type.Optional(Type.String({ maxLength: 10_000 })),
  sensitive: Type.Optional(Flag),
  media_ids: Type.Optional(Type.Union([ClientId, Type.Array(ClientId, { maxItems: 20 })])),
  language: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
});

/** One version of a status, oldest first, the last being the status as it is now. */
export const StatusVersion = Type.Object({
  content: Type.String(),
  spoiler_text: Type.String(),
  sensitive: Type.Boolean(),
  created_at: Type.String(),
  account: Account,
  media_attachments: Type.Array(MediaAttachment),
  emojis: Type.Array(CustomEmoji),
});
export type StatusVersion = Static<typeof StatusVersion>;

/** A status's text as written, for an app's edit box. */
export const StatusSource = Type.Object({ id: Type.String(), text: Type.String(), spoiler_text: Type.String() });
export type StatusSource = Static<typeof StatusSource>;

/** A deleted status with its text as written, so an app can offer to write it again. */
export const DeletedStatus = Type.Composite([Status, Type.Object({ text: Type.String() })]);

const STATUS_DESCRIPTION =
  'The text is the post; `spoiler_text` its content warning. `@name` of a group here posts into that group ' +
  '(as many groups as a post may name), `@name` of a person mentions them. `visibility` `public` or ' +
  '`unlisted` make a public post; `private` is taken only for a post into a private group; `direct` is refused ' +
  '(visibility_unsupported). A reply (`in_reply_to_id`) to a post is a comment on it when it is text within ' +
  "a comment's limits with no content warning, else a post replying to it; a reply to a comment is always a " +
  "comment under it, within a comment's limits. `Idempotency-Key` makes a call sent again answer the same status. " +
  '`media_ids` names the caller\'s uploads (POST /api/v2/media) the status carries as its pictures, in that order, within ' +
  `Kruh's count (a post takes ${LIMITS.imagesPerPost}, a reply or comment ${LIMITS.imagesPerComment}, a GIF goes alone: too_many_images, gif_alone); an id that is none of ` +
  "the caller's uploads answers unknown_media, one a status carries already media_attached, all 422. " +
  'Needs write:statuses.';

const statusAction = (path: string, summary: string, errors: readonly ('didnt_find_post' | 'comment_not_found' | 'banned' | 'blocked' | 'like_limit' | 'no_reblogs' | 'not_author')[]) =>
  endpoint({ method: 'POST', path, summary, params: IdParams, replies: { 200: Status }, errors: ['insufficient_scope', ...errors] });

const accountAction = <const K extends string>(path: K, summary: string) =>
  endpoint({
    method: 'POST',
    path,
    summary,
    params: IdParams,
    replies: { 200: Relationship },
    errors: ['insufficient_scope', 'user_not_found', 'follow_yourself', 'block_yourself', 'mute_yourself', 'blocked', 'banned', 'group_account_action', 'owner_delete', 'group_action_limit'],
  });

export const clientWritesApi = {
  createStatus: endpoint({
    method: 'POST',
    path: '/v1/statuses',
    summary: 'Writes a post, a comment (a reply that fits one) or a post into the groups it mentions',
    description: STATUS_DESCRIPTION,
    body: NewStatus,
    replies: { 200: Status },
    errors: [
      'insufficient_scope', 'blank_post', 'max_post_length', 'max_post_lines', 'blank_comment', 'max_comment_length', 'max_comment_lines',
      'max_content_warning_length', 'visibility_unsupported', 'didnt_find_post', 'invalid_post', 'invalid_parent', 'not_member', 'need_admin', 'banned',
      'blocked', 'post_limit', 'comment_limit', 'mention_limit', 'mentions_up_to', 'groups_up_to', 'too_many_images', 'gif_alone', 'unknown_media', 'media_attached', 'idempotency_mismatch',
    ],
  }),
  deleteStatus: endpoint({
    method: 'DELETE',
    path: '/v1/statuses/:id',
    summary: "Deletes the caller's post or comment, answering it with its text as written (needs write:statuses)",
    params: IdParams,
    replies: { 200: DeletedStatus },
    errors: ['insufficient_scope', 'didnt_find_post', 'not_author'],
  }),
  editStatus: endpoint({
    method: 'PUT',
    path: '/v1/statuses/:id',
    summary: "Changes the text and content warning of the caller's post, keeping the earlier version in its history (needs write:statuses)",
    description:
      "As the web app's edit: the post's groups stay as they are, `@name`s of people mention them, and edits are counted by the hour. " +
      'Comments cannot be edited here (comment_not_editable). `media_ids`, when sent, names the post\'s pictures as they are ' +
      '(their ids, in order: they cannot be removed or reordered, media_not_removable) and then uploads to add after them, as a new status names them.',
    params: IdParams,
    body: StatusEdit,
    replies: { 200: Status },
    errors: [
      'insufficient_scope', 'didnt_find_post', 'not_author', 'comment_not_editable', 'unknown_media', 'media_attached', 'media_not_removable', 'too_many_images', 'gif_alone', 'blank_post', 'max_post_length', 'max_post_lines',
      'max_content_warning_length', 'not_member', 'need_admin', 'banned', 'edit_limit', 'mention_limit', 'mentions_up_to', 'idempotency_mismatch',
    ],
  }),
  statusHistory: endpoint({
    method: 'GET',
    path: '/v1/statuses/:id/history',
    summary: "A status's versions, oldest first, the last being the one shown now (a comment has only that one)",
    params: IdParams,
    replies: { 200: Type.Array(StatusVersion) },
    errors: ['didnt_find_post'],
  }),
  statusSource: endpoint({
    method: 'GET',
    path: '/v1/statuses/:id/source',
    summary: "The caller's status as written, to edit it (needs read:statuses)",
    params: IdParams,
    replies: { 200: StatusSource },
    errors: ['insufficient_scope', 'didnt_find_post'],
  }),
  favourite: statusAction('/v1/statuses/:id/favourite', 'Likes a post or a comment (needs write:favourites)', ['didnt_find_post', 'comment_not_found', 'banned', 'blocked', 'like_limit']),
  unfavourite: statusAction('/v1/statuses/:id/unfavourite', 'Takes back a like (needs write:favourites)', ['didnt_find_post', 'comment_not_found', 'banned', 'blocked', 'like_limit']),
  reblog: statusAction('/v1/statuses/:id/reblog', 'Boosts: refused, nothing is boosted here (422 no_reblogs)', ['no_reblogs']),
  follow: accountAction('/v1/accounts/:id/follow', "Follows a person; a group's account is joined (an open group) or asked to join (`requested`) (needs write:follows)"),
  unfollow: accountAction('/v1/accounts/:id/unfollow', "Stops following a person; a group's account is left, or the request to join it withdrawn (needs write:follows)"),
  block: accountAction('/v1/accounts/:id/block', 'Blocks a person (needs write:blocks); a group cannot be blocked (422 group_account_action)'),
  unblock: accountAction('/v1/accounts/:id/unblock', 'Unblocks a person (needs write:blocks)'),
  mute: accountAction('/v1/accounts/:id/mute', 'Mutes a person (needs write:mutes); a group cannot be muted (422 group_account_action)'),
  unmute: accountAction('/v1/accounts/:id/unmute', 'Unmutes a person (needs write:mutes)'),
} as const;
