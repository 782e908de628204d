import type { Executor } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../lib/app-error.js';
import { publishEvent } from '../../lib/events/domain-events.js';
// Declares the events this module publishes.
import './follows.events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import { isBlockedBetween } from '../../policy/blocks.js';
import { userExists } from '../../db/users.js';
import type { Viewer } from '../../plugins/auth.js';
import * as repo from './follows.repository.js';

/** What other modules read of follows: the follow states of a user list, and the data export's edges. */
export { followEdgesOf, followStates, NOT_FOLLOWING, type FollowEdge, type FollowState } from './follows.repository.js';

/** Ends a follow if there is one (a block ends both directions); true when one was removed. */
export function endFollow(db: Executor, followerId: string, followingId: string): Promise<boolean> {
  return repo.deleteFollow(db, followerId, followingId);
}

/**
 * Follow, change notify, unfollow. Errors:
 * - unknown user: 404 invalid_following_id (a malformed id is 400 with the same key, from the schema);
 * - following yourself: 400 follow_yourself;
 * - following twice: 409 trying_to_follow;
 * - changing or removing a follow that does not exist: 400 invalid_following_id.
 */

async function requireOtherUser(ctx: ServiceContext, viewer: Viewer, followingId: string): Promise<void> {
  if (followingId === viewer.id) throw badRequest('follow_yourself');
  if (!(await userExists(ctx.db, followingId))) throw notFound('invalid_following_id');
}

/** Follows the user, on the route's transaction. */
export async function follow(ctx: ServiceContext, viewer: Viewer, followingId: string): Promise<repo.FollowState> {
  await requireOtherUser(ctx, viewer, followingId);
  // Read inside the transaction that adds the follow, so a block made meanwhile is seen.
  if (await isBlockedBetween(ctx.db, viewer.id, followingId)) throw forbidden('blocked');
  const now = Date.now();
  // A new follow starts silent: the user opts into notifications with the dropdown.
  if (!(await repo.insertFollow(ctx.db, viewer.id, followingId, now))) throw conflict('trying_to_follow');
  await publishEvent(ctx, 'follow.created', { followerId: viewer.id, followingId });
  return { follows: true, notify: false };
}

/**
 * A remote account follows a local user: its actor's Follow was accepted. It is a follow like a
 * local one, listed and counted on the user's profile, and the user is told of it the same way
 * (once: a Follow sent again changes nothing). The follow starts silent, as every follow does.
 */
export async function remoteFollowStarted(ctx: ServiceContext, accountId: string, userId: string, now: number): Promise<void> {
  if (await repo.insertFollow(ctx.db, accountId, userId, now)) await publishEvent(ctx, 'follow.created', { followerId: accountId, followingId: userId });
}

/** A remote account's follow of a local user ended (its actor's Undo). */
export async function remoteFollowEnded(db: Executor, accountId: string, userId: string): Promise<void> {
  await repo.deleteFollow(db, accountId, userId);
}

/** The follows of these remote accounts end: their domain was blocked. */
export async function remoteFollowsEnded(db: Executor, accountIds: string[]): Promise<void> {
  await repo.deleteFollowsBy(db, accountIds);
}

export async function changeNotify(ctx: ServiceContext, viewer: Viewer, input: { following: string; notify: boolean }): Promise<repo.FollowState> {
  const { following: followingId, notify } = input;
  await requireOtherUser(ctx, viewer, followingId);
  if (!(await repo.setNotify(ctx.db, viewer.id, followingId, notify))) throw badRequest('invalid_following_id');
  return { follows: true, notify };
}

export async function unfollow(ctx: ServiceContext, viewer: Viewer, followingId: string): Promise<void> {
  await requireOtherUser(ctx, viewer, followingId);
  await publishEvent(ctx, 'follow.ending', { followerId: viewer.id, followingId });
  if (!(await repo.deleteFollow(ctx.db, viewer.id, followingId))) throw badRequest('invalid_following_id');
}
