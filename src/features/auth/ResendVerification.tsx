import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { normalizeEmail, validateEmail } from '#core/validation';
import { FormField } from '../../components/FormField';
import { useSubmit } from '../../lib/forms';
import { translateMessage } from '../../lib/i18n';
import { failureMessage, replyMessage, resendVerification } from './auth.api';
import { AuthNotice } from './AuthParts';
import './auth.css';

/**
 * "Send it again" for a verification mail that did not come: to `email` when the page knows the
 * address (sign-up, a login with it), to the address of the account `username` names (a login
 * with the name: nobody retypes what the account already knows), else to the address typed here.
 */
export function ResendVerification({ email, username }: { email?: string | undefined; username?: string | undefined }) {
  const { t } = useTranslation('auth');
  const [typed, setTyped] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const { error, busy, submit } = useSubmit((err) => failureMessage(err, 'error/loading_failed'));
  const address = email ?? typed;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const byName = !email && username ? username : null;
    const invalid = byName ? null : validateEmail(address);
    void submit(invalid && `error/${invalid}`, async () => {
      const reply = await resendVerification(byName ? { username: byName } : { email: normalizeEmail(address) });
      setSent(replyMessage(reply, 'info/verification_sent'));
    });
  };

  return (
    <form className="auth__form" onSubmit={onSubmit} noValidate>
      {email ? <p>{t('verification.sentTo', { email })}</p> : <p>{t('verification.notArrived')}</p>}
      {email || username ? null : (
        <FormField label={t('verification.email')} type="email" autoComplete="email" value={typed} onChange={(e) => setTyped(e.target.value)} required />
      )}
      {sent ? <AuthNotice message={sent} /> : null}
      {error ? (
        <p className="auth__alert" role="alert">
          {translateMessage(t, error)}
        </p>
      ) : null}
      <button className="button button--block" type="submit" disabled={busy}>
        {busy ? t('verification.sending') : t('verification.resend')}
      </button>
    </form>
  );
}
