import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import type { ErrorKey } from '#core/errors';
import { validatePassword, validatePasswordRepeat } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { PasswordField } from '../../components/FormField';
import { useFormValues, useSubmit } from '../../lib/forms';
import { translateMessage } from '../../lib/i18n';
import { clearSession } from '../../lib/session';
import { checkResetLink, failureMessage, replyMessage, resetPassword } from './auth.api';
import { AuthAlert, AuthNotice, SubmitButton } from './AuthParts';
import './auth.css';

/**
 * Whether the link still works, asked as the page opens: a used or expired link is told so with
 * the way to a new one, instead of a form that can only fail. Without an answer (offline) the
 * form shows, and its refusal tells the same.
 */
function useLinkState(token: string | null, email: string | null): 'checking' | 'usable' | 'used' {
  const [state, setState] = useState<{ link: string; usable: boolean } | null>(null);
  const link = `${token}\n${email}`;
  useEffect(() => {
    if (!token) return;
    let active = true;
    checkResetLink(token, email).then(
      () => active && setState({ link, usable: true }),
      (err: unknown) => active && setState({ link, usable: failureMessage(err, '') !== 'error/invalid_link' }),
    );
    return () => {
      active = false;
    };
  }, [token, email, link]);
  if (state?.link !== link) return 'checking';
  return state.usable ? 'usable' : 'used';
}

/** Password reset from the mailed link (/reset?token=&email=). */
export default function ResetPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token');
  const email = params.get('email');
  const linkState = useLinkState(token, email);
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

  let body;
  if (!token) {
    body = (
      <>
        <AuthAlert message="error/invalid_link" />
        {newLink}
      </>
    );
  } else if (done) {
    body = (
      <>
        <AuthNotice message={done} />
        <AppLink className="button button--primary" to="/login">
          {t('reset.login')}
        </AppLink>
      </>
    );
  } else if (linkState === 'checking') {
    body = <p role="status">{t('reset.checking')}</p>;
  } else if (linkState === 'used') {
    body = (
      <>
        <p className="auth__alert" role="alert">
          {t('reset.used')}
        </p>
        {newLink}
      </>
    );
  } else {
    body = (
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        <AuthAlert message={serverError} />
        {serverError === 'error/invalid_link' ? newLink : null}
        <PasswordField purpose="new" label={t('reset.password')} {...input('password')} required />
        <PasswordField purpose="new" label={t('reset.repeat')} {...input('repeat')} required />
        <SubmitButton form="reset" busy={busy} />
      </form>
    );
  }

  return (
    <section className="auth">
      <h1 className="auth__title">{t('reset.title')}</h1>
      {body}
    </section>
  );
}
