import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { DELETED, GROUP_NOTIFICATION_LEVELS, type GroupNotificationLevel } from '#core/limits';
import { LoadStatus, NotFoundPage, StatusPage } from '../../components/StatusPage';
import { SubjectHeader } from '../../components/SubjectHeader';
import { Tooltip } from '../../components/Tooltip';
import { formatMonthYearInPhrase } from '../../components/month-year';
import { useDb } from '../../lib/db/useDb';
import { useSubjectRoute } from '../../lib/subject-route';
import { feedName } from '../../lib/query/feed';
import { queryKeys } from '../../lib/query/keys';
import { usePinnedPost } from '../../lib/query/posts';
import { ListingPosts } from '../../components/post/PostList';
import { PostCard } from '../../components/post/PostCard';
import { type Group, joinNeedsApproval, setNotificationLevel, useGroup } from './groups.api';
import { JoinControl } from './JoinControl';
import { MembersList } from './MembersList';
import './groups.css';
import { PageHeader } from '../../components/PageHeader';

const SHOWS = ['members', 'banned'] as const;
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

function PinnedPost({ group }: { group: Group }) {
  const post = usePinnedPost(group.name, !!group.pinnedPost);
  if (!post) return null;
  return (
    <div className="group-pinned">
      <PostCard post={post} pinned />
    </div>
  );
}

function GroupHeader({ group, onChanged }: { group: Group; onChanged: () => void }) {
  const { t, i18n } = useTranslation('groups');
  const counts = [{ key: 'members', to: groupPath(group.name, 'members'), label: t('counts.members', { count: group.members }) }];
  if (group.bans > 0) counts.push({ key: 'bans', to: groupPath(group.name, 'banned'), label: t('counts.bans', { count: group.bans }) });
  return (
    <SubjectHeader
      avatar={{ kind: 'gp', id: group.gp, url: group.gpUrl, alt: t('avatar_alt', { name: group.name }) }}
      openAvatarLabel={t('open_avatar')}
      name={group.name}
      nameExtra={
        group.admin && (
          <Tooltip label={t('settings.title')}>
            <AppLink className="icon-button group-settings-link" to={groupPath(group.name, 'settings')} aria-label={t('settings.title')}>
              ⚙
            </AppLink>
          </Tooltip>
        )
      }
      text={group.description}
      meta={[
        t('created', { date: formatMonthYearInPhrase(group.createdAt, i18n.language) }),
        group.private && t('private'),
        // Said before the button, so nobody expects to be in at once.
        !group.member && joinNeedsApproval(group) && t('join.needs_approval'),
      ]
        .filter(Boolean)
        .join(' · ')}
      counts={counts}
    >
      <JoinControl group={group} onChanged={onChanged} />
      {group.canUserPost && (
        <AppLink className="button button--primary" to={`/post?g=${encodeURIComponent(group.name)}`}>
          {t('post')}
        </AppLink>
      )}
      {group.member && <NotificationLevel group={group} />}
    </SubjectHeader>
  );
}

/** A group: /g/{groupname} and /g/{groupname}/{members|banned}. */
export default function GroupPage() {
  const { t } = useTranslation('groups');
  const { name, show } = useSubjectRoute('groupname', SHOWS);
  const db = useDb();
  const queryClient = useQueryClient();
  const { group, ready, error } = useGroup(name);

  if (!show) return <NotFoundPage />;
  if (name === DELETED) return <StatusPage title={t('deleted')} />;
  if (!group) return <LoadStatus error={error} ready={ready} notFoundKey="didnt_find_group" loadingLabel={t('loading')} />;

  // Join and leave change what the page shows: the group, its lists and its posts load again.
  const reload = () => {
    void queryClient.invalidateQueries({ queryKey: queryKeys.group(db.name, name) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.feedsOf(db.name, feedName({ group: name })) });
    void queryClient.invalidateQueries({ queryKey: queryKeys.groupUsers(db.name, name) });
  };
  const canSee = !group.private || group.member || group.admin;
  return (
    <section className="group-page">
      {show === 'posts' ? (
        <PageHeader title={group.name} />
      ) : (
        <PageHeader title={`${group.name} · ${t(`lists.${show}`)}`} fallback={groupPath(group.name)} />
      )}
      <GroupHeader group={group} onChanged={reload} />
      {show === 'posts' &&
        (canSee ? (
          <>
            <PinnedPost group={group} />
            <ListingPosts source={{ group: group.name, groupId: group._id }} emptyLabel={t('empty.posts')} />
          </>
        ) : (
          <p className="group-need-join">{t('need_join')}</p>
        ))}
      {show !== 'posts' && (
        <>
          <h2 className="group-list-title">
            <AppLink to={groupPath(group.name)}>{t('back_to_posts')}</AppLink> · {t(`lists.${show}`)}
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

