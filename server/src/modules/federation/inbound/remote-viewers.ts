import type { FastifyInstance } from 'fastify';
import { postsApi } from '#core/api/posts';
import { isUniqueViolation, newTransaction } from '../../../db/helpers.js';
import type { Executor } from '../../../db/schema.js';
import { AppError } from '../../../lib/app-error.js';
import { type ServiceContext, contextOf } from '../../../lib/service-context.js';
import type { Viewer } from '../../../plugins/auth.js';
import { findAccount } from '../../auth/auth.service.js';
import { accountOfRemoteActor, saveActorDocument } from '../../remote/remote-accounts.js';
import { readAsVisitor } from '../../syndication/visitor-read.js';
import { isFollowedHere } from '../federation.repository.js';
import type { NoteContext } from './notes.js';

/**
 * A remote person acts here as the local account standing for them (see modules/remote/remote-accounts.ts): the
 * inbox handlers call the services as that account, so its writings, likes and deletions meet the
 * very rules a local user's do.
 */

/**
 * A refusal by the services (hidden post, block, ban, limit) drops the activity; so does a Note
 * another delivery of it stored meanwhile (its address is a unique key).
 */
async function unlessRefused(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (!(err instanceof AppError) && !isUniqueViolation(err)) throw err;
  }
}

/** The account with this id as the caller of a service, unless suspended or gone. */
async function viewerOf(db: Executor, userId: string | null): Promise<Viewer | null> {
  const user = userId ? await findAccount(db, userId) : undefined;
  return user && !user.suspended_at ? { id: user.id, username: user.username, user } : null;
}

/** The account standing for an actor, made the first time from its document; null for no actor or a suspended one. */
export async function accountFor(app: FastifyInstance, ctx: NoteContext, actorId: URL): Promise<Viewer | null> {
  let userId = await accountOfRemoteActor(app.db, actorId.href);
  if (!userId) {
    userId = await saveActorDocument(app, await ctx.lookupObject(actorId), actorId);
  }
  return viewerOf(app.db, userId);
}

/** The existing, not suspended account of an actor, without reading anything remote. */
export const knownViewer = async (app: FastifyInstance, actorId: URL | null) => viewerOf(app.db, actorId ? await accountOfRemoteActor(app.db, actorId.href) : null);

/** Whether someone here follows the actor's existing account. */
export async function followedHere(app: FastifyInstance, actorId: URL): Promise<boolean> {
  const known = await knownViewer(app, actorId);
  return known !== null && (await isFollowedHere(app.db, known.id));
}

/** Whether a visitor may read the post: a reply to anything else is refused. */
export const visitorReads = async (app: FastifyInstance, postId: string) => (await readAsVisitor(app, postsApi.get, { postId })) !== null;

/** Runs a change as the remote account, on a new transaction. */
export const asAccount = (app: FastifyInstance, change: (ctx: ServiceContext) => Promise<void>) =>
  unlessRefused(() => newTransaction(app.db, (trx) => change(contextOf(app, trx))));
