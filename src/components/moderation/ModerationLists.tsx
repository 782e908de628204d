import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLoggedAction, type ModerationLogItem, type ReportItem } from '#core/api/reports';
import { ApiError, NetworkError, errorKeyOf } from '../../lib/api/client';
import { translateMessage } from '../../lib/i18n';
import {
  type ModerationScope,
  type ReportAction,
  actOnReport,
  setSuspended,
  useModerationLog,
  useRefreshModeration,
  useReportQueue,
} from '../../lib/moderation';
import { useOnline } from '../../lib/online';
import { toast } from '../../lib/toast';
import { AppLink } from '../AppLink';
import type { ListPages } from '../InfiniteList';
import { ConfirmDialog } from '../ConfirmDialog';
import { RelativeTime } from '../RelativeTime';
import './moderation.css';

/** Why a list is missing: offline and never stored, refused (403 and the like), or not loaded yet. */
function ListStatus({ error, ready, empty }: { error: unknown; ready: boolean; empty: string }) {
  const { t } = useTranslation(['moderation', 'common']);
  if (error instanceof NetworkError) return <p className="moderation-empty">{t('common:not_offline')}</p>;
  if (error instanceof ApiError) return <p className="moderation-empty" role="alert">{translateMessage(t, `error/${errorKeyOf(error)}`)}</p>;
  return <p className="moderation-empty">{ready ? empty : t('loading')}</p>;
}

/** A list read page by page: its items, else why there are none, then a button for the next page. */
export function PagedList<T>({ list, empty, children }: { list: ListPages<T>; empty: string; children: (items: T[]) => ReactNode }) {
  const { t } = useTranslation('moderation');
  return (
    <>
      {list.items.length > 0 ? (
        children(list.items)
      ) : (
        <ListStatus error={list.unavailable ? list.error : null} ready={!list.loading} empty={empty} />
      )}
      {list.hasMore && (
        <button type="button" className="button" onClick={list.loadMore}>
          {t('more')}
        </button>
      )}
    </>
  );
}

/** A list read page by page as a list of rows, one an item (the caller's `<li>`, with its key). */
export function PagedRows<T>({ list, empty, label, children }: { list: ListPages<T>; empty: string; label?: string; children: (item: T) => ReactNode }) {
  return (
    <PagedList list={list} empty={empty}>
      {(items) => (
        <ul className="moderation-log" aria-label={label}>
          {items.map(children)}
        </ul>
      )}
    </PagedList>
  );
}

/** Acting needs the server: a decision made on a stale copy offline must not wait in a queue. */
function OfflineNote() {
  const { t } = useTranslation('moderation');
  return useOnline() ? null : <p className="moderation-offline" role="status">{t('offline')}</p>;
}

/**
 * A moderation call: busy while it runs, its message (or its refusal) shown, then every queue, log
 * and list read again, whatever happened.
 */
export function useModerationCall() {
  const refresh = useRefreshModeration();
  const [busy, setBusy] = useState(false);
  async function run(call: () => Promise<{ message: string }>): Promise<boolean> {
    setBusy(true);
    try {
      toast.info((await call()).message);
      return true;
    } catch (err) {
      toast.error(`error/${errorKeyOf(err)}`);
      return false;
    } finally {
      setBusy(false);
      await refresh();
    }
  }
  return { busy, run };
}

interface Confirming {
  report: ReportItem;
  action: ReportAction;
}

