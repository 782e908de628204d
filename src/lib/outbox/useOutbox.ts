import { useLiveQuery } from 'dexie-react-hooks';
import type { Comment, Post } from '../api/types';
import type { OutboxRow } from '../db/db';
import { useDb } from '../db/useDb';
import { getSession } from '../session';
import { editMentions, editTarget } from './kinds/edit';

export type PendingPostRow = Extract<OutboxRow, { kind: 'post' }>;
export type PendingCommentRow = Extract<OutboxRow, { kind: 'comment' }>;
type PendingRow<K extends 'post' | 'comment'> = Extract<OutboxRow, { kind: K }>;

/**
 * Posts or comments waiting in the outbox (not created on the server yet) that `keep` keeps,
 * oldest first (newest first with `newestFirst`). The read runs again when `deps` change.
 */
export function usePendingRows<K extends 'post' | 'comment'>(
  kind: K,
  options: { keep?: (row: PendingRow<K>) => boolean; deps: readonly unknown[]; newestFirst?: boolean },
): PendingRow<K>[] {
  const db = useDb();
  const { keep, deps, newestFirst = false } = options;
  return useLiveQuery(
    async () => {
      const rows = (await db.outbox.where('kind').equals(kind).sortBy('seq')) as PendingRow<K>[];
      const pending = rows.filter((r) => !(r as PendingPostRow | PendingCommentRow).createdId && (!keep || keep(r)));
      return newestFirst ? pending.reverse() : pending;
    },
    // keep is read through deps, which the caller names.
    [db, kind, newestFirst, ...deps],
    [],
  );
}

/** Posts waiting in the outbox (not created on the server yet), oldest first. */
export function usePendingPosts(filter?: (row: PendingPostRow) => boolean): PendingPostRow[] {
  return usePendingRows('post', { keep: filter, deps: [filter] });
}

/**
 * What a pending post or comment shares with its server counterpart as its author sees it: by
 * the session's user, not liked or answered yet, its mentions as typed.
 */
function pendingItem(row: PendingPostRow | PendingCommentRow) {
  return {
    _id: row.clientId,
    text: row.payload.text,
    createdAt: row.createdAt,
    likes: 0,
    liked: false,
    comments: 0,
    mentions: row.payload.mentions.map((m) => ({ _id: m.id, username: m.query })),
    itsme: true,
    images: row.images.length,
    media: [],
    alts: row.images.map((image) => image.alt?.trim() ?? ''),
  };
}

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

/** The like state to show: the server's, unless a like of this target is waiting in the outbox. */
export function useLikeState(target: 'post' | 'comment', id: string, server: { liked: boolean; likes: number }) {
  const db = useDb();
  const rows = useLiveQuery(() => db.outbox.where('target').equals(`${target}:${id}`).toArray(), [db, target, id], []);
  const last = rows[rows.length - 1];
  if (!last || last.kind !== 'like') return { ...server, pending: false };
  const liked = last.payload.liked;
  const likes = Math.max(0, server.likes + (liked ? 1 : 0) - (server.liked ? 1 : 0));
  return { liked, likes, pending: true };
}

/**
 * The post as its author last wrote it: an edit waiting in the outbox shows over the stored copy,
 * which a refresh from the server may have put back to the text the server still holds.
 */
export function usePendingEdit<P extends Post>(post: P): P {
  const db = useDb();
  const rows = useLiveQuery(() => db.outbox.where('target').equals(editTarget(post._id)).toArray(), [db, post._id], []);
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
