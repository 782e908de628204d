import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import {
  normalizeEmail,
  validateEmail,
  validatePassword,
  validatePasswordRepeat,
  validateUsername,
} from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { FormField } from '../../components/FormField';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { useSession } from '../../lib/session';
import { failureMessage, replyMessage, signup } from './auth.api';
import { GoogleButton } from './GoogleButton';
import './auth.css';

type Fields = 'username' | 'email' | 'password' | 'repeat';
type FieldErrors = Partial<Record<Fields, ErrorKey>>;

/** The shared rules, the same functions the server runs. */
export function validateSignup(values: Record<Fields, string>): FieldErrors {
  const errors: FieldErrors = {};
  const username = validateUsername(values.username.trim());
  if (username) errors.username = username;
  const email = validateEmail(values.email);
  if (email) errors.email = email;
  const password = validatePassword(values.password);
  if (password) errors.password = password;
  const repeat = validatePasswordRepeat(values.password, values.repeat);
  if (repeat) errors.repeat = repeat;
  return errors;
}

/** Sign-up: username, email, password twice, Google; a login link after a failure. */
export default function SignupPage() {
  const { t, i18n } = useTranslation('auth');
  const { isLoggedIn } = useSession();
  const [values, setValues] = useState<Record<Fields, string>>({ username: '', email: '', password: '', repeat: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (isLoggedIn) return <Navigate to="/feed" replace />;

  const set = (field: Fields) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    if (errors[field]) setErrors((e) => ({ ...e, [field]: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignup(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setBusy(true);
    setServerError(null);
    try {
      const reply = await signup(values.username.trim(), normalizeEmail(values.email), values.password, currentLanguage(i18n));
      setDone(replyMessage(reply, 'info/signup_email'));
    } catch (err) {
      setServerError(failureMessage(err, 'error/singup_failed'));
    } finally {
      setBusy(false);
    }
  };

  const errorText = (field: Fields) => (errors[field] ? translateMessage(t, `error/${errors[field]}`) : null);

  if (done) {
    return (
      <section className="auth">
        <h1 className="auth__title">{t('signup.title')}</h1>
        <p className="auth__notice" role="status">
          {translateMessage(t, done)}
        </p>
        <p className="auth__footer">
          <AppLink to="/login">{t('signup.loginLink')}</AppLink>
        </p>
      </section>
    );
  }

  return (
    <section className="auth">
      <h1 className="auth__title">{t('signup.title')}</h1>
      <form className="auth__form" onSubmit={(e) => void submit(e)} noValidate>
        {serverError ? (
          <div className="auth__alert" role="alert">
            {translateMessage(t, serverError)}{' '}
            <AppLink to="/login">{t('signup.loginAfterError')}</AppLink>
          </div>
        ) : null}
        <FormField
          label={t('signup.username')}
          name="username"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          minLength={LIMITS.usernameMin}
          maxLength={LIMITS.usernameMax}
          value={values.username}
          onChange={set('username')}
          error={errorText('username')}
          required
        />
        <FormField
          label={t('signup.email')}
          name="email"
          type="email"
          autoComplete="email"
          value={values.email}
          onChange={set('email')}
          error={errorText('email')}
          required
        />
        <FormField
          label={t('signup.password')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={LIMITS.passwordMin}
          maxLength={LIMITS.passwordFormMax}
          value={values.password}
          onChange={set('password')}
          error={errorText('password')}
          hint={t('signup.passwordHint', { min: LIMITS.passwordMin, max: LIMITS.passwordFormMax })}
          required
        />
        <FormField
          label={t('signup.repeat')}
          name="repeat"
          type="password"
          autoComplete="new-password"
          maxLength={LIMITS.passwordFormMax}
          value={values.repeat}
          onChange={set('repeat')}
          error={errorText('repeat')}
          required
        />
        <button className="button button--primary button--block" type="submit" disabled={busy}>
          {busy ? t('signup.submitting') : t('signup.submit')}
        </button>
      </form>
      <GoogleButton mode="signup" />
      <p className="auth__footer">
        {t('signup.haveAccount')} <AppLink to="/login">{t('signup.loginLink')}</AppLink>
      </p>
    </section>
  );
}
