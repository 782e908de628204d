import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { validatePassword, validatePasswordRepeat } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { PasswordField } from '../../components/FormField';
import { useFormValues, useSubmit } from '../../lib/forms';
import { translateMessage } from '../../lib/i18n';
import { clearSession } from '../../lib/session';
import { failureMessage, replyMessage, resetPassword } from './auth.api';
import { AuthAlert, AuthNotice, SubmitButton } from './AuthParts';
import './auth.css';

/** Password reset from the mailed link (/reset?token=&email=). */
export default function ResetPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const { values, field } = useFormValues({ password: '', repeat: '' });
  const [errors, setErrors] = useState<{ password?: ErrorKey; repeat?: ErrorKey }>({});
  const [done, setDone] = useState<string | null>(null);
  const { error: serverError, busy, submit } = useSubmit((err) => failureMessage(err, 'error/loading_failed'));

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = {
      password: validatePassword(values.password) ?? undefined,
      repeat: validatePasswordRepeat(values.password, values.repeat) ?? undefined,
    };
    setErrors(found);
    if (found.password || found.repeat || !token) return;
    void submit(null, async () => {
      const reply = await resetPassword(token, email, values.password);
      clearSession();
      setDone(replyMessage(reply, 'info/password_changed'));
    });
  };

  // A used or expired link: the forgotten-password form, already holding the link's address.
  const newLink = (
    <p className="auth__footer">
      <AppLink to={`/login?${new URLSearchParams({ forgot: email ?? '' }).toString()}`}>{t('reset.newLink')}</AppLink>
    </p>
  );

  /** What an input of the form needs: its value, change and error. */
  const input = (name: 'password' | 'repeat') => ({ ...field(name), error: errors[name] ? translateMessage(t, `error/${errors[name]}`) : null });

  return (
    <section className="auth">
      <h1 className="auth__title">{t('reset.title')}</h1>
      {!token ? (
        <>
          <AuthAlert message="error/invalid_link" />
          {newLink}
        </>
      ) : done ? (
        <>
          <AuthNotice message={done} />
          <AppLink className="button button--primary" to="/login">
            {t('reset.login')}
          </AppLink>
        </>
      ) : (
        <form className="auth__form" onSubmit={onSubmit} noValidate>
          <AuthAlert message={serverError} />
          {serverError === 'error/invalid_link' ? newLink : null}
          <PasswordField purpose="new" label={t('reset.password')} {...input('password')} required />
          <PasswordField purpose="new" label={t('reset.repeat')} {...input('repeat')} required />
          <SubmitButton form="reset" busy={busy} />
        </form>
      )}
    </section>
  );
}
