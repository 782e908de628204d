import { commentsApi } from '#core/api/comments';
import { callApi } from '../../api/client';
import type { Comment } from '../../api/types';
import { type KruhDb, type OutboxRow, type Slot, getDb } from '../../db/db';
import { draftKeys } from '../../drafts/store';
import { getSession } from '../../session-store';
import { type QueueInput, enqueue, freshRow } from '../queue';
import { type OutboxHandler, type OutboxRowOf, createThenUpload, idempotent, keepCreated, mentionValues, pendingItem, returnAsDraft } from './handler';

export interface CommentPayload {
  text: string;
  /** The post or comment replied to. */
  parent: string;
  /** The thread's post (for showing the pending comment there). */
  postId: string;
  mentions: Slot[];
}

declare module '../../db/db' {
  interface OutboxKinds {
    comment: { payload: CommentPayload; target?: undefined };
  }
}

export type PendingCommentRow = OutboxRowOf<'comment'>;

/** The comment box a comment was written in, for a row stored without its draft key. */
export const commentDraftKey = (payload: CommentPayload) => draftKeys.comment(payload.parent);

export type QueueCommentInput = QueueInput<CommentPayload>;

export function queueComment({ images, draftKey, ...payload }: QueueCommentInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  return enqueue({ ...freshRow(draftKey ?? commentDraftKey(payload)), kind: 'comment', payload, images }, db);
}

/** A comment: created once (its server id kept on the row), then its image. */
export const commentHandler: OutboxHandler<OutboxRowOf<'comment'>> = {
  async send(db, row) {
    await createThenUpload(db, row, async () => {
      const comment = await callApi(
        commentsApi.create,
        {
          body: {
            text: row.payload.text,
            parent: row.payload.parent,
            mentions: await mentionValues(db, row.payload.text, row.payload.mentions),
            // The server sends the comment to other fediverse servers once these are uploaded.
            ...(row.images.length > 0 ? { images: row.images.length } : {}),
          },
        },
        idempotent(row),
      );
      await db.transaction('rw', db.outbox, db.comments, async () => {
        await db.outbox.update(row.seq!, { createdId: comment._id, uploaded: 0 });
        await keepCreated(db.comments, comment);
      });
      return comment._id;
    });
  },

  refusedFallback: 'server_error',

  // A comment box has no group slots.
  giveBack: (db, row, reason) => returnAsDraft(db, row, commentDraftKey(row.payload), [], reason),
};

/** A pending comment shaped like a server comment, for the same item. */
export function pendingCommentView(row: PendingCommentRow): Comment {
  const session = getSession();
  return {
    ...pendingItem(row),
    postId: row.payload.postId,
    parent: { _id: row.payload.parent, author: { username: '' }, directParent: row.payload.parent === row.payload.postId },
    // No versioned avatar URL yet: the item falls back to the plain address of the author's id.
    author: { username: session.username ?? '', pfp: session.id, pfpUrl: '' },
    deleted: false,
  };
}
