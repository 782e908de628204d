import type { FastifyInstance } from 'fastify';
import type { Executor } from '../../../db/schema.js';
import { localCommentId } from '../outbound/comment-note.js';
import { commentByApId, localCommentById, postByApId } from '../federation.repository.js';
import { type NoteContext, localPostId } from './notes.js';

/** What an activity's object names here: a post or a comment, local or stored from another server. */

/**
 * The post or comment a URI names: a local post's or comment's Note address, or the id of a post or
 * comment stored from another server.
 */
export async function targetOf(app: FastifyInstance, ctx: NoteContext, uri: URL | null): Promise<{ kind: 'post' | 'comment'; id: string; postId: string; deleted: boolean } | null> {
  if (!uri) return null;
  const local = localPostId(ctx, uri);
  if (local) return { kind: 'post', id: local, postId: local, deleted: false };
  const post = await postByApId(app.db, uri.href);
  if (post) return { kind: 'post', id: post.id, postId: post.id, deleted: false };
  // Local comments are sent with an address of their own, so an answer to one or a like of it names it.
  const localComment = localCommentId(app.config.publicUrl, uri);
  const comment = localComment ? await localCommentById(app.db, localComment) : await commentByApId(app.db, uri.href);
  return comment ? { kind: 'comment', id: comment.id, postId: comment.post_id, deleted: Boolean(comment.deleted) } : null;
}

/** What a reply answers: a local post or comment, or a post or comment stored here; `id` is the comment's parent. */
export async function replyParent(app: FastifyInstance, ctx: NoteContext, uri: URL): Promise<{ id: string; postId: string } | null> {
  const target = await targetOf(app, ctx, uri);
  return target && !target.deleted ? target : null;
}

/** The stored post or comment an object's IRI names, when the actor's account wrote it. */
export async function ownStored(db: Executor, apId: URL | null, userId: string) {
  if (!apId) return null;
  const post = await postByApId(db, apId.href);
  if (post) return post.author_id === userId ? { kind: 'post' as const, id: post.id } : null;
  const comment = await commentByApId(db, apId.href);
  return comment && comment.author_id === userId ? { kind: 'comment' as const, id: comment.id } : null;
}

export type Stored = NonNullable<Awaited<ReturnType<typeof ownStored>>>;
