import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AppLink } from '../../components/AppLink';
import { translateMessage } from '../../lib/i18n';
import { GoogleButton } from './GoogleButton';
import './auth.css';

/** A form's failure (a message key), announced; `children` follow the message (a link). */
export function AuthAlert({ message, children }: { message: string | null; children?: ReactNode }) {
  const { t } = useTranslation('auth');
  if (!message) return null;
  return (
    <p className="auth__alert" role="alert">
      {translateMessage(t, message)}
      {children}
    </p>
  );
}

/** A message key shown as done. */
export function AuthNotice({ message }: { message: string }) {
  const { t } = useTranslation('auth');
  return (
    <p className="auth__notice" role="status">
      {translateMessage(t, message)}
    </p>
  );
}

/** What each auth form's submit button says while busy. */
const BUSY = { login: 'login.submitting', signup: 'signup.submitting', reset: 'reset.submitting', forgot: 'forgot.sending' } as const;

/** The submit button of an auth form: `{form}.submit`, and while busy its `BUSY` text. */
export function SubmitButton({ form, busy }: { form: keyof typeof BUSY; busy: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <button className="button button--primary button--block" type="submit" disabled={busy}>
      {busy ? t(BUSY[form]) : t(`${form}.submit`)}
    </button>
  );
}

const OTHER_FORM = {
  signin: { text: 'login.noAccount', to: '/signup', link: 'login.signupLink' },
  signup: { text: 'signup.haveAccount', to: '/login', link: 'signup.loginLink' },
} as const;

/**
 * Google's button and the link to the other form (login to sign-up, sign-up to login); on the
 * sign-up form, whether its box accepting the instance's rules is ticked goes with Google's answer.
 */
export function AuthFooter({ mode, acceptRules }: { mode: 'signin' | 'signup'; acceptRules?: boolean }) {
  const { t } = useTranslation(['auth', 'instance']);
  const other = OTHER_FORM[mode];
  return (
    <>
      <GoogleButton mode={mode} acceptRules={acceptRules} />
      <p className="auth__footer">
        {t(other.text)} <AppLink to={other.to}>{t(other.link)}</AppLink>
      </p>
      <p className="auth__footer">
        <AppLink to="/about">{t('instance:about.link')}</AppLink>
      </p>
    </>
  );
}
