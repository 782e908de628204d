import { commentsApi } from '#core/api/comments';
import { callApi } from '../../api/client';
import type { CommentPayload } from '../../db/db';
import { draftKeys } from '../../drafts/store';
import { type OutboxHandler, type OutboxRowOf, createThenUpload, idempotent, returnAsDraft, slotValues } from './handler';

/** The comment box a comment was written in, for a row stored without its draft key. */
export const commentDraftKey = (payload: CommentPayload) => draftKeys.comment(payload.parent);

/** A comment: created once (its server id kept on the row), then its image. */
export const commentHandler: OutboxHandler<OutboxRowOf<'comment'>> = {
  async send(db, row) {
    await createThenUpload(db, row, async () => {
      const comment = await callApi(
        commentsApi.create,
        { body: { text: row.payload.text, parent: row.payload.parent, mentions: slotValues(row.payload.mentions) } },
        idempotent(row),
      );
      await db.transaction('rw', db.outbox, db.comments, async () => {
        await db.outbox.update(row.seq!, { createdId: comment._id, uploaded: 0 });
        await db.comments.put({ ...comment, cachedAt: Date.now() });
      });
      return comment._id;
    });
  },

  refusedFallback: 'server_error',

  // A comment box has no group slots.
  giveBack: (db, row, reason) => returnAsDraft(db, row, commentDraftKey(row.payload), [], reason),
};
