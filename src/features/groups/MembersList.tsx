import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GroupUserItem } from '#core/api/common';
import { groupsApi } from '#core/api/groups';
import { PAGE_SIZES } from '#core/limits';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { UserRow } from '../../components/EntityRow';
import { PagedInfiniteList } from '../../components/InfiniteList';
import { errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { usePagedList } from '../../lib/query/paged-list';
import { type GroupUsersShown, isGroupQuery, listKeys } from '../../lib/query/keys';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { type ModerationAction, type RequestAnswer, answerRequest, moderate, storeModeration } from './groups.api';
import '../../components/danger-button.css';
import './groups.css';

type UserAction = ModerationAction | RequestAnswer;

const INFO: Record<UserAction, string> = {
  admin: 'info/made_admin',
  deadmin: 'info/revoked_admin',
  ban: 'info/user_banned',
  unban: 'info/user_unbanned',
  accept: 'info/request_accepted',
  deny: 'info/request_denied',
};

const isRequestAnswer = (action: UserAction): action is RequestAnswer => action === 'accept' || action === 'deny';
/** Actions that move the user to another list (or off every list): the lists and counts load again. */
const movesUser = (action: UserAction) => action !== 'admin' && action !== 'deadmin';

/** What an admin may do to a user in each list. */
function actionsFor(which: GroupUsersShown, admin: boolean): UserAction[] {
  if (which === 'banned') return ['unban'];
  if (which === 'requests') return ['accept', 'deny'];
  return [admin ? 'deadmin' : 'admin', 'ban'];
}

/**
 * The members, banned or join-request view of a group: users with moderation actions for admins. A
 * ban asks first. A ban, unban or answer to a request takes the user out of the shown list (a ban
 * or unban changes the group's counts at once); a failure of one of them shows the server's
 * message, other failures are only logged.
 */
export function MembersList({ groupName, which, isAdmin }: { groupName: string; which: GroupUsersShown; isAdmin: boolean }) {
  const { t } = useTranslation(['groups', 'common']);
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
  const [banning, setBanning] = useState<GroupUserItem | null>(null);
  const canModerate = isAdmin || !!list.first?.group.admin;

  async function act(user: GroupUserItem, action: UserAction) {
    setBusy(user.pfp);
    try {
      const reply = isRequestAnswer(action) ? await answerRequest(groupName, action, user.pfp) : await moderate(groupName, action, user.pfp);
      toast.info(reply?.message ?? INFO[action]);
      if (action === 'ban' || action === 'unban') await storeModeration(db, groupName, action, user.pfp);
      if (movesUser(action)) {
        // The other list gains the user somewhere only the server knows.
        void queryClient.invalidateQueries({ predicate: (query) => isGroupQuery(query.queryKey, db.name, groupName) });
      } else setAdminOf((a) => ({ ...a, [user.pfp]: action === 'admin' }));
    } catch (err) {
      if (movesUser(action)) toast.error(errorMessageOf(err));
      else console.error('moderation', err);
    } finally {
      setBusy(null);
    }
  }

  function choose(user: GroupUserItem, action: UserAction) {
    if (action === 'ban') setBanning(user);
    else void act(user, action);
  }

  return (
    <>
      <PagedInfiniteList
        className="entity-list group-users"
        list={list}
        ns="groups"
        items={list.items}
        keyOf={(u) => u.pfp}
        emptyLabel={t(`empty.${which}`)}
        renderItem={(user) => {
          const admin = adminOf[user.pfp] ?? user.admin;
          const actions = canModerate && !user.owner && user.pfp !== myId ? actionsFor(which, admin) : [];
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
                      className={`button${action === 'ban' ? ' button--danger' : action === 'accept' ? ' button--primary' : ''}`}
                      disabled={busy === user.pfp}
                      aria-label={t(`moderation.${action}_label`, { username: user.username })}
                      onClick={() => choose(user, action)}
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
      {banning && (
        <ConfirmDialog
          question={t('common:conf.ban_user', { username: banning.username, name: groupName })}
          action={t('common:conf.ban_action', { username: banning.username })}
          onCancel={() => setBanning(null)}
          onConfirm={() => {
            setBanning(null);
            void act(banning, 'ban');
          }}
        />
      )}
    </>
  );
}
