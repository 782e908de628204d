import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import type { Post } from '../../api/types';
import { type KruhDb, type OutboxRow, type Slot, getDb } from '../../db/db';
import { draftKeys } from '../../drafts/store';
import { showNewPostOnFirstPages } from '../../query/feed-pages';
import { getSession } from '../../session-store';
import { type QueueInput, enqueue, freshRow } from '../queue';
import { type OutboxHandler, type OutboxRowOf, createThenUpload, idempotent, keepCreated, mentionValues, pendingItem, returnAsDraft, slotValues } from './handler';

export interface PostPayload {
  text: string;
  mentions: Slot[];
  groups: Slot[];
  replyingTo: string | null;
  /** Shown before the post's text and images; absent or blank for none. */
  contentWarning?: string;
}

declare module '../../db/db' {
  interface OutboxKinds {
    post: { payload: PostPayload; target?: undefined };
  }
}

export type PendingPostRow = OutboxRowOf<'post'>;

/** The composer a post was written in, for a row stored without its draft key. */
export const postDraftKey = (payload: PostPayload) => draftKeys.post({ rep: payload.replyingTo });

export type QueuePostInput = QueueInput<PostPayload>;

export function queuePost({ images, draftKey, ...payload }: QueuePostInput, db: KruhDb = getDb()): Promise<OutboxRow> {
  return enqueue({ ...freshRow(draftKey ?? postDraftKey(payload)), kind: 'post', payload, images }, db);
}

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
            mentions: await mentionValues(db, row.payload.text, row.payload.mentions),
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
        await keepCreated(db.posts, post);
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

/** A pending post shaped like a server post, for the same card (images are shown from `images`). */
export function pendingPostView(row: PendingPostRow): Post {
  const session = getSession();
  return {
    ...pendingItem(row),
    // No versioned avatar URL yet: the card falls back to the plain address of the author's id.
    author: { username: session.username ?? '', pfp: session.id ?? '', pfpUrl: '' },
    replyingTo: row.payload.replyingTo,
    contentWarning: row.payload.contentWarning?.trim() || null,
    groups: row.payload.groups.map((g) => ({ _id: g.id, name: g.query })),
    adminGroups: [],
    pinnedGroups: [],
    ownedGroups: [],
    bannedGroups: [],
    canReply: false,
  };
}
