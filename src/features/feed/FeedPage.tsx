import { useCallback, useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { FEED_DEFAULTS, type Sort, type TimeWindow, isSort, isTimeWindow, listingSearchParams } from '#core/listing';
import { NetworkError } from '../../lib/api/client';
import { pendingPostView, usePendingPosts } from '../../lib/outbox/useOutbox';
import { useFeed } from '../../lib/query/feed';
import { useUserGroups } from '../../lib/query/posts';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { PostCard } from '../../components/post/PostCard';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';
import './feed.css';

type Tab = 'explore' | 'following' | 'groups';

function tabOf(pathname: string): Tab {
  if (pathname.startsWith('/feed/following')) return 'following';
  if (pathname.startsWith('/feed/groups')) return 'groups';
  return 'explore';
}

function GroupStrip({ username }: { username: string }) {
  const { t } = useTranslation('feed');
  const groups = useUserGroups(username);
  return (
    <nav className="group-strip" aria-label={t('my_groups')}>
      <ul>
        {groups?.groupList.map((g) => (
          <li key={g.gp}>
            <Link to={`/g/${encodeURIComponent(g.name)}`}>
              <img src={`/media/gp/${g.gp}.jpeg`} alt="" width={48} height={48} />
              <span>{g.name}</span>
            </Link>
          </li>
        ))}
      </ul>
      {groups && groups.groupList.length === 0 && <p>{t('no_groups')}</p>}
      <Link className="group-strip-all" to={`/u/${encodeURIComponent(username)}/groups`}>
        {t('all_groups')}
      </Link>
    </nav>
  );
}

function PendingPosts() {
  const rows = usePendingPosts();
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

/** The feed (000 §2): explore for everyone, following and groups when logged in. */
export default function FeedPage() {
  const { t } = useTranslation('feed');
  const { isLoggedIn, username } = useSession();
  const location = useLocation();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab = tabOf(location.pathname);
  const sortParam = searchParams.get('sort');
  const timeParam = searchParams.get('time');
  const sort: Sort = isSort(sortParam) ? sortParam : FEED_DEFAULTS.sort;
  const time: TimeWindow = isTimeWindow(timeParam) ? timeParam : FEED_DEFAULTS.time;
  const guarded = tab !== 'explore' && !isLoggedIn;

  const params = useMemo(() => ({ feed: tab, sort, time }), [tab, sort, time]);
  const feed = useFeed(params, !guarded);

  const offline = feed.error instanceof NetworkError;
  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (feed.error && !offline && reported.current !== feed.error) {
      reported.current = feed.error;
      toast.error('error/while_loading');
    }
  }, [feed.error, offline]);

  const onListing = useCallback(
    (nextSort: Sort, nextTime: TimeWindow) => setSearchParams(listingSearchParams(nextSort, nextTime, FEED_DEFAULTS)),
    [setSearchParams],
  );

  if (guarded) return <Navigate to="/feed" replace />;

  const tabs: Tab[] = isLoggedIn ? ['explore', 'following', 'groups'] : ['explore'];
  const search = searchParams.toString();
  return (
    <section className="feed-page">
      <h1 className="visually-hidden">{t('title')}</h1>
      <nav className="feed-tabs" aria-label={t('tabs.label')}>
        {tabs.map((name) => (
          <NavLink
            key={name}
            to={{ pathname: name === 'explore' ? '/feed' : `/feed/${name}`, search: search ? `?${search}` : '' }}
            className={() => (name === tab ? 'active' : undefined)}
            aria-current={name === tab ? 'page' : undefined}
          >
            {t(`tabs.${name}`)}
          </NavLink>
        ))}
      </nav>
      {tab === 'groups' && username && <GroupStrip username={username} />}
      <ListingControls sort={sort} time={time} onChange={onListing} />
      {offline && <p className="feed-offline" role="status">{t('offline')}</p>}
      {tab === 'explore' && <PendingPosts />}
      <PostList posts={feed.posts} hasMore={feed.hasMore && !offline} loading={feed.isLoading || feed.isLoadingMore} onMore={feed.loadMore} />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('empty')}</p>}
      {!feed.hasMore && feed.posts.length > 0 && <p className="list-status">{t('end')}</p>}
    </section>
  );
}
