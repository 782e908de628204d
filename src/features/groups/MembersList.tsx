import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { PAGE_SIZES } from '#core/limits';
import { Avatar } from '../../components/Avatar';
import { InfiniteList } from '../../components/InfiniteList';
import { ApiError } from '../../lib/api/client';
import { usePagedList } from '../../lib/paged-list';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { type GroupUser, type GroupUserList, type ModerationAction, moderate } from './groups.api';

const INFO: Record<ModerationAction, string> = {
  admin: 'info/made_admin',
  deadmin: 'info/revoked_admin',
  ban: 'info/user_banned',
  unban: 'info/user_unbanned',
};

/**
 * The members or banned view of a group: users with moderation actions for admins. A ban
 * or unban takes the user out of the shown list; a failed ban shows the server's message, other
 * failures are only logged.
 */
export function MembersList({ groupName, which, isAdmin }: { groupName: string; which: 'members' | 'banned'; isAdmin: boolean }) {
  const { t } = useTranslation('groups');
  const { id: myId } = useSession();
  const list = usePagedList<GroupUser, GroupUserList>({
    key: ['group-users', groupName, which],
    path: `/group/${encodeURIComponent(groupName)}/${which}`,
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  const [removed, setRemoved] = useState<ReadonlySet<string>>(new Set());
  const [adminOf, setAdminOf] = useState<Readonly<Record<string, boolean>>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const canModerate = isAdmin || !!list.first?.group.admin;

  async function act(user: GroupUser, action: ModerationAction) {
    setBusy(user.pfp);
    try {
      const reply = await moderate(groupName, action, user.pfp);
      toast.info(reply?.message ?? INFO[action]);
      if (action === 'ban' || action === 'unban') setRemoved((r) => new Set(r).add(user.pfp));
      else setAdminOf((a) => ({ ...a, [user.pfp]: action === 'admin' }));
    } catch (err) {
      if (action === 'ban') toast.error(err instanceof ApiError && err.key ? `error/${err.key}` : 'error/server_error');
      else console.error('moderation', err);
    } finally {
      setBusy(null);
    }
  }

  const items = list.items.filter((u) => !removed.has(u.pfp));
  return (
    <InfiniteList
      className="entity-list group-users"
      items={items}
      keyOf={(u) => u.pfp}
      hasMore={list.hasMore}
      loading={list.loading}
      onMore={list.loadMore}
      loadingLabel={t('loading')}
      moreLabel={t('load_more')}
      emptyLabel={t(`empty.${which}`)}
      renderItem={(user) => {
        const admin = adminOf[user.pfp] ?? user.admin;
        const actions: ModerationAction[] = [];
        if (canModerate && !user.owner && user.pfp !== myId) {
          if (which === 'banned') actions.push('unban');
          else actions.push(admin ? 'deadmin' : 'admin', 'ban');
        }
        return (
          <div className="group-user">
            <Link className="entity-list__item" to={`/u/${encodeURIComponent(user.username)}`}>
              <Avatar id={user.pfp} url={user.pfpUrl} size={40} />
              <span>{user.username}</span>
            </Link>
            {user.owner && <span className="badge">{t('roles.owner')}</span>}
            {!user.owner && admin && <span className="badge">{t('roles.admin')}</span>}
            {actions.length > 0 && (
              <span className="group-user__actions">
                {actions.map((action) => (
                  <button
                    key={action}
                    type="button"
                    className={`button${action === 'ban' ? ' button--danger' : ''}`}
                    disabled={busy === user.pfp}
                    aria-label={t(`moderation.${action}_label`, { username: user.username })}
                    onClick={() => void act(user, action)}
                  >
                    {t(`moderation.${action}`)}
                  </button>
                ))}
              </span>
            )}
          </div>
        );
      }}
    />
  );
}
