import type { Executor } from '../../../db/schema.js';
import { inNoPrivateGroup } from '../../../policy/post-visibility.js';

/** The queries of what is sent from here; what they mean is in outgoing.ts, outgoing-activities.ts and the Note builders. */

/** Which kind of writing a Note stands for. */
export type NoteKind = 'post' | 'comment';

/** A post's author and, for another server's post, its ActivityPub id. */
export function postOrigin(db: Executor, postId: string) {
  return db.selectFrom('posts').select(['author_id', 'ap_id']).where('id', '=', postId).executeTakeFirst();
}

/** A comment's author, post and, for another server's comment, its ActivityPub id. */
export function commentOrigin(db: Executor, commentId: string) {
  return db.selectFrom('comments').select(['author_id', 'ap_id', 'post_id']).where('id', '=', commentId).executeTakeFirst();
}

/** A comment not deleted, outside any private group: its author and ActivityPub id. */
export function sendableComment(db: Executor, commentId: string) {
  return db
    .selectFrom('comments')
    .select(['author_id', 'ap_id'])
    .where('id', '=', commentId)
    .where('deleted', '=', 0)
    .where(inNoPrivateGroup('comments.post_id'))
    .executeTakeFirst();
}

/** Whom a post mentions, as the API names them. */
export function postMentions(db: Executor, postId: string) {
  return db.selectFrom('post_mentions').select(['user_id as _id', 'username']).where('post_id', '=', postId).execute();
}

/** Whom a comment mentions, as the API names them. */
export function commentMentions(db: Executor, commentId: string) {
  return db.selectFrom('comment_mentions').select(['user_id as _id', 'username']).where('comment_id', '=', commentId).execute();
}

/** When a follow began; undefined when there is none. */
export async function followSince(db: Executor, followerId: string, followingId: string): Promise<number | undefined> {
  const row = await db.selectFrom('follows').select('created_at').where('follower_id', '=', followerId).where('following_id', '=', followingId).executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}

/** A comment outside any private group with who wrote it, its post and whom it answers. */
export function commentWithAnswered(db: Executor, commentId: string) {
  return db
    .selectFrom('comments')
    .innerJoin('posts', 'posts.id', 'comments.post_id')
    .leftJoin('comments as parent', 'parent.id', 'comments.parent_comment_id')
    .select(['comments.author_id', 'comments.ap_id', 'comments.post_id', 'posts.author_id as post_author', 'parent.author_id as parent_author'])
    .where('comments.id', '=', commentId)
    .where(inNoPrivateGroup('comments.post_id'))
    .executeTakeFirst();
}

/** Keeps that a Note was deleted, once. */
export async function addTombstone(db: Executor, kind: NoteKind, id: string, now: number): Promise<void> {
  await db
    .insertInto('note_tombstones')
    .values({ kind, id, deleted_at: now })
    .onConflict((oc) => oc.columns(['kind', 'id']).doNothing())
    .execute();
}

/** When the Note was deleted; undefined when it never was. */
export async function tombstoneDeletedAt(db: Executor, kind: NoteKind, id: string): Promise<number | undefined> {
  const row = await db.selectFrom('note_tombstones').select('deleted_at').where('kind', '=', kind).where('id', '=', id).executeTakeFirst();
  return row ? Number(row.deleted_at) : undefined;
}
