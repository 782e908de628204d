import { useLiveQuery } from 'dexie-react-hooks';
import { useDb } from './db/useDb';
import { usePendingRows } from './outbox/useOutbox';

/**
 * Comments the stored counts do not include yet: created after the counted item was read.
 * Used to raise a post's comment count, or a comment's reply count, as soon as one is added.
 */
export function useNewerComments(postId: string, since: number | undefined, parentId?: string): number {
  const db = useDb();
  return useLiveQuery(
    async () => {
      if (since === undefined) return 0;
      return db.comments
        .where('postId')
        .equals(postId)
        .filter((c) => !c.deleted && c.createdAt > since && (parentId === undefined || c.parent._id === parentId))
        .count();
    },
    [db, postId, since, parentId],
    0,
  );
}

/**
 * A post's comment count as its reader expects it: the server's count, plus the comments written
 * here since the post was read, sent or still queued. Every card of the post and the post page
 * header agree, without waiting for the post to be read again.
 */
export function useCommentCount(post: { _id: string; comments: number; cachedAt?: number }): number {
  const pending = usePendingRows('comment', { keep: (r) => r.payload.postId === post._id, deps: [post._id] });
  return post.comments + pending.length + useNewerComments(post._id, post.cachedAt);
}
