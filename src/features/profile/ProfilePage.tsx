import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { listingSearchParams } from '#core/listing';
import { DELETED, PAGE_SIZES } from '#core/limits';
import { profilesApi } from '#core/api/profiles';
import { GroupRow, UserRow } from '../../components/EntityRow';
import { PagedInfiniteList, type PagedInfiniteListProps } from '../../components/InfiniteList';
import { LoadStatus, NotFoundPage, StatusPage } from '../../components/StatusPage';
import { useListingParams } from '../../lib/listing-params';
import { useSubjectRoute } from '../../lib/subject-route';
import { usePagedList } from '../../lib/query/paged-list';
import { listKeys } from '../../lib/query/keys';
import { useUserGroups } from '../../lib/query/posts';
import { ListingControls } from '../../components/ListingControls';
import { ListingPosts } from '../../components/post/PostList';
import { PostText } from '../../components/post/PostText';
import { formatMonthYearInPhrase } from '../../components/month-year';
import { RelativeTime } from '../../components/RelativeTime';
import { SubjectHeader } from '../../components/SubjectHeader';
import { OpenOriginal, RemoteHost } from '../../components/remote/Remote';
import { FollowControl } from './FollowControl';
import { SafetyMenu } from '../../components/safety/SafetyMenu';
import { useBlockState, useSafetyState } from '../../components/safety/safety';
import { ReportDialog } from '../../components/ReportDialog';
import { useSession } from '../../lib/session';
import { type Profile, useProfile } from './profile.api';
import './profile.css';
import { PageHeader } from '../../components/PageHeader';

const SHOWS = ['replies', 'followers', 'following', 'groups'] as const;

const userPath = (username: string, show?: string) => `/u/${encodeURIComponent(username)}${show ? `/${show}` : ''}`;

/** A list of the profile page, page by page. */
function ProfileList<T>(props: Omit<PagedInfiniteListProps<T>, 'className' | 'ns'>) {
  return <PagedInfiniteList className="entity-list" ns="profile" {...props} />;
}

function ProfileReplies({ profile }: { profile: Profile }) {
  const { t } = useTranslation('profile');
  const { sort, time, setListing } = useListingParams();
  const list = usePagedList({
    list: listKeys.profileReplies(profile._id, sort, time),
    endpoint: profilesApi.comments,
    params: { userId: profile._id },
    field: 'comments',
    idOf: (c) => c._id,
    limit: PAGE_SIZES.comments,
    // Sort and time follow the listing rule: each only when it differs from the default, time only for popular.
    query: listingSearchParams(sort, time),
  });
  return (
    <>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      <ProfileList
        list={list}
        keyOf={(c) => c._id}
        emptyLabel={t('empty.replies')}
        renderItem={(c) => (
          <article className="profile-reply">
            <header className="profile-reply__header">
              {c.parent && <span>{t('replying_to', { username: c.parent.author.username })}</span>}
              <AppLink className="text-link" to={`/p/${encodeURIComponent(c.postId)}?c=${encodeURIComponent(c._id)}`}>
                <RelativeTime time={c.createdAt} />
              </AppLink>
            </header>
            {c.deleted ? <p className="profile-reply__deleted">{t('reply_deleted')}</p> : <p><PostText text={c.text} mentions={c.mentions} /></p>}
          </article>
        )}
      />
    </>
  );
}

