import { useTranslation } from 'react-i18next';
import type { Post } from '../../lib/api/types';
import { InfiniteList } from '../InfiniteList';
import { PostCard } from './PostCard';

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
      renderItem={(post) => <PostCard post={post} />}
      hasMore={hasMore}
      loading={loading}
      onMore={onMore}
      loadingLabel={t('listing.loading_posts')}
      moreLabel={t('listing.load_more')}
    />
  );
}
