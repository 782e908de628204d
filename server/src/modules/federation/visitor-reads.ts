import type { FastifyInstance } from 'fastify';
import type { Comment } from '#core/api/comments';
import type { Post } from '#core/api/posts';
import { isId } from '../../lib/ids.js';
import { contextOf } from '../../lib/service-context.js';
import { readableComment } from '../comments/comments.service.js';
import { getPostsForViewer } from '../posts/posts.service.js';

/**
 * What federation sends and serves of a post or a comment is what a visitor (no session) may read,
 * through the same services and rules as the API's answer to one, read from the database: the
 * outgoing job does not go through the app's HTTP layer (nor its visitor cache) to read it.
 */

/** The post as a visitor reads it, or null when a visitor may not. */
export async function postAsVisitor(app: FastifyInstance, postId: string): Promise<Post | null> {
  if (!isId(postId)) return null;
  const [post] = await getPostsForViewer(app.db, [postId], null, app);
  return post ?? null;
}

/** The comment as a visitor reads it, or null when a visitor may not, or it was deleted. */
export function commentAsVisitor(app: FastifyInstance, commentId: string): Promise<Comment | null> {
  return readableComment(contextOf(app), null, commentId);
}
