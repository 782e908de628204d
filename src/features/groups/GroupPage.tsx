import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';
import { DELETED, GROUP_NOTIFICATION_LEVELS, type GroupNotificationLevel } from '#core/limits';
import { Avatar, avatarUrl } from '../../components/Avatar';
import { Gallery } from '../../components/Gallery';
import { LoadStatus, NotFoundPage, StatusPage } from '../../components/StatusPage';
import { useDb } from '../../lib/db/useDb';
import { formatMonthYear } from '../../lib/i18n';
import { useListingParams } from '../../lib/listing-params';
import { feedKey, useFeed } from '../../lib/query/feed';
import { usePost } from '../../lib/query/posts';
import { ListingControls } from '../../components/ListingControls';
import { PostList } from '../../components/post/PostList';
import { PostCard } from '../../components/post/PostCard';
import { type Group, groupQueryKey, setNotificationLevel, useGroup } from './groups.api';
import { JoinControl } from './JoinControl';
import { MembersList } from './MembersList';
import './groups.css';

const SHOWS = ['members', 'banned'] as const;
type Show = (typeof SHOWS)[number] | 'posts';
const LEVELS = Object.entries(GROUP_NOTIFICATION_LEVELS) as [keyof typeof GROUP_NOTIFICATION_LEVELS, GroupNotificationLevel][];

const groupPath = (name: string, show?: string) => `/g/${encodeURIComponent(name)}${show ? `/${show}` : ''}`;

/** The member's per-group notification level: all 0, essential 1, none 2. */
function NotificationLevel({ group }: { group: Group }) {
  const { t } = useTranslation('groups');
  const [level, setLevel] = useState<number>(group.notification ?? GROUP_NOTIFICATION_LEVELS.all);
  return (
    <label className="group-notification">
      <span>{t('notification.label')}</span>
      <select
        value={level}
        onChange={(event) => {
          const next = Number(event.target.value) as GroupNotificationLevel;
          const before = level;
          setLevel(next);
          setNotificationLevel(group._id, next).catch((err: unknown) => {
            console.error('group notification level', err);
            setLevel(before);
          });
        }}
      >
        {LEVELS.map(([name, value]) => (
          <option key={name} value={value}>
            {t(`notification.${name}`)}
          </option>
        ))}
      </select>
    </label>
  );
}

function PinnedPost({ id }: { id: string }) {
  const { post } = usePost(id);
  if (!post) return null;
  return (
    <div className="group-pinned">
      <PostCard post={post} pinned />
    </div>
  );
}

function GroupPosts({ name }: { name: string }) {
  const { t } = useTranslation('groups');
  const { sort, time, setListing } = useListingParams();
  const feed = useFeed({ feed: { group: name }, sort, time });
  return (
    <>
      <ListingControls sort={sort} time={time} onChange={setListing} />
      <PostList posts={feed.posts} hasMore={feed.hasMore} loading={feed.isLoading || feed.isLoadingMore} onMore={feed.loadMore} />
      {!feed.isLoading && !feed.isFetching && feed.posts.length === 0 && <p className="list-status">{t('empty.posts')}</p>}
    </>
  );
}

function GroupHeader({ group, onChanged }: { group: Group; onChanged: () => void }) {
  const { t, i18n } = useTranslation('groups');
  const [galleryOpen, setGalleryOpen] = useState(false);
  return (
    <header className="group-header">
      <button type="button" className="group-header__avatar" aria-label={t('open_avatar')} onClick={() => setGalleryOpen(true)}>
        <Avatar kind="gp" id={group.gp} url={group.gpUrl} size={96} alt={t('avatar_alt', { name: group.name })} />
      </button>
      <Gallery
        open={galleryOpen}
        onClose={() => setGalleryOpen(false)}
        zoom={false}
        slides={[{ src: avatarUrl('gp', group.gp, group.gpUrl), alt: t('avatar_alt', { name: group.name }) }]}
      />
      <div className="group-header__body">
        <div className="group-header__title">
          <h1>{group.name}</h1>
          {group.owner && (
            <Link className="icon-button group-settings-link" to={groupPath(group.name, 'settings')} aria-label={t('settings.title')} title={t('settings.title')}>
              ⚙
            </Link>
          )}
        </div>
        {group.description && <p className="group-header__description">{group.description}</p>}
        <p className="group-header__meta">
          {t('created', { date: formatMonthYear(group.createdAt, i18n.language) })}
          {group.private ? ` · ${t('private')}` : ''}
        </p>
        <ul className="group-header__counts">
          <li>
            <Link to={groupPath(group.name, 'members')}>{t('counts.members', { count: group.members })}</Link>
          </li>
          {group.bans > 0 && (
            <li>
              <Link to={groupPath(group.name, 'banned')}>{t('counts.bans', { count: group.bans })}</Link>
            </li>
          )}
        </ul>
        <div className="group-header__actions">
          <JoinControl group={group} onChanged={onChanged} />
          {group.canUserPost && (
            <Link className="button button--primary" to={`/post?g=${encodeURIComponent(group.name)}`}>
              {t('post')}
            </Link>
          )}
          {group.member && <NotificationLevel group={group} />}
        </div>
      </div>
    </header>
  );
}

/** A group: /g/{groupname} and /g/{groupname}/{members|banned}. */
export default function GroupPage() {
  const { t } = useTranslation('groups');
  const params = useParams();
  const name = params.groupname ?? '';
  const show = (params.show ?? 'posts') as Show;
  const db = useDb();
  const queryClient = useQueryClient();
  const { group, ready, error } = useGroup(name);

  if (show !== 'posts' && !SHOWS.includes(show)) return <NotFoundPage />;
  if (name === DELETED) return <StatusPage title={t('deleted')} />;
  if (!group) return <LoadStatus error={error} ready={ready} notFoundKey="didnt_find_group" loadingLabel={t('loading')} />;

  // Join and leave change what the page shows: the group, its lists and its posts load again.
  const feedPrefix = `${feedKey({ feed: { group: name } }).split('|')[0]}|`;
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: groupQueryKey(db.name, name) });
    void queryClient.invalidateQueries({
      predicate: (query) => query.queryKey[0] === 'feed' && String(query.queryKey[2]).startsWith(feedPrefix),
    });
    void queryClient.invalidateQueries({ queryKey: ['group-users', name] });
  };
  const canSee = !group.private || group.member || group.admin;
  return (
    <section className="group-page">
      <GroupHeader group={group} onChanged={reload} />
      {show === 'posts' &&
        (canSee ? (
          <>
            {group.pinnedPost && <PinnedPost id={group.pinnedPost} />}
            <GroupPosts name={group.name} />
          </>
        ) : (
          <p className="group-need-join">{t('need_join')}</p>
        ))}
      {show !== 'posts' && (
        <>
          <h2 className="group-list-title">
            <Link to={groupPath(group.name)}>{t('back_to_posts')}</Link> · {t(`lists.${show}`)}
          </h2>
          {show === 'banned' && !group.admin ? (
            <p className="group-need-join">{t('need_admin', { ns: 'error' })}</p>
          ) : !canSee ? (
            <p className="group-need-join">{t('need_join')}</p>
          ) : (
            <MembersList groupName={group.name} which={show} isAdmin={group.admin} />
          )}
        </>
      )}
    </section>
  );
}

