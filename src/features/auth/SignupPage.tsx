import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useSearchParams } from 'react-router-dom';
import type { RegistrationMode } from '#core/api/registration';
import type { ErrorKey } from '#core/errors';
import { LIMITS } from '#core/limits';
import {
  normalizeEmail,
  validateEmail,
  validatePassword,
  validatePasswordRepeat,
  validateRegistrationReason,
  validateUsername,
} from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { FormField, PasswordField, TextAreaField } from '../../components/FormField';
import { useFormValues, useSubmit } from '../../lib/forms';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { useRegistration } from '../../lib/registration';
import { useInstance } from '../../lib/instance';
import { useSession } from '../../lib/session';
import { failureMessage, replyMessage, signup } from './auth.api';
import { AuthAlert, AuthFooter, AuthNotice, SubmitButton } from './AuthParts';
import { ResendVerification } from './ResendVerification';
import { keepSignupLogin } from './signup-login';
import { SignupRules } from './SignupRules';
import './auth.css';

type Fields = 'username' | 'email' | 'password' | 'repeat' | 'reason' | 'invite';
type FieldErrors = Partial<Record<Fields, ErrorKey>>;

/** The shared rules, the same functions the server runs; the reason and the invite as the registration mode asks. */
export function validateSignup(values: Record<Fields, string>, mode?: RegistrationMode): FieldErrors {
  const errors: FieldErrors = {};
  if (mode === 'approval') {
    const reason = validateRegistrationReason(values.reason);
    if (reason) errors.reason = reason;
  }
  if (mode === 'invitation' && !values.invite.trim()) errors.invite = 'invite_required';
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

/**
 * Sign-up: username, email, password twice, the instance's rules to accept, Google; a login link after
 * a failure. The registration
 * mode (as last read) adds why the person would like to join (by approval) or the invite code,
 * filled from the link's `?invite=` (by invitation), or says sign-ups are closed.
 */
export default function SignupPage() {
  const { t, i18n } = useTranslation('auth');
  const { isLoggedIn, expired } = useSession();
  const [params] = useSearchParams();
  const mode = useRegistration().value?.mode;
  const [errors, setErrors] = useState<FieldErrors>({});
  const initial = { username: '', email: '', password: '', repeat: '', reason: '', invite: params.get('invite') ?? '' };
  const { values, field } = useFormValues<Fields>(initial, (name) => {
    if (errors[name]) setErrors((e) => ({ ...e, [name]: undefined }));
  });
  // The server's message and the address the verification mail went to.
  const [done, setDone] = useState<{ message: string; email: string } | null>(null);
  const { error: serverError, busy, submit } = useSubmit((err) => failureMessage(err, 'error/singup_failed'));
  const instance = useInstance().value;
  const [acceptRules, setAcceptRules] = useState(false);
  const [rulesRefused, setRulesRefused] = useState(false);

  if (isLoggedIn && !expired) return <Navigate to="/feed" replace />;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateSignup(values, mode);
    setErrors(found);
    const unaccepted = !!instance && instance.rules.length > 0 && !acceptRules;
    setRulesRefused(unaccepted);
    if (Object.values(found).some(Boolean) || unaccepted) return;
    void submit(null, async () => {
      const email = normalizeEmail(values.email);
      const admission = { reason: values.reason || undefined, invite: values.invite.trim() || undefined, acceptRules };
      const reply = await signup(values.username.trim(), email, values.password, currentLanguage(i18n), admission);
      keepSignupLogin(email, reply.signupLogin);
      setDone({ message: replyMessage(reply, 'info/signup_email'), email });
    });
  };

  /** What an input of the form needs: its name, value, change and error. */
  const input = (name: Fields) => ({ name, ...field(name), error: errors[name] ? translateMessage(t, `error/${errors[name]}`) : null });

  if (done) {
    return (
      <section className="auth">
        <h1 className="auth__title">{t('signup.title')}</h1>
        <AuthNotice message={done.message} />
        <ResendVerification email={done.email} />
        <p className="auth__footer">
          <AppLink to="/login">{t('signup.loginLink')}</AppLink>
        </p>
      </section>
    );
  }

  if (mode === 'closed') {
    return (
      <section className="auth">
        <h1 className="auth__title">{t('signup.title')}</h1>
        <AuthNotice message="error/registrations_closed" />
        <p className="auth__footer">
          {t('signup.haveAccount')} <AppLink to="/login">{t('signup.loginLink')}</AppLink>
        </p>
      </section>
    );
  }

  return (
    <section className="auth">
      <h1 className="auth__title">{t('signup.title')}</h1>
      {mode === 'approval' && <p className="auth__lead">{t('signup.approvalLead')}</p>}
      <form className="auth__form" onSubmit={onSubmit} noValidate>
        <AuthAlert message={serverError}>
          {' '}
          <AppLink to="/login">{t('signup.loginAfterError')}</AppLink>
        </AuthAlert>
        <FormField
          label={t('signup.username')}
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          minLength={LIMITS.usernameMin}
          maxLength={LIMITS.usernameMax}
          {...input('username')}
          required
        />
        <FormField label={t('signup.email')} type="email" autoComplete="email" {...input('email')} required />
        <PasswordField
          purpose="new"
          label={t('signup.password')}
          minLength={LIMITS.passwordMin}
          {...input('password')}
          hint={t('signup.passwordHint', { min: LIMITS.passwordMin, max: LIMITS.passwordFormMax })}
          required
        />
        <PasswordField purpose="new" label={t('signup.repeat')} {...input('repeat')} required />
        {mode === 'approval' && (
          <TextAreaField
            label={t('signup.reason')}
            rows={3}
            maxLength={LIMITS.registrationReasonMaxLength}
            hint={t('signup.reasonHint', { max: LIMITS.registrationReasonMaxLength })}
            {...input('reason')}
            required
          />
        )}
        {mode === 'invitation' && (
          <FormField label={t('signup.invite')} autoCapitalize="none" spellCheck={false} hint={t('signup.inviteHint')} {...input('invite')} required />
        )}
        <SignupRules
          instance={instance}
          accepted={acceptRules}
          onAccept={(accepted) => {
            setAcceptRules(accepted);
            if (accepted) setRulesRefused(false);
          }}
          error={rulesRefused ? translateMessage(t, 'error/rules_not_accepted') : null}
        />
        <SubmitButton form="signup" busy={busy} />
      </form>
      <AuthFooter mode="signup" acceptRules={acceptRules} />
    </section>
  );
}
