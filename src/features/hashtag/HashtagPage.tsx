import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { normalizeHashtag } from '#core/text';
import { useListingParams } from '../../lib/listing-params';
import { useFeed, useListingOffline } from '../../lib/query/feed';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';

/** /h/{hashtag}: posts with the hashtag, 4 a page, loaded as the last one scrolls into view. */
export default function HashtagPage() {
  const { t } = useTranslation('hashtag');
  const { hashtag = '' } = useParams();
  const tag = normalizeHashtag(hashtag);
  const { sort, time, setListing } = useListingParams();

  const params = useMemo(() => ({ feed: { hash: tag }, sort, time }), [tag, sort, time]);
  const feed = useFeed(params, tag !== '');

  const offline = useListingOffline(feed.error);

  return (
    <section className="hashtag-page feed-page">
      <header className="hashtag-header">
        <h1>{t('title', { tag })}</h1>
        <p className="visually-hidden">{t('subtitle', { tag })}</p>
      </header>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      {offline && <p className="list-status" role="status">{t('offline')}</p>}
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
