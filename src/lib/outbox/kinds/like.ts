import { commentsApi } from '#core/api/comments';
import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import { type OutboxHandler, type OutboxRowOf, idempotent } from './handler';

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
