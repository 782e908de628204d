import { randomUUID } from 'node:crypto';
import type { InboxContext } from '@fedify/fedify';
import { Accept, Follow, isActor } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { isBlockedByLocal, isRemoteActorAllowed } from '../boundaries.js';
import { enqueueDelivery } from '../outbound/delivery.js';
import { actorById, addRemoteFollow, localIdOfRemoteFollow, removeRemoteFollow, saveRemoteActor, setRemoteFollowId } from '../federation.repository.js';
import { accountOfRemoteActor, handleOf, saveActorDocument } from '../../remote/remote-accounts.js';
import { remoteFollowEnded, remoteFollowStarted } from '../../follows/follows.service.js';

/**
 * Remote actors following local users and public groups. Fedify has verified the inbox request's
 * signature and that its key belongs to the activity's actor before any of this runs; what is
 * followed must be an actor a visitor may see (a private group, a suspended or unknown account is
 * not even named to another server, so its Follow is ignored without an answer). A follower on a
 * blocked domain, a suspended remote account, or one the followed user blocked (or was blocked by)
 * is ignored the same way.
 */

/** The local user's or public group's id an activity's object names, when it is one of ours. */
function localIdOf(ctx: InboxContext<void>, object: URL | null): string | null {
  const parsed = object ? ctx.parseUri(object) : null;
  return parsed?.type === 'actor' ? parsed.identifier : null;
}

/** Stores the follower and the follow, and queues the Accept to the follower's inbox, in one transaction. */
export async function acceptFollow(app: FastifyInstance, ctx: InboxContext<void>, follow: Follow): Promise<void> {
  const localId = localIdOf(ctx, follow.objectId);
  if (!localId || !follow.id || !follow.actorId) return;
  const followed = await actorById(app.db, localId);
  if (!followed) return;
  if (!(await isRemoteActorAllowed(app.db, follow.actorId.href)) || (await isBlockedByLocal(app.db, follow.actorId.href, localId))) return;
  const follower = await follow.getActor(ctx);
  if (!follower || !isActor(follower) || follower.id?.href !== follow.actorId.href || !follower.inboxId) return;
  const handle = handleOf(follower);
  // A name against the rules of remote names is refused here as from any actor (remote-accounts.ts).
  if (follower.preferredUsername && !handle) return;
  const actorUri = ctx.getActorUri(localId);
  const [rsa] = await ctx.getActorKeyPairs(localId);
  if (!rsa) return;
  const accept = new Accept({
    id: new URL(`${actorUri.href}#accepts/${randomUUID()}`),
    actor: actorUri,
    to: follow.actorId,
    // The Follow as it was sent, by address only: the follower's server matches it by its id.
    object: new Follow({ id: follow.id, actor: follow.actorId, object: follow.objectId }),
  });
  const activity = await accept.toJsonLd({ contextLoader: ctx.contextLoader });
  // A user's follower is an account here, as anyone writing from elsewhere is, so its follow is
  // listed, counted and told of as any follow; a group's followers stand for its remote members.
  const accountId = followed.kind === 'user' ? await saveActorDocument(app, follower, follow.actorId) : null;
  const now = Date.now();
  await app.db.transaction().execute(async (trx) => {
    await saveRemoteActor(
      trx,
      { id: follower.id!.href, inbox: follower.inboxId!.href, shared_inbox: follower.endpoints?.sharedInbox?.href ?? null, handle },
      now,
    );
    await addRemoteFollow(trx, follower.id!.href, localId, now);
    if (accountId) await remoteFollowStarted({ app, db: trx }, accountId, localId, now);
    await setRemoteFollowId(trx, follower.id!.href, localId, follow.id!.href);
    await enqueueDelivery(trx, { actorId: localId, keyId: rsa.keyId.href, inbox: follower.inboxId!.href, activity }, now);
  });
}

/** Forgets a remote actor's follow of a local user or group, and its account's follow of the user. */
async function forgetFollow(app: FastifyInstance, actorId: string, localId: string): Promise<void> {
  const accountId = await accountOfRemoteActor(app.db, actorId);
  await app.db.transaction().execute(async (trx) => {
    await removeRemoteFollow(trx, actorId, localId);
    if (accountId) await remoteFollowEnded(trx, accountId, localId);
  });
}

/** Ends a remote actor's follow of a local one, on the actor's Undo; whether there was one to end. */
async function endFollow(app: FastifyInstance, actorId: URL, localId: string | null): Promise<boolean> {
  if (!localId || !(await isRemoteActorAllowed(app.db, actorId.href))) return false;
  await forgetFollow(app, actorId.href, localId);
  return true;
}

/** An Undo by the actor of its Follow of `followed` ends that follow. */
export async function undoFollow(app: FastifyInstance, ctx: InboxContext<void>, actorId: URL, followed: URL | null): Promise<void> {
  await endFollow(app, actorId, localIdOf(ctx, followed));
}

/** An Undo by the actor naming its Follow by id alone ends the follow kept under that id; whether one was. */
export const undoFollowById = async (app: FastifyInstance, actorId: URL, followId: URL): Promise<boolean> =>
  endFollow(app, actorId, await localIdOfRemoteFollow(app.db, actorId.href, followId.href));