/** One reported thing: what, by whom, the reasons, and the actions on it. */
function ReportCard({ report, actions, scope, onAct, onSuspension, busy }: {
  report: ReportItem;
  actions: readonly ReportAction[];
  scope: ModerationScope;
  onAct: (action: ReportAction) => void;
  onSuspension: (suspend: boolean) => void;
  busy: boolean;
}) {
  const { t } = useTranslation('moderation');
  const online = useOnline();
  const offered = actions.filter((action) => !(action === 'delete' && report.kind === 'user'));
  return (
    <li className="moderation-report">
      <p className="moderation-report__what">
        <span className="badge">{t(`kind.${report.kind}`)}</span>{' '}
        {report.user ? <AppLink to={`/u/${encodeURIComponent(report.user.username)}`}>{report.user.username}</AppLink> : t('gone')}
        {report.user?.suspended && <span className="badge moderation-suspended">{t('suspended')}</span>}
      </p>
      {report.text !== null && <blockquote className="moderation-report__text">{report.text}</blockquote>}
      {report.postId && (
        <AppLink to={report.kind === 'comment' ? `/p/${report.postId}?c=${report.targetId}` : `/p/${report.postId}`}>{t('open')}</AppLink>
      )}
      <p className="moderation-report__meta">
        {t('reporters', { count: report.reporters })} · <RelativeTime time={report.createdAt} />
      </p>
      <ul className="moderation-report__reasons" aria-label={t('reasons')}>
        {report.reasons.map((reason, index) => (
          <li key={index}>{reason}</li>
        ))}
      </ul>
      <div className="moderation-report__actions">
        {offered.map((action) => (
          <button
            key={action}
            type="button"
            className={`button${action === 'dismiss' ? '' : ' button--danger'}`}
            disabled={!online || busy}
            onClick={() => onAct(action)}
          >
            {t(`action.${action}`, { username: report.user?.username ?? '' })}
          </button>
        ))}
        {scope.kind === 'all' && report.user?.suspended && (
          <button type="button" className="button" disabled={!online || busy} onClick={() => onSuspension(false)}>
            {t('action.unsuspend')}
          </button>
        )}
      </div>
    </li>
  );
}

/**
 * The open reports of a scope with the actions its moderators have. Each action is confirmed, sent
 * at once (online only) and followed by the queue and the log read again.
 */
export function ReportQueue({ scope, actions }: { scope: ModerationScope; actions: readonly ReportAction[] }) {
  const { t } = useTranslation('moderation');
  const queue = useReportQueue(scope);
  const [confirming, setConfirming] = useState<Confirming | null>(null);
  const { busy, run } = useModerationCall();

  return (
    <section className="moderation-section" aria-labelledby="moderation-reports">
      <h2 id="moderation-reports">{t('reports')}</h2>
      <OfflineNote />
      <PagedList list={queue} empty={t('no_reports')}>
        {(reports) => (
          <ul className="moderation-reports">
            {reports.map((report) => (
              <ReportCard
                key={report._id}
                report={report}
                actions={actions}
                scope={scope}
                busy={busy}
                onAct={(action) => setConfirming({ report, action })}
                onSuspension={(suspend) => report.user && void run(() => setSuspended(report.user!._id, suspend))}
              />
            ))}
          </ul>
        )}
      </PagedList>
      {confirming && (
        <ConfirmDialog
          question={t(`confirm.${confirming.action}`, { username: confirming.report.user?.username ?? '' })}
          action={t(`confirm_action.${confirming.action}`, { username: confirming.report.user?.username ?? '' })}
          onCancel={() => setConfirming(null)}
          onConfirm={() => {
            const { report, action } = confirming;
            setConfirming(null);
            void run(() => actOnReport(scope, report._id, action));
          }}
        />
      )}
    </section>
  );
}

/** The log of a scope's moderation actions, newest first. */
export function ModerationLog({ scope }: { scope: ModerationScope }) {
  const { t } = useTranslation('moderation');
  const log = useModerationLog(scope);
  const describe = (entry: ModerationLogItem) =>
    // An action this version does not know yet (a newer server) is named as it came.
    isLoggedAction(entry.action)
      ? t(`log.${entry.action}`, {
          actor: entry.actor ?? t('gone'),
          kind: t(`kind.${entry.targetKind}`, { defaultValue: entry.targetKind }),
          group: entry.group ?? '',
          target: entry.targetId,
        })
      : entry.action;
  return (
    <section className="moderation-section" aria-labelledby="moderation-log">
      <h2 id="moderation-log">{t('log.title')}</h2>
      <PagedRows list={log} empty={t('log.empty')}>
        {(entry) => (
          <li key={entry._id}>
            {describe(entry)} · <RelativeTime time={entry.createdAt} />
          </li>
        )}
      </PagedRows>
    </section>
  );
}
