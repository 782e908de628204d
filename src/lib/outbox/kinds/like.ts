import { commentsApi } from '#core/api/comments';
import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import { type KruhDb, type OutboxRow, getDb } from '../../db/db';
import { withRoom } from '../../db/prune';
import { foldToggle, sendQueued } from '../queue';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

export interface LikePayload {
  target: 'post' | 'comment';
  id: string;
  /** The state to set on the server. */
  liked: boolean;
  /** The server's state when the first toggle was made. */
  from: boolean;
}

declare module '../../db/db' {
  interface OutboxKinds {
    like: { payload: LikePayload; target: string };
  }
}

export const likeTarget = (target: 'post' | 'comment', id: string) => `${target}:${id}`;

/**
 * Sets a like to `liked`. Toggles of one target that have not been sent yet are folded into one
 * row holding the final state; toggling back to the server's state removes the row altogether.
 * `from` is the server's state as last seen (used when no row exists yet).
 */
export async function queueLike(
  target: 'post' | 'comment',
  id: string,
  liked: boolean,
  from: boolean = !liked,
  db: KruhDb = getDb(),
): Promise<void> {
  const key = likeTarget(target, id);
  await withRoom(db, () => db.transaction('rw', db.outbox, () => foldToggle<OutboxRowOf<'like'>>(db, {
    kind: 'like',
    target: key,
    state: 'liked',
    known: from,
    change: { target, id, liked },
  })));
  sendQueued();
}

/** A like of a post or a comment: the answer's count and state go into that item's cache. */
export const likeHandler: OutboxHandler<OutboxRowOf<'like'>> = {
  async send(db, row) {
    const { target, id, liked } = row.payload;
    const result = target === 'post'
      ? await callApi(postsApi.like, { params: { postId: id }, body: { liked } }, idempotent(row))
      : await callApi(commentsApi.like, { params: { commentId: id }, body: { liked } }, idempotent(row));
    const table = target === 'post' ? db.posts : db.comments;
    await table.update(id, { likes: result.likes, liked: result.liked });
  },

  refusedFallback: 'server_error',

  // Removing the row is the revert: the button shows the server's state again.
  giveBack: async () => {},
};

/** The like state to show over the server's, given the rows of its target (the last one counts). */
export function likeOverlay(rows: OutboxRow[], server: { liked: boolean; likes: number }) {
  const last = rows[rows.length - 1];
  if (!last || last.kind !== 'like') return { ...server, pending: false };
  const liked = last.payload.liked;
  const likes = Math.max(0, server.likes + (liked ? 1 : 0) - (server.liked ? 1 : 0));
  return { liked, likes, pending: true };
}
