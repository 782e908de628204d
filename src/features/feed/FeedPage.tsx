import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { FEED_DEFAULTS } from '#core/listing';
import { useListingParams } from '../../lib/listing-params';
import { pendingPostView, usePendingPosts } from '../../lib/outbox/useOutbox';
import { useFeed, useListingOffline } from '../../lib/query/feed';
import { useUserGroups } from '../../lib/query/posts';
import { useSession } from '../../lib/session';
import { avatarUrl } from '../../components/Avatar';
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
              <img src={avatarUrl('gp', g.gp, g.gpUrl)} alt="" width={48} height={48} />
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

/** The feed: explore for everyone, following and groups when logged in. */
export default function FeedPage() {
  const { t } = useTranslation('feed');
  const { isLoggedIn, username } = useSession();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const tab = tabOf(location.pathname);
  const { sort, time, setListing } = useListingParams(FEED_DEFAULTS);
  const guarded = tab !== 'explore' && !isLoggedIn;

  const params = useMemo(() => ({ feed: tab, sort, time }), [tab, sort, time]);
  const feed = useFeed(params, !guarded);

  const offline = useListingOffline(feed.error);

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
      <ListingControls sort={sort} time={time} onChange={setListing} />
      {offline && <p className="list-status" role="status">{t('offline')}</p>}
      {tab === 'explore' && <PendingPosts />}
      <PostList posts={feed.posts} hasMore={feed.hasMore && !offline} loading={feed.isLoading || feed.isLoadingMore} onMore={feed.loadMore} />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('empty')}</p>}
      {!feed.hasMore && feed.posts.length > 0 && <p className="list-status">{t('end')}</p>}
    </section>
  );
}
