import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';
import { normalizeEmail, validateEmail } from '#core/validation';
import { FormField, PasswordField } from '../../components/FormField';
import { useSubmit } from '../../lib/forms';
import { translateMessage } from '../../lib/i18n';
import { browserPasskeyFailure } from '../../lib/passkeys';
import { useSession } from '../../lib/session';
import { failureMessage, forgotPassword, keepSession, login, passkeyLogin, replyMessage } from './auth.api';
import { AuthAlert, AuthFooter, AuthNotice, SubmitButton } from './AuthParts';
import { PasskeySignIn } from './PasskeySignIn';
import { ResendVerification } from './ResendVerification';
import './auth.css';
import { returnPathOf } from '../../components/login-return';

const loadingFailed = (err: unknown) => failureMessage(err, 'error/loading_failed');

/** A failed login's message: the browser's passkey dialog's own failures, else the server's. */
function loginFailed(err: unknown): string {
  const passkey = browserPasskeyFailure(err);
  return passkey ? `passkey.${passkey}` : loadingFailed(err);
}

/** "Forgot your password?": asks the server to mail a reset link. */
function ForgotPassword({ onBack, initialEmail }: { onBack: () => void; initialEmail: string }) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState(initialEmail);
  const [done, setDone] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit(loadingFailed);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    void submit(invalid && `error/${invalid}`, async () => {
      const reply = await forgotPassword(normalizeEmail(email));
      setDone(replyMessage(reply, 'info/password_reset_sent'));
    });
  };

  return (
    <form className="auth__form" onSubmit={onSubmit} noValidate aria-labelledby="forgot-title">
      <h2 id="forgot-title" className="auth__subtitle">
        {t('forgot.title')}
      </h2>
      {done ? (
        <AuthNotice message={done} />
      ) : (
        <>
          <FormField
            label={t('forgot.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={error ? translateMessage(t, error) : null}
            required
          />
          <SubmitButton form="forgot" busy={busy} />
        </>
      )}
      <div className="auth__row">
        <button type="button" className="link-button" onClick={onBack}>
          {t('forgot.back')}
        </button>
      </div>
    </form>
  );
}

/** Login: username or email plus password, a passkey, Google, and a link to sign-up. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const { isLoggedIn, expired } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  // A login that succeeds leaves the page: the form stays busy until it goes.
  const { error, busy, submit } = useSubmit(loginFailed, { leaves: true });
  const { search } = useLocation();
  // A reset link that no longer works sends here with ?forgot=<its address>, for a new one.
  const forgotEmail = new URLSearchParams(search).get('forgot');
  const [forgot, setForgot] = useState(forgotEmail !== null);
  // Sent here by "Log in to follow" and the like: the login goes back to that page.
  const returnTo = returnPathOf(search);
  const returning = new URLSearchParams(search).has('next') && returnTo !== '/feed';

  // A session the server refused stays on this device until the next login: that login is made here.
  if (isLoggedIn && !expired) return <Navigate to={returnTo} replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const missing = !username.trim() ? 'error/new_username' : !password ? 'error/new_password' : null;
    void submit(missing, async () => {
      keepSession(await login(username.trim(), password));
    });
  };

  // The same session as a password's: the page then leaves for where the login was asked from.
  const onPasskey = () => void submit(null, async () => keepSession(await passkeyLogin()));

  return (
    <section className="auth">
      <h1 className="auth__title">{t('login.title')}</h1>
      {returning && !forgot && <p>{t('login.returns')}</p>}
      {forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} initialEmail={forgotEmail ?? ''} />
      ) : (
        <form className="auth__form" onSubmit={onSubmit} noValidate>
          <AuthAlert message={error} />
          <FormField
            label={t('login.identifier')}
            name="username"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(e) => setUsername(e.target.value)}
            required
          />
          <PasswordField
            purpose="current"
            label={t('login.password')}
            name="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <div className="auth__row">
            <button type="button" className="link-button" onClick={() => setForgot(true)}>
              {t('login.forgot')}
            </button>
          </div>
          <SubmitButton form="login" busy={busy} />
        </form>
      )}
      {!forgot && error === 'error/verify_email' ? (
        // Not a dead end: the mail can go again, to the address logged in with when it was one.
        <ResendVerification {...(username.includes('@') ? { email: normalizeEmail(username) } : { username: username.trim() })} />
      ) : null}
      {forgot ? null : <PasskeySignIn busy={busy} onSignIn={onPasskey} />}
      <AuthFooter mode="signin" />
    </section>
  );
}
