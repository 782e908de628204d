import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { LISTING_DEFAULTS, type Sort, type TimeWindow, isSort, isTimeWindow, listingSearchParams } from '#core/listing';
import { normalizeHashtag } from '#core/text';
import { NetworkError } from '../../lib/api/client';
import { useFeed } from '../../lib/query/feed';
import { toast } from '../../lib/toast';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';
import '../feed/feed.css';

/** /h/{hashtag} (000 §2): posts with the hashtag, 4 a page, loaded as the last one scrolls into view. */
export default function HashtagPage() {
  const { t } = useTranslation('hashtag');
  const { hashtag = '' } = useParams();
  const tag = normalizeHashtag(hashtag);
  const [searchParams, setSearchParams] = useSearchParams();
  const sortParam = searchParams.get('sort');
  const timeParam = searchParams.get('time');
  const sort: Sort = isSort(sortParam) ? sortParam : LISTING_DEFAULTS.sort;
  const time: TimeWindow = isTimeWindow(timeParam) ? timeParam : LISTING_DEFAULTS.time;

  const params = useMemo(() => ({ feed: { hash: tag }, sort, time }), [tag, sort, time]);
  const feed = useFeed(params, tag !== '');

  const offline = feed.error instanceof NetworkError;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (feed.error && !offline && reported.current !== feed.error) {
      reported.current = feed.error;
      toast.error('error/while_loading');
    }
  }, [feed.error, offline]);

  const onListing = useCallback(
    (nextSort: Sort, nextTime: TimeWindow) => setSearchParams(listingSearchParams(nextSort, nextTime, LISTING_DEFAULTS)),
    [setSearchParams],
  );

  return (
    <section className="hashtag-page feed-page">
      <header className="hashtag-header">
        <h1>{t('title', { tag })}</h1>
        <p className="visually-hidden">{t('subtitle', { tag })}</p>
      </header>
      <ListingControls sort={sort} time={time} onChange={onListing} />
      {offline && <p className="feed-offline" role="status">{t('offline')}</p>}
      <PostList
        posts={feed.posts}
        hasMore={feed.hasMore && !offline}
        loading={feed.isLoading || (feed.isFetching && feed.pages > 1 && feed.posts.length === 0)}
        onMore={feed.loadMore}
      />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('empty')}</p>}
      {!feed.hasMore && feed.posts.length > 0 && <p className="list-status">{t('end')}</p>}
    </section>
  );
}
