import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, useParams } from 'react-router-dom';
import { DELETED, PAGE_SIZES } from '#core/limits';
import { Avatar, avatarUrl } from '../../components/Avatar';
import { Gallery } from '../../components/Gallery';
import { InfiniteList } from '../../components/InfiniteList';
import { LoadStatus, NotFoundPage, StatusPage } from '../../components/StatusPage';
import { formatMonthYear } from '../../lib/i18n';
import { useListingParams } from '../../lib/listing-params';
import { usePagedList } from '../../lib/paged-list';
import { useFeed } from '../../lib/query/feed';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';
import { PostText } from '../../components/post/PostText';
import { RelativeTime } from '../../components/RelativeTime';
import { FollowControl } from './FollowControl';
import { type GroupListItem, type Profile, type ProfileComment, type UserListItem, useProfile } from './profile.api';
import './profile.css';

const SHOWS = ['replies', 'followers', 'following', 'groups'] as const;
type Show = (typeof SHOWS)[number] | 'posts';

const userPath = (username: string, show?: string) => `/u/${encodeURIComponent(username)}${show ? `/${show}` : ''}`;

function ProfilePosts({ username }: { username: string }) {
  const { t } = useTranslation('profile');
  const { sort, time, setListing } = useListingParams();
  const feed = useFeed({ feed: { profile: username }, sort, time });
  return (
    <>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      <PostList posts={feed.posts} hasMore={feed.hasMore} loading={feed.isLoading || feed.isLoadingMore} onMore={feed.loadMore} />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('empty.posts')}</p>}
    </>
  );
}

