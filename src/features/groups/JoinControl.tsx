import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { type Group, joinGroup, joinNeedsApproval, leaveGroup, requestToJoin, withdrawRequest } from './groups.api';
import './groups.css';
import { useLoginLink } from '../../components/login-return';

export type JoinState = 'none' | 'leave' | 'banned' | 'request' | 'requested' | 'join' | 'login';

export function joinStateOf(group: Group, loggedIn: boolean): JoinState {
  if (group.owner) return 'none';
  if (group.member) return 'leave';
  if (group.banned) return 'banned';
  if (!loggedIn) return 'login';
  if (joinNeedsApproval(group)) return group.requested ? 'requested' : 'request';
  return 'join';
}

/**
 * The join control: the owner sees nothing, a member leave, a banned user a label, a
 * request-to-join group a request button (info toast once sent) and, once sent, a way to withdraw
 * it; otherwise join. Join, leave and a withdrawal load the group again; failures are only logged.
 */
export function JoinControl({ group, onChanged }: { group: Group; onChanged: () => void }) {
  const { t } = useTranslation('groups');
  const loginLink = useLoginLink();
  const { isLoggedIn } = useSession();
  const [busy, setBusy] = useState(false);
  // What this screen last did to the request, until the group loaded again says the same.
  const [requested, setRequested] = useState<boolean | null>(null);
  const stored = joinStateOf(group, isLoggedIn);
  const state = requested === null || (stored !== 'request' && stored !== 'requested') ? stored : requested ? 'requested' : 'request';

  // What the buttons that call the server do, and whether each is the page's main action.
  const actions = {
    leave: { call: () => leaveGroup(group.name), after: onChanged, primary: false },
    join: { call: () => joinGroup(group.name), after: onChanged, primary: true },
    request: {
      call: () => requestToJoin(group.name),
      after: () => {
        setRequested(true);
        toast.info('info/request_send');
      },
      primary: true,
    },
    withdraw: {
      call: () => withdrawRequest(group.name),
      after: () => {
        setRequested(false);
        toast.info('info/request_withdrawn');
        onChanged();
      },
      primary: false,
    },
  };

  async function run({ call, after }: { call: () => Promise<unknown>; after: () => void }) {
    setBusy(true);
    try {
      await call();
      after();
    } catch (err) {
      console.error('group membership', err);
    } finally {
      setBusy(false);
    }
  }

  switch (state) {
    case 'none':
      return null;
    case 'banned':
      return <span className="badge group-banned">{t('join.banned')}</span>;
    case 'login':
      return (
        <Link className="button" to={loginLink}>
          {t('join.login')}
        </Link>
      );
    case 'requested':
      return (
        <>
          <button type="button" className="button" disabled>
            {t('join.requested')}
          </button>
          <button type="button" className="button" disabled={busy} onClick={() => void run(actions.withdraw)}>
            {t('join.withdraw')}
          </button>
        </>
      );
    default: {
      const action = actions[state];
      return (
        <button type="button" className={action.primary ? 'button button--primary' : 'button'} disabled={busy} onClick={() => void run(action)}>
          {t(`join.${state}`)}
        </button>
      );
    }
  }
}
