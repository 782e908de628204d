import { useLiveQuery } from 'dexie-react-hooks';
import type { Post } from '../api/types';
import type { OutboxRow } from '../db/db';
import { useDb } from '../db/useDb';
import { getSession } from '../session';

export type PendingPostRow = Extract<OutboxRow, { kind: 'post' }>;

/** Posts waiting in the outbox (not created on the server yet), oldest first. */
export function usePendingPosts(filter?: (row: PendingPostRow) => boolean): PendingPostRow[] {
  const db = useDb();
  return useLiveQuery(
    async () => {
      const rows = (await db.outbox.where('kind').equals('post').sortBy('seq')) as PendingPostRow[];
      return rows.filter((r) => !r.createdId && (!filter || filter(r)));
    },
    [db, filter],
    [],
  );
}

/** A pending post shaped like a server post, for the same card (images are shown from `images`). */
export function pendingPostView(row: PendingPostRow): Post {
  const session = getSession();
  return {
    _id: row.clientId,
    text: row.payload.text,
    author: { username: session.username ?? '', pfp: session.id },
    createdAt: row.createdAt,
    likes: 0,
    liked: false,
    comments: 0,
    replyingTo: row.payload.replyingTo,
    groups: row.payload.groups.map((g) => ({ _id: g.id, name: g.query })),
    mentions: row.payload.mentions.map((m) => ({ _id: m.id, username: m.query })),
    itsme: true,
    adminGroups: [],
    pinnedGroups: [],
    ownedGroups: [],
    bannedGroups: [],
    canReply: false,
    media: [],
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
