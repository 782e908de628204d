import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from './AppLink';
import './StatusPage.css';

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
