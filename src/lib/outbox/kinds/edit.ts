import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import type { Post } from '../../api/types';
import { type KruhDb, type OutboxRow, type Slot, getDb } from '../../db/db';
import { withRoom } from '../../db/prune';
import { draftKeys, returnToDrafts } from '../../drafts/store';
import { freshRow, sendQueued } from '../queue';
import { type OutboxHandler, type OutboxRowOf, idempotent, slotValues } from './handler';

/** A new version of a post's text, by its author. */
export interface EditPayload {
  postId: string;
  text: string;
  mentions: Slot[];
  /** Absent or blank for none. */
  contentWarning?: string;
  /** The local copy as it was before the edit, put back if the server refuses it. */
  previous: Pick<Post, 'text' | 'mentions' | 'contentWarning' | 'editedAt'>;
}

declare module '../../db/db' {
  interface OutboxKinds {
    edit: { payload: EditPayload; target: string };
  }
}

/** The outbox target of a post's edits, so the card finds the one waiting for its post. */
export const editTarget = (postId: string) => `edit:${postId}`;

/** The mentions of an edit as the card shows them: the picked user, else the typed name. */
export const editMentions = (payload: Pick<EditPayload, 'mentions'>) =>
  payload.mentions.map((m) => ({ _id: m.id, username: m.query }));

/**
 * Queues a new version of a post's text and shows it at once: the local copy of the post takes the
 * text (so it reads so offline too), and the row keeps the copy as it was, for a refusal.
 */
export async function queueEdit(payload: Omit<EditPayload, 'previous'>, db: KruhDb = getDb()): Promise<void> {
  const key = editTarget(payload.postId);
  await withRoom(db, () => db.transaction('rw', db.outbox, db.posts, async () => {
    const post = await db.posts.get(payload.postId);
    const previous = {
      text: post?.text ?? '',
      mentions: post?.mentions ?? [],
      contentWarning: post?.contentWarning ?? null,
      editedAt: post?.editedAt ?? null,
    };
    const now = Date.now();
    await db.outbox.add({ ...freshRow(), kind: 'edit', target: key, payload: { ...payload, previous }, images: [] });
    await db.posts.update(payload.postId, {
      text: payload.text,
      mentions: editMentions(payload),
      contentWarning: payload.contentWarning?.trim() || null,
      editedAt: now,
    });
  }));
  sendQueued();
}

/** The local copy of the post is put back as it was when the server refuses its edit. */
async function restorePost(db: KruhDb, row: OutboxRowOf<'edit'>): Promise<void> {
  const { postId, text, previous } = row.payload;
  await db.posts
    .where('_id')
    .equals(postId)
    // Only if it still shows this edit: a later one (or a fresh copy from the server) stays.
    .filter((post) => post.text === text)
    .modify(previous);
}

/**
 * An edit of a post's text: sent with its Idempotency-Key, the answer's text, mentions, warning and
 * time replace the local copy's. A refused edit puts the post back as it was and the text into the
 * post's editor with the reason.
 */
export const editHandler: OutboxHandler<OutboxRowOf<'edit'>> = {
  async send(db, row) {
    const { postId, text, mentions, contentWarning } = row.payload;
    const post = await callApi(
      postsApi.edit,
      {
        params: { postId },
        body: { text, mentions: slotValues(mentions), contentWarning: contentWarning?.trim() ? contentWarning : null },
      },
      idempotent(row),
    );
    // Only what an edit changes is taken: the likes and replies the app holds may be newer (a like
    // queued after the edit shows at once; an answer replayed after a reload is the post as it was).
    const edited = { text: post.text, mentions: post.mentions, contentWarning: post.contentWarning ?? null, editedAt: post.editedAt ?? null };
    await db.transaction('rw', db.posts, async () => {
      if ((await db.posts.update(postId, edited)) === 0) await db.posts.put({ ...post, cachedAt: Date.now() });
    });
  },

  refusedFallback: 'server_error',

  async giveBack(db, row, reason) {
    await restorePost(db, row);
    await returnToDrafts(
      draftKeys.edit(row.payload.postId),
      {
        text: row.payload.text,
        mentions: row.payload.mentions,
        groups: [],
        images: [],
        ...(row.payload.contentWarning !== undefined ? { contentWarning: row.payload.contentWarning } : {}),
        returnedError: reason,
      },
      row.clientId,
      db,
    );
  },
};

/**
 * The post as its author last wrote it, given the rows of its edit target: the last edit waiting
 * shows over the stored copy, which a refresh from the server may have put back to the old text.
 */
export function editOverlay<P extends Post>(rows: OutboxRow[], post: P): P {
  const last = rows[rows.length - 1];
  if (!last || last.kind !== 'edit') return post;
  return {
    ...post,
    text: last.payload.text,
    mentions: editMentions(last.payload),
    contentWarning: last.payload.contentWarning?.trim() || null,
    editedAt: Math.max(last.createdAt, post.editedAt ?? 0),
  };
}
