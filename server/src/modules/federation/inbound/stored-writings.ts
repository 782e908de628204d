import type { FastifyInstance } from 'fastify';
import { createComment } from '../../comments/comments.service.js';
import { storeRemotePost } from '../../posts/posts.service.js';
import { addPostCommunities, communityAccountsAmong } from '../../remote/remote-communities.js';
import { type NoteContext, type ReadNote, mediaJson } from './notes.js';
import { accountFor, asAccount } from './remote-viewers.js';

/** A read Note kept as what it is here: a post or a comment of its author's account. */

/** A read Note as a post of its author's account (made here if need be); false when there is none. */
export async function storeReadPost(app: FastifyInstance, ctx: NoteContext, read: ReadNote, authorId: URL, options: { groupIds?: string[]; quiet: boolean }): Promise<boolean> {
  const viewer = await accountFor(app, ctx, authorId);
  if (!viewer) return false;
  await asAccount(app, async (tx) => {
    const postId = await storeRemotePost(tx, viewer, {
      text: read.text,
      contentWarning: read.contentWarning,
      createdAt: read.published,
      mentions: read.mentions,
      ...(options.groupIds ? { groupIds: options.groupIds } : {}),
      remote: { apId: read.id, apUrl: read.url, media: mediaJson(read.media) },
      quiet: options.quiet,
    });
    // A post filed under a community known here is in it: what is said under it here goes there too.
    await addPostCommunities(tx.db, postId, await communityAccountsAmong(tx.db, read.audience));
  });
  return true;
}

/** Stores a read reply as a comment of its author's account under `parentId`; quiet tells nobody of it. */
export async function storeComment(app: FastifyInstance, ctx: NoteContext, read: ReadNote, authorId: URL, parentId: string, quiet: boolean): Promise<void> {
  const viewer = await accountFor(app, ctx, authorId);
  if (!viewer) return;
  await asAccount(app, async (tx) => {
    await createComment(
      tx,
      viewer,
      { parent: parentId, text: read.text, mentions: read.mentions.map((m) => m.userId) },
      { apId: read.id, apUrl: read.url, quiet },
    );
  });
}
