import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { AuthorizationPrompt } from '#core/api/oauth';
import { PageHeader } from '../../components/PageHeader';
import { NetworkError, errorMessageOf } from '../../lib/api/client';
import { pendingOutboxCount } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { logOutAndForget } from '../../lib/logout';
import { LANGUAGES, type Language, switchLanguage, translateMessage } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { queryKeys } from '../../lib/query/keys';
import { useSession } from '../../lib/session';
import { decide, fetchPrompt, forcesLogin, requestOf, signInAddressOf } from './oauth.api';
import { describeScope } from './scopes';
import './oauth.css';

/** Where the browser goes with the answer: the app's own address (tests replace it). */
export const leavePage = { to: (address: string) => window.location.assign(address) };

type Outcome = { kind: 'code'; code: string } | { kind: 'denied' } | { kind: 'leaving' };

function Consent({ prompt, onDecide, busy }: { prompt: AuthorizationPrompt; onDecide: (approve: boolean) => void; busy: boolean }) {
  const { t } = useTranslation('oauth');
  const { username } = useSession();
  const online = useOnline();
  return (
    <>
      <h2 className="oauth-consent__app">{t('authorize.asks', { app: prompt.app.name })}</h2>
      {prompt.app.website ? (
        <p className="oauth-consent__website">
          <a href={prompt.app.website} target="_blank" rel="noopener noreferrer nofollow">
            {t('authorize.website')}: {new URL(prompt.app.website).host}
          </a>
        </p>
      ) : null}
      <p className="oauth-consent__who">{t('authorize.signedInAs', { username: username ?? '' })}</p>
      <h3 className="oauth-consent__scopes-title" id="oauth-scopes">{t('authorize.scopesTitle')}</h3>
      <ul className="oauth-consent__scopes" aria-labelledby="oauth-scopes">
        {prompt.scopes.map((scope) => (
          <li key={scope}>{describeScope(t, scope)}</li>
        ))}
      </ul>
      {!online ? <p className="oauth-consent__note">{t('authorize.offline')}</p> : null}
      <div className="oauth-consent__actions">
        <button type="button" className="button" disabled={busy || !online} onClick={() => onDecide(false)}>
          {t('authorize.deny')}
        </button>
        <button type="button" className="button button--primary" disabled={busy || !online} onClick={() => onDecide(true)}>
          {t('authorize.approve')}
        </button>
      </div>
    </>
  );
}

/**
 * The app asked for a sign-in even with a session (`force_login`, so its person may choose another
 * account): signing in again logs this device out first, and the sign-in comes back to the request.
 */
function SignInAgain({ app, onSignIn, unsent, busy }: { app: string; onSignIn: () => void; unsent: number; busy: boolean }) {
  const { t } = useTranslation('oauth');
  const { username } = useSession();
  return (
    <>
      <h2 className="oauth-consent__app">{t('authorize.signInAgain', { app })}</h2>
      <p className="oauth-consent__who">{t('authorize.signedInAs', { username: username ?? '' })}</p>
      {unsent > 0 ? (
        <p className="oauth-consent__note" role="alert">
          {t('authorize.unsent', { count: unsent })}
        </p>
      ) : null}
      <div className="oauth-consent__actions">
        <button type="button" className="button button--primary" disabled={busy} onClick={onSignIn}>
          {t('authorize.signIn')}
        </button>
      </div>
    </>
  );
}

function ShownCode({ app, code }: { app: string; code: string }) {
  const { t } = useTranslation('oauth');
  const [copied, setCopied] = useState(false);
  const copy = () => void navigator.clipboard?.writeText(code).then(() => setCopied(true), () => undefined);
  return (
    <>
      <h2 className="oauth-consent__app">{t('authorize.codeTitle')}</h2>
      <p>{t('authorize.codeText', { app })}</p>
      <input className="oauth-consent__code" readOnly value={code} aria-label={t('authorize.codeTitle')} onFocus={(event) => event.currentTarget.select()} />
      <div className="oauth-consent__actions">
        <button type="button" className="button button--primary" onClick={copy}>
          {t('authorize.copy')}
        </button>
      </div>
      {copied ? <p role="status">{t('authorize.copied')}</p> : null}
    </>
  );
}

/**
 * /oauth/authorize: a fediverse app asks to use the account. The page is behind the sign-in, which
 * brings the person back here with the app's whole request; the server checks the request before
 * anything is shown, and an approval or a denial goes back to the app's registered address (or
 * the code is shown to copy, for an app without one). An app asking `force_login` is first sent
 * through a new sign-in. Nothing here works offline: the app waits.
 */
export default function AuthorizePage() {
  const { t, i18n } = useTranslation('oauth');
  const db = useDb();
  const { search } = useLocation();
  const request = useMemo(() => requestOf(search), [search]);
  const lang = new URLSearchParams(search).get('lang')?.slice(0, 2);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // Items of the outbox a logout would drop: asked once, then the person confirms by a second click.
  const [unsent, setUnsent] = useState<number | null>(null);
  const prompt = useQuery({
    queryKey: queryKeys.oauthPrompt(db.name, search),
    queryFn: ({ signal }) => fetchPrompt(request, signal),
    retry: false,
    staleTime: Infinity,
  });

  // The app may say which language its person reads.
  useEffect(() => {
    if (lang && (LANGUAGES as readonly string[]).includes(lang)) void switchLanguage(i18n, lang as Language);
  }, [lang, i18n]);

  const onDecide = (approve: boolean) => {
    setBusy(true);
    setFailure(null);
    decide({ ...request, approve }).then(
      ({ redirect, code }) => {
        if (redirect) {
          setOutcome({ kind: 'leaving' });
          leavePage.to(redirect);
        } else setOutcome(code ? { kind: 'code', code } : { kind: 'denied' });
      },
      (err: unknown) => {
        setFailure(errorMessageOf(err));
        setBusy(false);
      },
    );
  };

  const signInAgain = async () => {
    const count = unsent === null ? await pendingOutboxCount().catch(() => 0) : 0;
    if (count > 0) {
      setUnsent(count);
      return;
    }
    setBusy(true);
    await logOutAndForget();
    // A whole page load: nothing of the account signed out stays in memory.
    leavePage.to(signInAddressOf(search));
  };

  const app = prompt.data?.app.name ?? '';
  let body;
  if (outcome?.kind === 'code') body = <ShownCode app={app} code={outcome.code} />;
  else if (outcome) body = <p role="status">{t(outcome.kind === 'denied' ? 'authorize.denied' : 'authorize.leaving', { app })}</p>;
  else if (prompt.data && forcesLogin(search)) body = <SignInAgain app={app} onSignIn={() => void signInAgain()} unsent={unsent ?? 0} busy={busy} />;
  else if (prompt.data) body = <Consent prompt={prompt.data} onDecide={onDecide} busy={busy} />;
  else if (prompt.error)
    body = (
      <p className="field__error" role="alert">
        {prompt.error instanceof NetworkError ? t('authorize.offline') : translateMessage(t, errorMessageOf(prompt.error))}
      </p>
    );
  else body = <p role="status">{t('authorize.loading')}</p>;

  return (
    <section className="oauth-consent" aria-labelledby="oauth-title">
      <PageHeader title={t('authorize.title')} titleId="oauth-title" heading fallback="/feed" />
      <div className="oauth-consent__body">
        {body}
        {failure ? (
          <p className="field__error" role="alert">
            {translateMessage(t, failure)}
          </p>
        ) : null}
      </div>
    </section>
  );
}
