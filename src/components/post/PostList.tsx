import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { isSessionRefused } from '../../lib/api/client';
import type { Post } from '../../lib/api/types';
import { useListingParams } from '../../lib/listing-params';
import type { PendingPostRow } from '../../lib/outbox/kinds/post';
import { useSession } from '../../lib/session';
import { type FeedSource, type FeedState, useFeed, useListingOffline } from '../../lib/query/feed';
import { ListingControls } from '../ListingControls';
import { InfiniteList } from '../InfiniteList';
import { NotStoredLine } from '../StatusPage';
import { PendingPosts } from './PendingPosts';
import { PostCard } from './PostCard';
import { listingImagePriority } from './PostImages';
import './post-card.css';

interface Props {
  posts: Post[];
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}

/** Posts page by page: the next page is asked for when the last post scrolls into view. */
export function PostList({ posts, hasMore, loading, onMore }: Props) {
  const { t } = useTranslation('common');
  return (
    <InfiniteList
      className="post-list"
      items={posts}
      keyOf={(post) => post._id}
      renderItem={(post, index) => <PostCard post={post} pictures={listingImagePriority(posts, index)} />}
      hasMore={hasMore}
      loading={loading}
      onMore={onMore}
      loadingLabel={t('listing.loading_posts')}
      skeleton="post"
      moreLabel={t('listing.load_more')}
    />
  );
}

/**
 * Loading for a listing that searches (a hashtag, the search page): while nothing is stored yet,
 * and while later pages are fetched again with none of them shown.
 */
export const refetchingEmpty = (feed: FeedState): boolean =>
  feed.isLoading || (feed.isFetching && feed.pages > 1 && feed.posts.length === 0);

interface FeedPostListProps {
  feed: FeedState;
  /** Shown when the listing has no posts; null when the screen says it another way (suggestions). */
  emptyLabel: string | null;
  /** Shown under the last post once there are no more (left out offline, where more may exist). */
  endLabel?: string;
  /** When to show the loading line; by default while nothing is stored yet or a next page loads. */
  loading?: boolean;
}

/**
 * A listing's posts (useFeed), saying when it has none and, if asked, when it has ended. Offline it
 * says so, and says that nothing is saved rather than that there are no posts; so it does when the
 * server refused the session (the shell says the rest). Any other failure to load is reported
 * once (useListingOffline), and a listing of which nothing is stored says it failed, not that it
 * is empty.
 */
export function FeedPostList({ feed, emptyLabel, endLabel, loading = feed.isLoading || feed.isLoadingMore }: FeedPostListProps) {
  const { t } = useTranslation('common');
  const offline = useListingOffline(feed.error);
  const refused = isSessionRefused(feed.error);
  const none = !feed.isLoading && !feed.isFetching && feed.posts.length === 0;
  return (
    <>
      {offline && (
        <p className="list-status" role="status">
          {t(feed.posts.length > 0 ? 'listing.offline' : 'listing.offline_none')}
        </p>
      )}
      <PostList posts={feed.posts} hasMore={feed.hasMore} loading={loading && !offline} onMore={feed.loadMore} />
      {none && refused && <p className="list-status" role="status">{t('session.not_saved')}</p>}
      {none && !offline && !refused && (feed.unavailable ? <NotStoredLine error={feed.error} /> : emptyLabel !== null && <p className="list-status">{emptyLabel}</p>)}
      {endLabel && !offline && !feed.hasMore && feed.posts.length > 0 && <p className="list-status">{endLabel}</p>}
    </>
  );
}

type ListingSource = { profile: string } | { group: string; groupId: string };

const sameName = (a: string, b: string) => a.toLocaleLowerCase() === b.toLocaleLowerCase();

/**
 * Which of the outbox's posts belong to a listing once sent: every one on the author's own
 * profile, those tagged with the group on its page. Null where none can (someone else's profile).
 */
function usePendingFilter(source: ListingSource): ((row: PendingPostRow) => boolean) | null {
  const { username } = useSession();
  const profile = 'profile' in source ? source.profile : null;
  const [group, groupId] = 'group' in source ? [source.group, source.groupId] : [null, null];
  return useMemo(() => {
    if (profile !== null) return username && sameName(profile, username) ? () => true : null;
    return (row: PendingPostRow) => row.payload.groups.some((g) => g.id === groupId || sameName(g.query, group ?? ''));
  }, [profile, group, groupId, username]);
}

/**
 * The posts of a profile or a group under the sort and time controls (kept in the address), below
 * the posts of this listing still waiting in the outbox.
 */
export function ListingPosts({ source, emptyLabel }: { source: ListingSource; emptyLabel: string }) {
  const { sort, time, setListing } = useListingParams();
  const feedSource: FeedSource = 'profile' in source ? { profile: source.profile } : { group: source.group };
  const feed = useFeed({ feed: feedSource, sort, time });
  const filter = usePendingFilter(source);
  return (
    <>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      {filter && <PendingPosts filter={filter} />}
      <FeedPostList feed={feed} emptyLabel={emptyLabel} />
    </>
  );
}
