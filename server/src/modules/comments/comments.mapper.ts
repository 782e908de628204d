import { DELETED } from '#core/limits';
import type { Executor } from '../../db/schema.js';
import type { Comment } from '#core/api/comments';
import { readImageAlts } from '../../policy/image-alts.js';
import { avatarUrl, imageUrls } from '../../policy/media-urls.js';
import { type CommentViewRow, mentionsOf } from './comments.repository.js';
import { remoteOriginOf } from '../../lib/remote-origin.js';

/** The comment, as the contract describes it. */
export type CommentView = Comment;

/**
 * Rows -> Comments. A whole page is mapped with one extra query (its mentions), whatever its
 * size; the viewer's likes come with the rows.
 */
export async function toComments(
  db: Executor,
  rows: CommentViewRow[],
  viewerId: string | null,
  secret: string,
): Promise<CommentView[]> {
  const ids = rows.map((r) => r.id);
  const mentionRows = await mentionsOf(db, ids);
  const mentions = new Map<string, CommentView['mentions']>();
  for (const m of mentionRows) {
    const list = mentions.get(m.comment_id) ?? [];
    // A mention keeps its link while the account exists, under the account's current name.
    list.push(m.user_id && m.current_username ? { _id: m.user_id, username: m.current_username } : { _id: null, username: m.username });
    mentions.set(m.comment_id, list);
  }
  return rows.map((row) => toComment(row, mentions.get(row.id) ?? [], viewerId, secret));
}

function toComment(
  row: CommentViewRow,
  mentions: CommentView['mentions'],
  viewerId: string | null,
  secret: string,
): CommentView {
  const { deleted } = row;
  const onPost = row.parent_comment_id === null;
  const parentAuthor = onPost ? row.post_author_username : row.parent_comment_author_username;
  return {
    _id: row.id,
    postId: row.post_id,
    text: deleted ? '' : row.text,
    parent: {
      _id: row.parent_comment_id ?? row.post_id,
      author: { username: parentAuthor ?? DELETED },
      directParent: onPost,
    },
    author: row.author_id && row.author_username
      ? { username: row.author_username, pfp: row.author_id, pfpUrl: avatarUrl('pfp', row.author_id, Number(row.author_pfp_version ?? 0)) }
      : { username: DELETED, pfp: null, pfpUrl: avatarUrl('pfp', null, 0) },
    createdAt: Number(row.created_at),
    liked: !deleted && row.liked,
    likes: row.likes,
    comments: row.replies,
    mentions: deleted ? [] : mentions,
    itsme: !deleted && viewerId !== null && row.author_id === viewerId,
    images: deleted ? 0 : row.images,
    media: deleted
      ? []
      : imageUrls(secret, {
        id: row.id,
        images: Math.min(row.images, 1),
        isPrivate: row.is_private,
        version: Number(row.media_version),
      }),
    alts: deleted ? [] : readImageAlts(row.image_alts, Math.min(row.images, 1)),
    deleted,
    remote: deleted ? null : remoteOriginOf(row.ap_id, row.ap_url),
  };
}
