import type { SubscriberTable } from '../../lib/events/domain-events.js';
import { endRemoteFollowOnBlock } from './boundaries.js';
import * as outgoing from './outbound/outgoing.js';

/**
 * What other servers hear of the server's events: each subscriber only queues a
 * `federation_outgoing` job in the write's transaction (outgoing.ts decides whether anything goes
 * at all), or keeps the remote follows in step with the change.
 */
export const federationSubscribers = {
  'post.created': async (ctx, { postId, pictures, remote }) => {
    // Another server's post goes on only through the groups here it was posted into.
    if (!remote || remote.groupIds.length > 0) await outgoing.postPublished(ctx, postId, pictures);
  },
  'post.edited': async (ctx, { postId, textChanged }) => {
    if (textChanged) await outgoing.postEdited(ctx, postId);
  },
  'post.like_changing': (ctx, { postId, userId, liked, now }) => outgoing.likeChanging(ctx, { postId, userId, liked, now }),
  'post.deleting': (ctx, { postId }) => outgoing.postDeleting(ctx, postId),
  'comment.created': (ctx, { commentId, pictures }) => outgoing.commentPublished(ctx, commentId, pictures),
  'comment.like_changing': (ctx, { commentId, userId, liked, now }) => outgoing.likeChanging(ctx, { commentId, userId, liked, now }),
  'comment.deleting': (ctx, { commentId }) => outgoing.commentDeleting(ctx, commentId),
  'media.attached': (ctx, { owner, ownerId }) => (owner === 'post' ? outgoing.postPictureAdded(ctx, ownerId) : outgoing.commentPictureAdded(ctx, ownerId)),
  'follow.created': (ctx, { followerId, followingId }) => outgoing.followChanging(ctx, { followerId, targetId: followingId, following: true }),
  'follow.ending': (ctx, { followerId, followingId }) => outgoing.followChanging(ctx, { followerId, targetId: followingId, following: false }),
  'block.created': (ctx, { blockerId, blockedId }) => endRemoteFollowOnBlock(ctx.db, blockedId, blockerId),
  'group.made_private': (ctx, { groupId }) => outgoing.actorGone(ctx.db, groupId),
  'group.deleting': (ctx, { groupId }) => outgoing.actorGone(ctx.db, groupId),
  'account.deleting': (ctx, { userId }) => outgoing.accountDeleting(ctx, userId),
} satisfies SubscriberTable;
