import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { DELETED } from '#core/limits';
import { POST_PAGE_DEFAULTS, type Sort, type TimeWindow, isSort, isTimeWindow, listingSearchParams } from '#core/listing';
import { usePost } from '../../lib/query/posts';
import { CommentsSection } from '../../features/comments/CommentsSection';
import PostView from './PostView';

/**
 * /p/{postId} (000 §2): the post (its card, the deleted and not-found states) and below it the
 * comments. Query parameters: sort (default popular), time (default all), focus=true puts the
 * focus in the comment box, c=<commentId> pins that comment with its tree at the top.
 */
export default function PostPage() {
  const { t } = useTranslation('postPage');
  const { postId = '' } = useParams();
  const [searchParams, setSearchParams] = useSearchParams();
  const { post } = usePost(postId === DELETED ? null : postId);
  const sortParam = searchParams.get('sort');
  const timeParam = searchParams.get('time');
  const sort: Sort = isSort(sortParam) ? sortParam : POST_PAGE_DEFAULTS.sort;
  const time: TimeWindow = isTimeWindow(timeParam) ? timeParam : POST_PAGE_DEFAULTS.time;
  const pinned = searchParams.get('c');
  const focus = searchParams.get('focus') === 'true';

  const onListing = useCallback(
    (nextSort: Sort, nextTime: TimeWindow) => {
      // The pinned comment stays; focus was a one-time request.
      const next: Record<string, string> = listingSearchParams(nextSort, nextTime, POST_PAGE_DEFAULTS);
      if (pinned) next.c = pinned;
      setSearchParams(next);
    },
    [pinned, setSearchParams],
  );

  return (
    <div className="post-page-view">
      <h1 className="visually-hidden">{t('title')}</h1>
      <PostView />
      {post && postId !== DELETED && (
        <CommentsSection post={post} sort={sort} time={time} onListing={onListing} focus={focus} pinnedCommentId={pinned} />
      )}
    </div>
  );
}
