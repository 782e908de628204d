import { usePendingPosts } from '../../lib/outbox/useOutbox';
import { type PendingPostRow, pendingPostView } from '../../lib/outbox/kinds/post';
import { PostCard } from './PostCard';
import './post-card.css';

/**
 * Posts written here and still in the outbox, newest first, shown above a listing they will belong
 * to once sent (the feed, the author's profile, the groups they are tagged with). `filter` must be
 * stable (memoised): it is a dependency of the live query.
 */
export function PendingPosts({ filter }: { filter?: (row: PendingPostRow) => boolean }) {
  const rows = usePendingPosts(filter);
  if (rows.length === 0) return null;
  return (
    <ul className="post-list pending-posts">
      {[...rows].reverse().map((row) => (
        <li key={row.clientId}>
          <PostCard post={pendingPostView(row)} pending={{ status: row.status, images: row.images.map((i) => i.blob) }} />
        </li>
      ))}
    </ul>
  );
}
