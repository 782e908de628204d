import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import type { PostPayload } from '../../db/db';
import { draftKeys } from '../../drafts/store';
import { showNewPostOnFirstPages } from '../../query/feed-pages';
import { type OutboxHandler, type OutboxRowOf, createThenUpload, idempotent, returnAsDraft, slotValues } from './handler';

/** The composer a post was written in, for a row stored without its draft key. */
export const postDraftKey = (payload: PostPayload) => draftKeys.post({ rep: payload.replyingTo });

/**
 * A post: created once (its server id is kept on the row, so a resend after a crash uploads the
 * images to the right post), shown on the feed where it was pending, then its images.
 */
export const postHandler: OutboxHandler<OutboxRowOf<'post'>> = {
  async send(db, row) {
    const id = await createThenUpload(db, row, async () => {
      const post = await callApi(
        postsApi.create,
        {
          body: {
            text: row.payload.text,
            mentions: slotValues(row.payload.mentions),
            groups: slotValues(row.payload.groups),
            ...(row.payload.replyingTo ? { replyingTo: row.payload.replyingTo } : {}),
            ...(row.payload.contentWarning?.trim() ? { contentWarning: row.payload.contentWarning } : {}),
            // The server sends the post to other fediverse servers once these are uploaded.
            ...(row.images.length > 0 ? { images: row.images.length } : {}),
          },
        },
        idempotent(row),
      );
      await db.transaction('rw', db.outbox, db.posts, db.feedPages, async () => {
        await db.outbox.update(row.seq!, { createdId: post._id, uploaded: 0 });
        await db.posts.put({ ...post, cachedAt: Date.now() });
        await showNewPostOnFirstPages(db, post._id);
      });
      return post._id;
    });
    if (row.images.length > 0) {
      try {
        const fresh = await callApi(postsApi.get, { params: { postId: id } });
        await db.posts.put({ ...fresh, cachedAt: Date.now() });
      } catch {
        // The feed fetches it again anyway.
      }
    }
  },

  refusedFallback: 'posting_failed',

  giveBack: (db, row, reason) => returnAsDraft(db, row, postDraftKey(row.payload), row.payload.groups, reason),
};
