import { useEffect, useEffectEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { InfiniteList } from '../../components/InfiniteList';
import { NotStoredLine } from '../../components/StatusPage';
import { errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { useSession } from '../../lib/session';
import { onNotificationsArrived } from '../../lib/notification-signals';
import { toast } from '../../lib/toast';
import { NotificationItem } from './NotificationItem';
import {
  type JoinDecision,
  type Notification,
  clearNotifications,
  decideJoinRequest,
  deleteNotification,
  markAllSeen,
} from './notifications.api';
import { useNotifications } from './useNotifications';
import './notifications.css';

/**
 * /notifications and /account/notifications: six items a page, the next page when the
 * last item scrolls into view, a per-item delete, a clear-all action, accept and deny on join
 * requests. Opening the list marks everything seen, which empties the unread badge. Once the server
 * refused the session the stored list stays readable, without the actions and without the calls
 * that could only be refused again (the shell offers the login).
 */
export default function NotificationsPage() {
  const { t } = useTranslation('notifications');
  const db = useDb();
  const { expired } = useSession();
  const list = useNotifications(!expired);
  const [busy, setBusy] = useState<string | null>(null);
  // Clearing cannot be undone: asked first.
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [now] = useState(() => Date.now());

  useEffect(() => {
    if (!expired) markAllSeen().catch(() => undefined);
  }, [db, expired]);

  // What arrives while the list is open shows up in it, and is seen.
  const onArrival = useEffectEvent(() => {
    if (expired) return;
    list
      .reload()
      .then(markAllSeen)
      .catch(() => undefined);
  });
  useEffect(() => onNotificationsArrived(onArrival), []);

  const onDelete = async (n: Notification) => {
    setBusy(n._id);
    try {
      await deleteNotification(db, n._id);
    } catch (err) {
      toast.error(errorMessageOf(err));
    } finally {
      setBusy(null);
    }
  };

  const onClear = async () => {
    setBusy('all');
    try {
      await clearNotifications(db);
    } catch (err) {
      toast.error(errorMessageOf(err));
    } finally {
      setBusy(null);
    }
  };

  // The list reloads after the decision, whatever the answer; moderation failures are only logged.
  const onDecide = async (n: Notification, decision: JoinDecision) => {
    if (!n.groupname || !n.pfp) return;
    setBusy(n._id);
    try {
      const reply = await decideJoinRequest(n.groupname, n.pfp, decision);
      if (typeof reply?.message === 'string' && reply.message.startsWith('info/')) toast.info(reply.message);
    } catch (err) {
      console.error(err);
    }
    try {
      await list.reload();
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="notifications-page" aria-labelledby="notifications-title">
      <header className="notifications-page__header">
        <h1 id="notifications-title">{t('title')}</h1>
        {expired ? null : (
          <button
            type="button"
            className="link-button"
            disabled={list.items.length === 0 || busy !== null}
            onClick={() => setConfirmingClear(true)}
          >
            {t('clearAll')}
          </button>
        )}
      </header>
      <InfiniteList
        className="notifications-list"
        items={list.items}
        keyOf={(n) => n._id}
        renderItem={(n) => (
          <NotificationItem
            notification={n}
            now={now}
            busy={busy === n._id || busy === 'all'}
            onDelete={(item) => void onDelete(item)}
            onDecide={(item, decision) => void onDecide(item, decision)}
            readOnly={expired}
          />
        )}
        hasMore={list.hasMore}
        loading={list.isLoading || (list.isFetching && list.items.length === 0)}
        onMore={list.loadMore}
        loadingLabel={t('loading')}
        moreLabel={t('loadMore')}
        emptyLabel={list.unavailable || expired ? undefined : t('empty')}
      />
      {list.unavailable && <NotStoredLine error={list.error} />}
      {expired && !list.unavailable && !list.isLoading && list.items.length === 0 ? (
        <p className="list-status" role="status">
          {t('session.not_saved', { ns: 'common' })}
        </p>
      ) : null}
      {confirmingClear ? (
        <ConfirmDialog
          question={t('clearAllQuestion')}
          action={t('clearAllAction')}
          onCancel={() => setConfirmingClear(false)}
          onConfirm={() => {
            setConfirmingClear(false);
            void onClear();
          }}
        />
      ) : null}
    </section>
  );
}
