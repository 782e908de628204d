import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router-dom';
import { AppLink } from '../../components/AppLink';
import { PagedInfiniteList } from '../../components/InfiniteList';
import { FEED_DEFAULTS } from '#core/listing';
import { useListingParams } from '../../lib/listing-params';
import { useFeed } from '../../lib/query/feed';
import { useUserGroups } from '../../lib/query/posts';
import { useSession } from '../../lib/session';
import { avatarUrl } from '../../components/Avatar';
import { MediaImg } from '../../components/MediaImg';
import { PendingPosts } from '../../components/post/PendingPosts';
import { ListingControls } from '../../components/ListingControls';
import { FeedPostList } from '../../components/post/PostList';
import { FollowSuggestions, GroupSuggestions, useSuggestionsWanted } from './Suggestions';
import './feed.css';

type Tab = 'explore' | 'following' | 'groups';

function tabOf(pathname: string): Tab {
  if (pathname.startsWith('/feed/following')) return 'following';
  if (pathname.startsWith('/feed/groups')) return 'groups';
  return 'explore';
}

/**
 * The user's groups above the groups tab. Until the user is in one it is not drawn at all: the
 * tab's suggestions say what to do instead of an empty strip and a link to an empty list.
 */
function GroupStrip({ username }: { username: string }) {
  const { t } = useTranslation('feed');
  // Scrolled to its end (or "load more"), the strip asks for the next page.
  const groups = useUserGroups(username, 'strip');
  if (groups.items.length === 0 && !groups.hasMore) return null;
  return (
    <nav className="group-strip" aria-label={t('my_groups')}>
      <PagedInfiniteList
        list={groups}
        ns="groups"
        keyOf={(g) => g.gp}
        emptyLabel={t('no_groups')}
        renderItem={(g) => (
          <AppLink to={`/g/${encodeURIComponent(g.name)}`}>
            <MediaImg src={avatarUrl('gp', g.gp, g.gpUrl)} alt="" width={48} height={48} />
            <span>{g.name}</span>
          </AppLink>
        )}
      />
      <AppLink className="group-strip-all" to={`/u/${encodeURIComponent(username)}/groups`}>
        {t('all_groups')}
      </AppLink>
    </nav>
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
  const suggesting = tab === 'groups' ? 'groups' : 'users';
  const suggestions = useSuggestionsWanted(suggesting, tab === 'explore' ? '' : (username ?? ''));


  if (guarded) return <Navigate to="/feed" replace />;

  const tabs: Tab[] = isLoggedIn ? ['explore', 'following', 'groups'] : ['explore'];
  const search = searchParams.toString();
  return (
    <section className="feed-page">
      <h1 className="visually-hidden">{t('title')}</h1>
      <nav className="feed-tabs" aria-label={t('tabs.label')}>
        {tabs.map((name) => (
          <AppLink
            key={name}
            to={{ pathname: name === 'explore' ? '/feed' : `/feed/${name}`, search: search ? `?${search}` : '' }}
            className={name === tab ? 'active' : undefined}
            current={name === tab}
          >
            {t(`tabs.${name}`)}
          </AppLink>
        ))}
      </nav>
      {tab === 'groups' && username && <GroupStrip username={username} />}
      {/* One place for a new account's suggestions, above the posts, so they stay put as posts come in. */}
      {suggestions ? suggesting === 'groups' ? <GroupSuggestions /> : <FollowSuggestions /> : null}
      <ListingControls sort={sort} time={time} onChange={setListing} />
      {tab === 'explore' && <PendingPosts />}
      <FeedPostList feed={feed} emptyLabel={suggestions ? null : t('empty')} endLabel={t('end')} />
    </section>
  );
}
