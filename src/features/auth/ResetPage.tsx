import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import { validatePassword, validatePasswordRepeat } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { FormField } from '../../components/FormField';
import { translateMessage } from '../../lib/i18n';
import { clearSession } from '../../lib/session';
import { failureMessage, replyMessage, resetPassword } from './auth.api';
import './auth.css';

/** Password reset from the mailed link (/reset?token=&email=), beyond the spec. */
export default function ResetPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: ErrorKey; repeat?: ErrorKey }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = {
      password: validatePassword(password) ?? undefined,
      repeat: validatePasswordRepeat(password, repeat) ?? undefined,
    };
    setErrors(found);
    if (found.password || found.repeat || !token) return;
    setBusy(true);
    setServerError(null);
    try {
      const reply = await resetPassword(token, email, password);
      clearSession();
      setDone(replyMessage(reply, 'info/password_changed'));
    } catch (err) {
      setServerError(failureMessage(err, 'error/loading_failed'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="auth">
      <h1 className="auth__title">{t('reset.title')}</h1>
      {!token ? (
        <p className="auth__alert" role="alert">
          {translateMessage(t, 'error/invalid_link')}
        </p>
      ) : done ? (
        <>
          <p className="auth__notice" role="status">
            {translateMessage(t, done)}
          </p>
          <AppLink className="button button--primary" to="/login">
            {t('reset.login')}
          </AppLink>
        </>
      ) : (
        <form className="auth__form" onSubmit={(e) => void submit(e)} noValidate>
          {serverError ? (
            <p className="auth__alert" role="alert">
              {translateMessage(t, serverError)}
            </p>
          ) : null}
          <FormField
            label={t('reset.password')}
            type="password"
            autoComplete="new-password"
            maxLength={LIMITS.passwordFormMax}
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={errors.password ? translateMessage(t, `error/${errors.password}`) : null}
            required
          />
          <FormField
            label={t('reset.repeat')}
            type="password"
            autoComplete="new-password"
            maxLength={LIMITS.passwordFormMax}
            value={repeat}
            onChange={(e) => setRepeat(e.target.value)}
            error={errors.repeat ? translateMessage(t, `error/${errors.repeat}`) : null}
            required
          />
          <button className="button button--primary button--block" type="submit" disabled={busy}>
            {busy ? t('reset.submitting') : t('reset.submit')}
          </button>
        </form>
      )}
    </section>
  );
}
