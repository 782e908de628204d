import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ErrorKey } from '#core/errors';
import { ApiError, NetworkError, errorKeyOf, isSessionRefused } from '../lib/api/client';
import { AppLink } from './AppLink';
import './StatusPage.css';
import { Skeleton } from './Skeleton';

interface StatusPageProps {
  title: string;
  text?: ReactNode;
  children?: ReactNode;
}

/** A centred message with a link back to the feed: not-found and unavailable screens. */
export function StatusPage({ title, text, children }: StatusPageProps) {
  const { t } = useTranslation('common');
  return (
    <section className="status-page">
      <h1 className="status-page__title">{title}</h1>
      {text ? <p className="status-page__text">{text}</p> : null}
      {children}
      <AppLink className="button button--primary" to="/feed">
        {t('status.toFeed')}
      </AppLink>
    </section>
  );
}

export function NotFoundPage() {
  const { t } = useTranslation('common');
  return <StatusPage title={t('notFound.title')} text={t('notFound.text')} />;
}

/**
 * What to say, as a message id, of something this device has not stored when its load failed for
 * want of an answer (offline) or of a session the server takes; null for other failures.
 */
export function notStoredMessage(error: unknown): 'common:not_offline' | 'common:session.not_saved' | null {
  if (error instanceof NetworkError) return 'common:not_offline';
  if (isSessionRefused(error)) return 'common:session.not_saved';
  return null;
}

interface LoadStatusProps {
  /** The failure of the last load, if any. */
  error: unknown;
  /** Whether the local copy was looked up (a failure is shown only then). */
  ready: boolean;
  /** Shown when the server says the item does not exist (404). */
  notFoundKey: ErrorKey;
  loadingLabel: string;
}

/**
 * The page of an item (a user, a group, a post) whose load failed: not found, not on this device,
 * or what went wrong, said alike whatever the item.
 */
export function LoadFailure({ error, notFoundKey }: Pick<LoadStatusProps, 'error' | 'notFoundKey'>) {
  const { t } = useTranslation(['error', 'common']);
  const notStored = notStoredMessage(error);
  if (notStored) return <StatusPage title={t(notStored)} />;
  const key = error instanceof ApiError && error.status === 404 ? notFoundKey : errorKeyOf(error, 'while_loading');
  return <StatusPage title={t(key)} />;
}

/** A page's item that is not there (yet): a status line while it loads, its failure once known. */
export function LoadStatus({ error, ready, notFoundKey, loadingLabel }: LoadStatusProps) {
  if (error && ready) return <LoadFailure error={error} notFoundKey={notFoundKey} />;
  return <Skeleton kind="subject" count={1} label={loadingLabel} />;
}

/**
 * In place of a list's "nothing here" when nothing of it is stored and it could not be loaded:
 * offline, or with the session refused, it is not on this device, which says nothing about
 * whether it is empty.
 */
export function NotStoredLine({ error }: { error: unknown }) {
  const { t } = useTranslation(['error', 'common']);
  return (
    <p className="list-status" role="status">
      {t(notStoredMessage(error) ?? 'while_loading')}
    </p>
  );
}
