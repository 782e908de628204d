import type { InboxContext } from '@fedify/fedify';
import type { Accept, Reject } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { endFollow } from '../../follows/follows.service.js';
import { accountOfRemoteActor } from '../../remote/remote-accounts.js';

/**
 * The answers to the Follows local users send to remote accounts. The follow is kept from the
 * moment it is asked (the remote account's posts are shown once its server delivers them), so an
 * Accept confirms what is there; a Reject ends it. Fedify has checked the answer's signature
 * belongs to its actor, and only the account followed may answer its Follow.
 */

/** The local follower and the remote account of a Follow a local user sent (its id says both). */
function followOf(ctx: InboxContext<void>, followId: URL | null): { followerId: string; targetId: string } | null {
  if (!followId) return null;
  const match = /^#follows\/([^/]+)\//.exec(followId.hash);
  const parsed = ctx.parseUri(new URL(followId.href.slice(0, followId.href.length - followId.hash.length)));
  if (!match || parsed?.type !== 'actor') return null;
  return { followerId: parsed.identifier, targetId: decodeURIComponent(match[1]!) };
}

/** The Follow an answer is about, when it is one a local user sent to the answering actor. */
async function answeredFollow(app: FastifyInstance, ctx: InboxContext<void>, answer: Accept | Reject) {
  if (!answer.actorId) return null;
  const follow = followOf(ctx, answer.objectId);
  if (!follow) return null;
  const account = await accountOfRemoteActor(app.db, answer.actorId.href);
  return account === follow.targetId ? follow : null;
}

/** An Accept of a local user's Follow: the follow stands as it was made. */
export async function followAccepted(app: FastifyInstance, ctx: InboxContext<void>, accept: Accept): Promise<void> {
  const follow = await answeredFollow(app, ctx, accept);
  if (follow) app.log.debug({ follow }, 'remote account accepted a follow');
}

/** A Reject of a local user's Follow ends the follow. */
export async function followRejected(app: FastifyInstance, ctx: InboxContext<void>, reject: Reject): Promise<void> {
  const follow = await answeredFollow(app, ctx, reject);
  if (follow) await endFollow(app.db, follow.followerId, follow.targetId);
}
