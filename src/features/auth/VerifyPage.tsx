import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { AppLink } from '../../components/AppLink';
import { translateMessage } from '../../lib/i18n';
import { clearSession } from '../../lib/session';
import { failureMessage, replyMessage, verifyEmail } from './auth.api';
import { signInAfterVerifying } from './signup-login';
import './auth.css';

/** `signedIn`: the browser that signed up opened the link, and is now signed in. */
type Outcome = { ok: boolean; message: string; signedIn?: boolean };

/** One verification call per token, however often the page mounts (a token works once). */
const calls = new Map<string, Promise<Outcome>>();

function verifyOnce(token: string, email: string | null): Promise<Outcome> {
  const key = `${token}\n${email ?? ''}`;
  let call = calls.get(key);
  if (!call) {
    call = verifyEmail(token, email).then(
      async (reply) => {
        // Whoever was signed in here gives way to the account just verified.
        clearSession();
        if (await signInAfterVerifying(email)) return { ok: true, message: 'verify.signedIn', signedIn: true };
        return { ok: true, message: replyMessage(reply, 'info/email_verified') };
      },
      (err: unknown) => ({ ok: false, message: failureMessage(err, 'error/loading_failed') }),
    );
    calls.set(key, call);
  }
  return call;
}

/**
 * Email verification: reads token and email from the query, shows the server's message, and on
 * success ends any session; the browser that signed up is then signed in (see signup-login.ts),
 * any other is offered the login.
 */
export default function VerifyPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    if (!token) return;
    let active = true;
    void verifyOnce(token, email).then((result) => {
      if (active) setOutcome(result);
    });
    return () => {
      active = false;
    };
  }, [token, email]);

  const shown: Outcome | null = token ? outcome : { ok: false, message: 'error/invalid_link' };

  return (
    <section className="auth">
      <h1 className="auth__title">{t('verify.title')}</h1>
      {shown === null ? (
        <p role="status">{t('verify.checking')}</p>
      ) : (
        <p className={shown.ok ? 'auth__notice' : 'auth__alert'} role={shown.ok ? 'status' : 'alert'}>
          {translateMessage(t, shown.message)}
        </p>
      )}
      {shown?.ok ? (
        <AppLink className="button button--primary" to={shown.signedIn ? '/feed' : '/login'}>
          {t(shown.signedIn ? 'verify.start' : 'verify.login')}
        </AppLink>
      ) : null}
    </section>
  );
}
