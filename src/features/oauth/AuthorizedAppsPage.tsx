import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AuthorizedApp } from '#core/api/oauth';
import { PageHeader } from '../../components/PageHeader';
import { NetworkError, errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { useSubmit } from '../../lib/forms';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { queryKeys } from '../../lib/query/keys';
import { useStoredValue } from '../../lib/query/stored';
import { AUTHORIZED_APPS_META_KEY, fetchAuthorizedApps, revokeApp } from './oauth.api';
import { describeScope } from './scopes';
import '../../components/removable-list.css';
import './oauth.css';

function AppRow({ app, busy, online, onRevoke }: { app: AuthorizedApp; busy: boolean; online: boolean; onRevoke: () => void }) {
  const { t, i18n } = useTranslation('oauth');
  const date = (time: number) => new Intl.DateTimeFormat(currentLanguage(i18n), { dateStyle: 'medium' }).format(time);
  return (
    <li className="removable-list__item">
      <span className="removable-list__text">
        <span className="removable-list__name">{app.name}</span>
        {app.website ? <span className="authorized-apps__details">{app.website}</span> : null}
        <span className="authorized-apps__details">{app.scopes.map((scope) => describeScope(t, scope)).join(' · ')}</span>
        <span className="authorized-apps__details">
          {t('apps.authorized', { date: date(app.authorizedAt) })} · {app.lastUsedAt ? t('apps.lastUsed', { date: date(app.lastUsedAt) }) : t('apps.neverUsed')}
        </span>
      </span>
      <button type="button" className="button button--danger" disabled={busy || !online} onClick={onRevoke} aria-label={t('apps.revokeNamed', { name: app.name })}>
        {t('apps.revoke')}
      </button>
    </li>
  );
}

/**
 * /account/apps: the fediverse apps the account let in, kept in the local database so the list
 * shows offline once seen; revoking one needs the server, so it waits while offline.
 */
export default function AuthorizedAppsPage() {
  const { t } = useTranslation('oauth');
  const db = useDb();
  const online = useOnline();
  const stored = useStoredValue<AuthorizedApp[]>(AUTHORIZED_APPS_META_KEY, queryKeys.authorizedApps(db.name), (db, signal) => fetchAuthorizedApps(db, signal), true, {
    staleTime: 0,
  });
  const [info, setInfo] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit((err) => errorMessageOf(err));
  const apps = stored.value;
  const revoke = (id: string) =>
    void submit(null, async () => {
      setInfo(await revokeApp(db, id));
    });

  return (
    <section className="account-page" aria-labelledby="apps-title">
      <PageHeader title={t('apps.title')} titleId="apps-title" heading fallback="/account" />
      <div className="authorized-apps">
        <p className="authorized-apps__note">{t('apps.note')}</p>
        {apps === undefined ? (
          <p className="list-status" role="status">
            {stored.error instanceof NetworkError || (stored.ready && !online) ? t('apps.notLoaded') : stored.error ? null : t('loading', { ns: 'common' })}
          </p>
        ) : apps.length === 0 ? (
          <p>{t('apps.none')}</p>
        ) : (
          <ul className="removable-list" aria-label={t('apps.title')}>
            {apps.map((app) => (
              <AppRow key={app.id} app={app} busy={busy} online={online} onRevoke={() => revoke(app.id)} />
            ))}
          </ul>
        )}
        {!online ? <p className="authorized-apps__note">{t('apps.offline')}</p> : null}
        {error ? (
          <p className="field__error" role="alert">
            {translateMessage(t, error)}
          </p>
        ) : info ? (
          <p role="status">{translateMessage(t, info)}</p>
        ) : null}
      </div>
    </section>
  );
}
