import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { normalizeHashtag } from '#core/text';
import { useListingParams } from '../../lib/listing-params';
import { useFeed } from '../../lib/query/feed';
import { ListingControls } from '../../components/ListingControls';
import { FeedPostList, refetchingEmpty } from '../../components/post/PostList';
import { PageHeader } from '../../components/PageHeader';
import { MuteTagButton } from '../../components/safety/MuteTagButton';
import { useSession } from '../../lib/session';

/** /h/{hashtag}: posts with the hashtag, 4 a page, loaded as the last one scrolls into view. */
export default function HashtagPage() {
  const { t } = useTranslation('hashtag');
  const { hashtag = '' } = useParams();
  const tag = normalizeHashtag(hashtag);
  const { sort, time, setListing } = useListingParams();

  const params = useMemo(() => ({ feed: { hash: tag }, sort, time }), [tag, sort, time]);
  const feed = useFeed(params, tag !== '');
  const { isLoggedIn } = useSession();

  return (
    <section className="hashtag-page feed-page">
      <PageHeader title={t('title', { tag })} heading />
      <p className="visually-hidden">{t('subtitle', { tag })}</p>
      {isLoggedIn && tag !== '' && <MuteTagButton tag={tag} />}
      <ListingControls sort={sort} time={time} onChange={setListing} />
      <FeedPostList feed={feed} emptyLabel={t('empty')} endLabel={t('end')} loading={refetchingEmpty(feed)} />
    </section>
  );
}
