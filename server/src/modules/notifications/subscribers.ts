import type { ServiceContext } from '../../lib/service-context.js';
import type { SubscriberTable } from '../../lib/events/domain-events.js';
import { type NotificationEvent, enqueueNotificationEvent } from './events.js';
import { forgetGroupNotifications } from './notifications.service.js';
import { forgetClientSubscriptions } from './push/client-push.service.js';
import type { PostChange } from './post-signals.js';

const notify = (ctx: ServiceContext, event: NotificationEvent) => enqueueNotificationEvent(ctx.db, event);
const signal = (ctx: ServiceContext, change: PostChange, postId: string) => ctx.app.postSignals.announce(ctx.db, change, postId);

/**
 * What notifications make of the server's events: each queues its notification event in the
 * write's transaction, for the worker to fan out once it has committed (notifications.fanout.ts).
 * A post made, changed or going is also signalled to the client API's open streams.
 */
export const notificationSubscribers = {
  'post.created': async (ctx, { postId, quiet }) => {
    // A quiet post is an old one read from its author's outbox: not news to anyone.
    if (quiet) return;
    await notify(ctx, { kind: 'post_created', postId });
    await signal(ctx, 'created', postId);
  },
  'post.edited': async (ctx, { postId, newlyMentioned }) => {
    if (newlyMentioned.length > 0) await notify(ctx, { kind: 'post_edited', postId, mentioned: [...newlyMentioned] });
    await signal(ctx, 'edited', postId);
  },
  'post.deleting': (ctx, { postId }) => signal(ctx, 'deleted', postId),
  // A picture stored after its post was made changes what the post's status shows.
  'media.attached': async (ctx, { owner, ownerId }) => {
    if (owner === 'post') await signal(ctx, 'edited', ownerId);
  },
  'comment.created': async (ctx, { commentId, quiet }) => {
    if (!quiet) await notify(ctx, { kind: 'comment_created', commentId });
  },
  'comment.edited': (ctx, { commentId, newlyMentioned }) => notify(ctx, { kind: 'comment_edited', commentId, mentioned: [...newlyMentioned] }),
  'follow.created': (ctx, { followerId, followingId }) => notify(ctx, { kind: 'follow', actorId: followerId, userId: followingId }),
  'group.member_joined': (ctx, { groupId, userId }) => notify(ctx, { kind: 'group_new_member', groupId, userId }),
  'group.join_requested': (ctx, { groupId, userId }) => notify(ctx, { kind: 'group_join_request', groupId, actorId: userId }),
  'group.join_withdrawn': (ctx, { groupId, userId }) => notify(ctx, { kind: 'group_join_withdrawn', groupId, userId }),
  'group.join_accepted': (ctx, change) => notify(ctx, { kind: 'group_join_accepted', ...change }),
  'group.join_denied': (ctx, change) => notify(ctx, { kind: 'group_join_denied', ...change }),
  'group.admin_granted': (ctx, change) => notify(ctx, { kind: 'group_made_admin', ...change }),
  'group.admin_revoked': (ctx, change) => notify(ctx, { kind: 'group_revoked_admin', ...change }),
  'group.ownership_passed': (ctx, change) => notify(ctx, { kind: 'group_made_owner', ...change }),
  // The notifications about a group go with it.
  'group.deleting': (ctx, { groupId }) => forgetGroupNotifications(ctx.db, groupId),
  // An app's token revoked takes its push subscription along.
  'client_token.revoked': (ctx, { tokenIds }) => forgetClientSubscriptions(ctx.db, tokenIds),
} satisfies SubscriberTable;
