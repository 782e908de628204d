import { type Static, Type } from '@sinclair/typebox';
import { Id, MessageReplies, NO_GROUP, PathText, UserListReply, pageEntry, pageOf } from './common.js';
import { endpoint } from './endpoint.js';

/** `pfp` is the user's id, as in every user list item. */
export const PfpParams = Type.Object({ pfp: Id });

/** A hashtag without its `#`, any case (it is stored lowercase). */
export const TagParams = Type.Object({ tag: PathText });

/**
 * Where the caller stands with a user: `blocking` (the caller blocked them), `blockedBy` (they
 * blocked the caller) and `muting` (the caller muted them).
 */
export const BlockStateReply = Type.Object({ blocking: Type.Boolean(), blockedBy: Type.Boolean(), muting: Type.Boolean() });
export type BlockStateReply = Static<typeof BlockStateReply>;

export const MutedTagItem = Type.Object({ tag: Type.String(), createdAt: Type.Number() });
export type MutedTagItem = Static<typeof MutedTagItem>;
export const MutedTagsReply = pageOf('tags', MutedTagItem);
export type MutedTagsReply = Static<typeof MutedTagsReply>;

const BLOCK_RULE =
  'A block stands in both directions: neither user sees the other\'s posts, comments, lists or search results, ' +
  'neither may follow, comment on or reply to the other (403 blocked), and mentions between them notify nobody. ' +
  'Blocking ends the follows between the two. Setting a state that is already set changes nothing and succeeds.';

const MUTE_RULE =
  'A mute is the caller\'s own: the muted user\'s posts leave the caller\'s feeds (explore, following, groups, a ' +
  'group, a hashtag) and their notifications leave the caller\'s list; profiles, posts and searches stay as they were, ' +
  'and nothing changes for the muted user. Setting a state that is already set changes nothing and succeeds.';

const onUser = { params: PfpParams, replies: MessageReplies, invalidKey: 'invalid_id' } as const;
const onTag = { params: TagParams, replies: MessageReplies, invalidKey: 'invalid_hashtag' } as const;

/** Blocking and muting users, and muting hashtags: each the caller's own list. */
export const blocksApi = {
  block: endpoint({
    method: 'PUT',
    path: '/block/:pfp',
    summary: 'Block a user',
    description: BLOCK_RULE,
    ...onUser,
    errors: ['block_yourself', 'user_not_found'],
  }),
  unblock: endpoint({
    method: 'DELETE',
    path: '/block/:pfp',
    summary: 'Lift a block',
    description: BLOCK_RULE,
    ...onUser,
    errors: ['block_yourself', 'user_not_found'],
  }),
  state: endpoint({
    method: 'GET',
    path: '/block/:pfp',
    summary: 'Whether the caller blocks or mutes a user, and whether the user blocks the caller',
    params: PfpParams,
    replies: { 200: BlockStateReply },
    invalidKey: 'invalid_id',
    errors: ['user_not_found'],
  }),
  blocked: endpoint({
    method: 'GET',
    path: '/block',
    summary: 'The users the caller blocked, latest first',
    description: NO_GROUP,
    ...pageEntry(UserListReply),
    errors: [],
  }),
  mute: endpoint({
    method: 'PUT',
    path: '/mute/:pfp',
    summary: 'Mute a user',
    description: MUTE_RULE,
    ...onUser,
    errors: ['mute_yourself', 'user_not_found'],
  }),
  unmute: endpoint({
    method: 'DELETE',
    path: '/mute/:pfp',
    summary: 'Unmute a user',
    description: MUTE_RULE,
    ...onUser,
    errors: ['mute_yourself', 'user_not_found'],
  }),
  muted: endpoint({
    method: 'GET',
    path: '/mute',
    summary: 'The users the caller muted, latest first',
    description: NO_GROUP,
    ...pageEntry(UserListReply),
    errors: [],
  }),
  muteTag: endpoint({
    method: 'PUT',
    path: '/mute/tag/:tag',
    summary: "Mute a hashtag: posts carrying it leave the caller's feeds (its own page still lists them)",
    ...onTag,
    errors: ['invalid_hashtag'],
  }),
  unmuteTag: endpoint({
    method: 'DELETE',
    path: '/mute/tag/:tag',
    summary: 'Unmute a hashtag',
    ...onTag,
    errors: ['invalid_hashtag'],
  }),
  mutedTags: endpoint({
    method: 'GET',
    path: '/mute/tag',
    summary: 'The hashtags the caller muted, latest first',
    ...pageEntry(MutedTagsReply),
    errors: [],
  }),
} as const;