function ProfileReplies({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const { sort, time, setListing } = useListingParams();
  const list = usePagedList<ProfileComment>({
    key: ['profile-replies', profile._id, sort, time],
    path: `/profile/comments/${encodeURIComponent(profile._id)}`,
    field: 'comments',
    idOf: (c) => c._id,
    limit: PAGE_SIZES.comments,
    query: { sort, time },
  });
  return (
    <>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      <InfiniteList
        className="profile-replies"
        items={list.items}
        keyOf={(c) => c._id}
        hasMore={list.hasMore}
        loading={list.loading}
        onMore={list.loadMore}
        loadingLabel={t('loading')}
        moreLabel={t('load_more')}
        emptyLabel={t('empty.replies')}
        renderItem={(c) => (
          <article className="profile-reply">
            <header className="profile-reply__header">
              {c.parent && <span>{t('replying_to', { username: c.parent.author.username })}</span>}
              <Link to={`/p/${encodeURIComponent(c.postId)}?c=${encodeURIComponent(c._id)}`}>
                <RelativeTime time={c.createdAt} />
              </Link>
            </header>
            {c.deleted ? <p className="profile-reply__deleted">{t('reply_deleted')}</p> : <p><PostText text={c.text} /></p>}
          </article>
        )}
      />
    </>
  );
}

function UserList({ username, which }: { username: string; which: 'followers' | 'following' }) {
  const { t } = useTranslation('profile');
  const list = usePagedList<UserListItem>({
    key: ['profile-users', username, which],
    path: `/profile/user/${encodeURIComponent(username)}/${which}`,
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  return (
    <InfiniteList
      className="entity-list"
      items={list.items}
      keyOf={(u) => u.pfp}
      hasMore={list.hasMore}
      loading={list.loading}
      onMore={list.loadMore}
      loadingLabel={t('loading')}
      moreLabel={t('load_more')}
      emptyLabel={t(`empty.${which}`)}
      renderItem={(u) => (
        <Link className="entity-list__item" to={userPath(u.username)}>
          <Avatar id={u.pfp} url={u.pfpUrl} size={40} />
          <span>{u.username}</span>
        </Link>
      )}
    />
  );
}

function GroupList({ username, own }: { username: string; own: boolean }) {
  const { t } = useTranslation('profile');
  const list = usePagedList<GroupListItem>({
    key: ['profile-groups', username],
    path: `/profile/user/${encodeURIComponent(username)}/groups`,
    field: 'groupList',
    idOf: (g) => g.gp,
    limit: PAGE_SIZES.groups,
  });
  return (
    <>
      {own && (
        <Link className="button button--primary create-group" to="/create-group">
          {t('create_group')}
        </Link>
      )}
      <InfiniteList
        className="entity-list"
        items={list.items}
        keyOf={(g) => g.gp}
        hasMore={list.hasMore}
        loading={list.loading}
        onMore={list.loadMore}
        loadingLabel={t('loading')}
        moreLabel={t('load_more')}
        emptyLabel={t('empty.groups')}
        renderItem={(g) => (
          <Link className="entity-list__item" to={`/g/${encodeURIComponent(g.name)}`}>
            <Avatar kind="gp" id={g.gp} url={g.gpUrl} size={40} />
            <span>{g.name}</span>
          </Link>
        )}
      />
    </>
  );
}

function ProfileHeader({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const [galleryOpen, setGalleryOpen] = useState(false);
  const counts = [
    { show: 'followers', count: profile.followers },
    { show: 'following', count: profile.following },
    { show: 'groups', count: profile.groups },
  ] as const;
  return (
    <header className="profile-header">
      <button type="button" className="profile-header__avatar" aria-label={t('open_avatar')} onClick={() => setGalleryOpen(true)}>
        <Avatar id={profile.pfp} url={profile.pfpUrl} size={96} alt={t('avatar_alt', { username: profile.username })} />
      </button>
      <Gallery
        open={galleryOpen}
        onClose={() => setGalleryOpen(false)}
        zoom={false}
        slides={[{ src: avatarUrl('pfp', profile.pfp, profile.pfpUrl), alt: t('avatar_alt', { username: profile.username }) }]}
      />
      <div className="profile-header__body">
        <h1 className="profile-header__name">{profile.username}</h1>
        {profile.bio && <p className="profile-header__bio">{profile.bio}</p>}
        <p className="profile-header__since">{t('member_since', { date: formatMonthYear(profile.createdAt, i18n.language) })}</p>
        <ul className="profile-header__counts">
          {counts.map(({ show, count }) => (
            <li key={show}>
              <Link to={userPath(profile.username, show)}>{t(`counts.${show}`, { count })}</Link>
            </li>
          ))}
        </ul>
        <FollowControl profile={profile} />
      </div>
    </header>
  );
}

/** A user's profile: /u/{username} and /u/{username}/{replies|followers|following|groups}. */
export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const params = useParams();
  const username = params.username ?? '';
  const show = (params.show ?? 'posts') as Show;
  const { profile, ready, error } = useProfile(username);

  if (show !== 'posts' && !SHOWS.includes(show)) return <NotFoundPage />;
  if (username === DELETED) return <StatusPage title={t('deleted')} />;
  if (!profile) return <LoadStatus error={error} ready={ready} notFoundKey="user_not_found" loadingLabel={t('loading')} />;

  const tabs = [
    { name: 'posts', to: userPath(profile.username) },
    { name: 'replies', to: userPath(profile.username, 'replies') },
  ] as const;
  return (
    <section className="profile-page">
      <ProfileHeader profile={profile} />
      {show === 'posts' || show === 'replies' ? (
        <nav className="profile-tabs" aria-label={t('tabs.label')}>
          {tabs.map((tab) => (
            <NavLink key={tab.name} to={tab.to} end aria-current={tab.name === show ? 'page' : undefined}>
              {t(`tabs.${tab.name}`)}
            </NavLink>
          ))}
        </nav>
      ) : (
        <h2 className="profile-list-title">
          <Link to={userPath(profile.username)}>{t('back_to_posts')}</Link> · {t(`lists.${show}`)}
        </h2>
      )}
      {show === 'posts' && <ProfilePosts username={profile.username} />}
      {show === 'replies' && <ProfileReplies profile={profile} />}
      {(show === 'followers' || show === 'following') && <UserList username={profile.username} which={show} />}
      {show === 'groups' && <GroupList username={profile.username} own={profile.itsme} />}
    </section>
  );
}
