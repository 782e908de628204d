import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupUserItem } from '#core/api/common';
import { groupsApi } from '#core/api/groups';
import { PAGE_SIZES } from '#core/limits';
import { UserRow } from '../../components/EntityRow';
import { PagedInfiniteList } from '../../components/InfiniteList';
import { errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { usePagedList } from '../../lib/paged-list';
import { isGroupQuery, listKeys } from '../../lib/query/keys';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { type ModerationAction, moderate, storeModeration } from './groups.api';
import '../../components/danger-button.css';
import './groups.css';

const INFO: Record<ModerationAction, string> = {
  admin: 'info/made_admin',
  deadmin: 'info/revoked_admin',
  ban: 'info/user_banned',
  unban: 'info/user_unbanned',
};

/**
 * The members or banned view of a group: users with moderation actions for admins. A ban
 * or unban takes the user out of the shown list and changes the group's counts at once; a failed
 * ban or unban shows the server's message, other failures are only logged.
 */
export function MembersList({ groupName, which, isAdmin }: { groupName: string; which: 'members' | 'banned'; isAdmin: boolean }) {
  const { t } = useTranslation('groups');
  const { id: myId } = useSession();
  const db = useDb();
  const queryClient = useQueryClient();
  const list = usePagedList({
    list: listKeys.groupUsers(groupName, which),
    endpoint: groupsApi[which],
    params: { name: groupName },
    field: 'userList',
    idOf: (u) => u.pfp,
    limit: PAGE_SIZES.users,
  });
  const [adminOf, setAdminOf] = useState<Readonly<Record<string, boolean>>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const canModerate = isAdmin || !!list.first?.group.admin;

  async function act(user: GroupUserItem, action: ModerationAction) {
    setBusy(user.pfp);
    try {
      const reply = await moderate(groupName, action, user.pfp);
      toast.info(reply?.message ?? INFO[action]);
      if (action === 'ban' || action === 'unban') {
        await storeModeration(db, groupName, action, user.pfp);
        // The other list gains the user somewhere only the server knows.
        void queryClient.invalidateQueries({ predicate: (query) => isGroupQuery(query.queryKey, db.name, groupName) });
      } else setAdminOf((a) => ({ ...a, [user.pfp]: action === 'admin' }));
    } catch (err) {
      if (action === 'ban' || action === 'unban') toast.error(errorMessageOf(err));
      else console.error('moderation', err);
    } finally {
      setBusy(null);
    }
  }

  return (
    <PagedInfiniteList
      className="entity-list group-users"
      list={list}
      ns="groups"
      items={list.items}
      keyOf={(u) => u.pfp}
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
            <UserRow user={user} />
            {user.owner && <span className="badge badge--owner">{t('roles.owner')}</span>}
            {!user.owner && admin && <span className="badge badge--admin">{t('roles.admin')}</span>}
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
