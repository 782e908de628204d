import { useEffect, useEffectEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { Post } from '../../lib/api/types';
import { PostCard } from '../posts/PostCard';

interface Props {
  posts: Post[];
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}

/** Posts page by page: the next page is asked for when the last post scrolls into view. */
export function PostList({ posts, hasMore, loading, onMore }: Props) {
  const { t } = useTranslation('feed');
  const lastRef = useRef<HTMLLIElement>(null);
  const canObserve = typeof IntersectionObserver !== 'undefined';
  const more = useEffectEvent(() => onMore());

  useEffect(() => {
    const el = lastRef.current;
    if (!el || !hasMore || loading || !canObserve) return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        observer.disconnect();
        more();
      }
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [posts.length, hasMore, loading, canObserve]);

  return (
    <>
      <ul className="post-list">
        {posts.map((post, i) => (
          <li key={post._id} ref={i === posts.length - 1 ? lastRef : undefined}>
            <PostCard post={post} />
          </li>
        ))}
      </ul>
      {loading && <p className="list-status" role="status">{t('loading')}</p>}
      {!loading && hasMore && !canObserve && (
        <button type="button" className="load-more" onClick={onMore}>
          {t('load_more')}
        </button>
      )}
    </>
  );
}
