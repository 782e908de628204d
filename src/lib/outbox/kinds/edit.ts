import { postsApi } from '#core/api/posts';
import { callApi } from '../../api/client';
import type { EditPayload, KruhDb } from '../../db/db';
import { draftKeys, returnToDrafts } from '../../drafts/store';
import { type OutboxHandler, type OutboxRowOf, idempotent, slotValues } from './handler';

/** The outbox target of a post's edits, so the card finds the one waiting for its post. */
export const editTarget = (postId: string) => `edit:${postId}`;

/** The mentions of an edit as the card shows them: the picked user, else the typed name. */
export const editMentions = (payload: Pick<EditPayload, 'mentions'>) =>
  payload.mentions.map((m) => ({ _id: m.id, username: m.query }));

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
 * An edit of a post's text: sent with its Idempotency-Key, the answer replaces the local copy. A
 * refused edit puts the post back as it was and the text into the post's editor with the reason.
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
    await db.posts.put({ ...post, cachedAt: Date.now() });
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
