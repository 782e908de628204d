import type { Like } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { likeComment } from '../../comments/comments.service.js';
import { likePost } from '../../posts/posts.service.js';
import type { Ctx } from './notes.js';
import { accountFor, asAccount, knownViewer, visitorReads } from './remote-viewers.js';
import { targetOf } from './targets.js';

/** The actor likes, or no longer likes, the post or comment `objectId` names. */
export async function setLike(app: FastifyInstance, ctx: Ctx, actorId: URL, objectId: URL | null, liked: boolean): Promise<void> {
  const target = await targetOf(app, ctx, objectId);
  if (!target) return;
  if (liked && !(await visitorReads(app, target.postId))) return;
  const viewer = liked ? await accountFor(app, ctx, actorId) : await knownViewer(app, actorId);
  if (!viewer) return;
  await asAccount(app, async (tx) => {
    if (target.kind === 'post') await likePost(tx, viewer, { postId: target.id, liked });
    else await likeComment(tx, viewer, { commentId: target.id, liked });
  });
}

export const onLike = async (app: FastifyInstance, ctx: Ctx, like: Like) => {
  if (like.actorId) await setLike(app, ctx, like.actorId, like.objectId, true);
};
