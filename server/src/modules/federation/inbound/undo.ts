import { Follow, Like, type Undo } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { undoFollow, undoFollowById } from './follows.js';
import type { Ctx } from './notes.js';
import { setLike } from './likes.js';

/**
 * An Undo by the actor of what it undoes: a Follow ends, a Like is taken back. The undone
 * activity's actor, when it names none, is the Undo's own (so Mastodon reads it too); one naming
 * another actor is not the Undo's to take back. A Follow named by its id alone is looked up among
 * the follows kept here, anything else so named is read from its server.
 */
export async function onUndo(app: FastifyInstance, ctx: Ctx, undo: Undo): Promise<void> {
  const actorId = undo.actorId;
  if (!actorId) return;
  if (undo.objectId && (await undoFollowById(app, actorId, undo.objectId))) return;
  const object = await undo.getObject({ documentLoader: ctx.documentLoader, contextLoader: ctx.contextLoader, suppressError: true });
  if (!(object instanceof Follow || object instanceof Like) || (object.actorId && object.actorId.href !== actorId.href)) return;
  if (object instanceof Follow) await undoFollow(app, ctx, actorId, object.objectId);
  else await setLike(app, ctx, actorId, object.objectId, false);
}
