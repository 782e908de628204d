import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import { normalizeEmail, validateEmail } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { FormField } from '../../components/FormField';
import { translateMessage } from '../../lib/i18n';
import { storeSession, useSession } from '../../lib/session';
import { failureMessage, forgotPassword, login, replyMessage } from './auth.api';
import { GoogleButton } from './GoogleButton';
import './auth.css';

/** "Forgot your password?": asks the server to mail a reset link (beyond the spec). */
function ForgotPassword({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateEmail(email);
    if (invalid) {
      setError(`error/${invalid}`);
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await forgotPassword(normalizeEmail(email));
      setDone(replyMessage(reply, 'info/password_reset_sent'));
    } catch (err) {
      setError(failureMessage(err, 'error/loading_failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="auth__form" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="forgot-title">
      <h2 id="forgot-title" className="auth__subtitle">
        {t('forgot.title')}
      </h2>
      {done ? (
        <p className="auth__notice" role="status">
          {translateMessage(t, done)}
        </p>
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
          <button className="button button--primary button--block" type="submit" disabled={busy}>
            {busy ? t('forgot.sending') : t('forgot.submit')}
          </button>
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

/** Login: username or email plus password, Google, and a link to sign-up. */
export default function LoginPage() {
  const { t } = useTranslation('auth');
  const { isLoggedIn } = useSession();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [forgot, setForgot] = useState(false);

  if (isLoggedIn) return <Navigate to="/feed" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!username.trim() || !password) {
      setError(!username.trim() ? 'error/new_username' : 'error/new_password');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const reply = await login(username.trim(), password);
      storeSession(reply.token, reply.user.username, reply.user._id);
    } catch (err) {
      setError(failureMessage(err, 'error/loading_failed'));
      setBusy(false);
    }
  };

  return (
    <section className="auth">
      <h1 className="auth__title">{t('login.title')}</h1>
      {forgot ? (
        <ForgotPassword onBack={() => setForgot(false)} />
      ) : (
        <form className="auth__form" onSubmit={(e) => void submit(e)} noValidate>
          {error ? (
            <p className="auth__alert" role="alert">
              {translateMessage(t, error)}
            </p>
          ) : null}
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
          <FormField
            label={t('login.password')}
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
          />
          <div className="auth__row">
            <button type="button" className="link-button" onClick={() => setForgot(true)}>
              {t('login.forgot')}
            </button>
          </div>
          <button className="button button--primary button--block" type="submit" disabled={busy}>
            {busy ? t('login.submitting') : t('login.submit')}
          </button>
        </form>
      )}
      <GoogleButton mode="signin" />
      <p className="auth__footer">
        {t('login.noAccount')} <AppLink to="/signup">{t('login.signupLink')}</AppLink>
      </p>
    </section>
  );
}