function UserList({ username, which }: { username: string; which: 'followers' | 'following' }) {
  const { t } = useTranslation('profile');
  const list = usePagedList({
    list: listKeys.profileUsers(username, which),
    endpoint: profilesApi[which],
    params: { username },
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  return (
    <ProfileList
      list={list}
      keyOf={(u) => u.pfp}
      emptyLabel={t(`empty.${which}`)}
      renderItem={(u) => <UserRow user={u} />}
    />
  );
}

function GroupList({ username, own }: { username: string; own: boolean }) {
  const { t } = useTranslation('profile');
  const list = useUserGroups(username, 'profile');
  return (
    <>
      {own && (
        <AppLink className="button button--primary create-group" to="/create-group">
          {t('create_group')}
        </AppLink>
      )}
      <ProfileList
        list={list}
        keyOf={(g) => g.gp}
        emptyLabel={t('empty.groups')}
        renderItem={(g) => <GroupRow group={g} />}
      />
    </>
  );
}

/** Report this user: offered to anyone signed in, on a profile not their own. */
function ReportUser({ profile }: { profile: Profile }) {
  const { t } = useTranslation('moderation');
  const { isLoggedIn } = useSession();
  const [open, setOpen] = useState(false);
  if (!isLoggedIn || profile.itsme || !profile.pfp) return null;
  return (
    <>
      <button type="button" className="link-button profile-report" onClick={() => setOpen(true)}>
        {t('report.user')}
      </button>
      {open && <ReportDialog kind="user" id={profile.pfp} onClose={() => setOpen(false)} />}
    </>
  );
}

function ProfileHeader({ profile }: { profile: Profile }) {
  const { t, i18n } = useTranslation('profile');
  const { isLoggedIn } = useSession();
  const other = isLoggedIn && !profile.itsme;
  // Following is refused while a block stands either way: the control gives way to the block's note.
  const blockedBy = useBlockState(profile.pfp, other);
  const blocking = useSafetyState('block', profile.pfp);
  const counts = [
    { show: 'followers', count: profile.followers },
    { show: 'following', count: profile.following },
    { show: 'groups', count: profile.groups },
  ] as const;
  return (
    <SubjectHeader
      avatar={{ kind: 'pfp', id: profile.pfp, url: profile.pfpUrl, alt: t('avatar_alt', { username: profile.username }) }}
      openAvatarLabel={t('open_avatar')}
      name={profile.username}
      nameExtra={
        profile.remote ? (
          <>
            <RemoteHost host={profile.remote.host} /> <OpenOriginal remote={profile.remote} />
          </>
        ) : undefined
      }
      text={profile.bio}
      meta={t('member_since', { date: formatMonthYearInPhrase(profile.createdAt, i18n.language) })}
      counts={counts.map(({ show, count }) => ({ key: show, to: userPath(profile.username, show), label: t(`counts.${show}`, { count }) }))}
    >
      {!(other && (blocking || blockedBy)) && <FollowControl profile={profile} />}
      <ReportUser profile={profile} />
      {other && <SafetyMenu userId={profile.pfp} username={profile.username} />}
    </SubjectHeader>
  );
}

/** A user's profile: /u/{username} and /u/{username}/{replies|followers|following|groups}. */
export default function ProfilePage() {
  const { t } = useTranslation('profile');
  const { name: username, show } = useSubjectRoute('username', SHOWS);
  const { profile, ready, error } = useProfile(username);

  if (!show) return <NotFoundPage />;
  if (username === DELETED) return <StatusPage title={t('deleted')} />;
  if (!profile) return <LoadStatus error={error} ready={ready} notFoundKey="user_not_found" loadingLabel={t('loading')} />;

  const tabs = [
    { name: 'posts', to: userPath(profile.username) },
    { name: 'replies', to: userPath(profile.username, 'replies') },
  ] as const;
  return (
    <section className="profile-page">
      {/* Someone's profile and every list of one are pages under another; one's own profile is a
          place of the navigation. */}
      {show === 'posts' || show === 'replies' ? (
        profile.itsme ? null : <PageHeader title={profile.username} />
      ) : (
        <PageHeader title={`${profile.username} · ${t(`lists.${show}`)}`} fallback={userPath(profile.username)} />
      )}
      <ProfileHeader profile={profile} />
      {show === 'posts' || show === 'replies' ? (
        <nav className="profile-tabs" aria-label={t('tabs.label')}>
          {tabs.map((tab) => (
            <AppLink key={tab.name} to={tab.to} end aria-current={tab.name === show ? 'page' : undefined}>
              {t(`tabs.${tab.name}`)}
            </AppLink>
          ))}
        </nav>
      ) : (
        <h2 className="profile-list-title">
          <AppLink to={userPath(profile.username)}>{t('back_to_posts')}</AppLink> · {t(`lists.${show}`)}
        </h2>
      )}
      {show === 'posts' && <ListingPosts source={{ profile: profile.username }} emptyLabel={t('empty.posts')} />}
      {show === 'replies' && <ProfileReplies profile={profile} />}
      {(show === 'followers' || show === 'following') && <UserList username={profile.username} which={show} />}
      {show === 'groups' && <GroupList username={profile.username} own={profile.itsme} />}
    </section>
  );
}
