import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LIMITS } from '#core/limits';
import { normalizeEmail, validateEmail, validatePassword, validatePasswordRepeat, validateUsername } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { FormField } from '../../components/FormField';
import { ApiError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { translateMessage } from '../../lib/i18n';
import { clearSession, setSessionUsername, useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { changeEmail, changePassword, changeUsername, patchStoredAccount } from './account.api';
import { useAccount } from './useAccount';
import './account.css';

/** A message to show: a catalogue key (error/..., info/...) or a key of this namespace. */
type Outcome = { kind: 'error' | 'info'; message: string } | null;

/** The server's message, or "Server Error" when it sent none we know. */
const failure = (err: unknown): Outcome => ({
  kind: 'error',
  message: err instanceof ApiError && err.key ? `error/${err.key}` : 'credentials.serverError',
});

function FormMessage({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('account');
  if (!outcome) return null;
  return (
    <p className={outcome.kind === 'error' ? 'field__error' : 'account-form__info'} role={outcome.kind === 'error' ? 'alert' : 'status'}>
      {translateMessage(t, outcome.message)}
    </p>
  );
}

function CredentialsForm({
  title,
  onSubmit,
  disabled,
  busy,
  note,
  children,
}: {
  title: string;
  onSubmit: () => void;
  disabled?: boolean;
  busy: boolean;
  note?: ReactNode;
  children: ReactNode;
}) {
  const { t } = useTranslation('account');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="account-section account-form" onSubmit={submit} aria-label={title}>
      <h2 className="account-section__title">{title}</h2>
      {note}
      <fieldset disabled={disabled || busy} className="account-form__fields">
        {children}
        <button type="submit" className="button button--primary">
          {t('credentials.save')}
        </button>
      </fieldset>
    </form>
  );
}

function UsernameForm() {
  const { t } = useTranslation('account');
  const db = useDb();
  const { username } = useSession();
  const [value, setValue] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    const invalid = validateUsername(value);
    if (invalid) {
      setOutcome({ kind: 'error', message: `error/${invalid}` });
      return;
    }
    setBusy(true);
    try {
      const reply = await changeUsername(value);
      const saved = reply?.username ?? value;
      setSessionUsername(saved);
      await patchStoredAccount(db, { username: saved });
      setValue('');
      setOutcome({ kind: 'info', message: reply?.message ?? 'info/account_updated' });
    } catch (err) {
      setOutcome(failure(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CredentialsForm title={t('credentials.username.title')} onSubmit={() => void submit()} busy={busy}>
      <FormField
        label={t('credentials.username.label')}
        name="username"
        autoComplete="username"
        maxLength={LIMITS.usernameMax}
        placeholder={username ?? ''}
        value={value}
        onChange={(event) => {
          setValue(event.target.value);
          setOutcome(null);
        }}
      />
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

function EmailForm({ google }: { google: boolean }) {
  const { t } = useTranslation('account');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);

  const submit = async () => {
    if (email.trim() === '') {
      setOutcome({ kind: 'error', message: 'credentials.email.required' });
      return;
    }
    const invalid = validateEmail(email);
    if (invalid) {
      setOutcome({ kind: 'error', message: `error/${invalid}` });
      return;
    }
    setBusy(true);
    try {
      const reply = await changeEmail(normalizeEmail(email), password);
      setEmail('');
      setPassword('');
      setOutcome({ kind: 'info', message: reply?.message ?? 'info/email_send' });
    } catch (err) {
      setOutcome(failure(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <CredentialsForm
      title={t('credentials.email.title')}
      onSubmit={() => void submit()}
      busy={busy}
      disabled={google}
      note={google ? <p className="account-form__note">{t('login_google', { ns: 'error' })}</p> : null}
    >
      <FormField
        label={t('credentials.email.label')}
        name="email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(event) => {
          setEmail(event.target.value);
          setOutcome(null);
        }}
      />
      <FormField
        label={t('credentials.email.password')}
        name="current-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(event) => setPassword(event.target.value)}
      />
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

function PasswordForm({ google }: { google: boolean }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  const [values, setValues] = useState({ old: '', next: '', repeat: '' });
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState(false);
  const set = (field: keyof typeof values) => (event: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [field]: event.target.value }));
    setOutcome(null);
  };

  const submit = async () => {
    const invalid = validatePasswordRepeat(values.next, values.repeat) ?? validatePassword(values.next);
    if (invalid) {
      setOutcome({ kind: 'error', message: `error/${invalid}` });
      return;
    }
    setBusy(true);
    try {
      const reply = await changePassword(values.old, values.next);
      toast.info(reply?.message ?? 'info/account_updated');
      // The change ends every session of the account. The local database stays: logging in
      // again as the same person finds the drafts and the unsent posts where they were.
      clearSession();
      void navigate('/login', { replace: true });
    } catch (err) {
      setOutcome(failure(err));
      setBusy(false);
    }
  };

  return (
    <CredentialsForm
      title={t('credentials.password.title')}
      onSubmit={() => void submit()}
      busy={busy}
      disabled={google}
      note={google ? <p className="account-form__note">{t('login_google', { ns: 'error' })}</p> : null}
    >
      <FormField
        label={t('credentials.password.old')}
        name="old-password"
        type="password"
        autoComplete="current-password"
        value={values.old}
        onChange={set('old')}
      />
      <FormField
        label={t('credentials.password.new')}
        name="new-password"
        type="password"
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        maxLength={LIMITS.passwordFormMax}
        value={values.next}
        onChange={set('next')}
      />
      <FormField
        label={t('credentials.password.repeat')}
        name="repeat-password"
        type="password"
        autoComplete="new-password"
        minLength={LIMITS.passwordMin}
        maxLength={LIMITS.passwordFormMax}
        value={values.repeat}
        onChange={set('repeat')}
      />
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

/** /account/credentials: username, email and password. */
export default function CredentialsPage() {
  const { t } = useTranslation('account');
  const { account } = useAccount();
  const google = !!account?.isGoogle;
  return (
    <section className="account-page" aria-labelledby="credentials-title">
      <AppLink to="/account" className="account-back">
        {t('back')}
      </AppLink>
      <h1 id="credentials-title">{t('credentials.title')}</h1>
      <UsernameForm />
      <EmailForm google={google} />
      <PasswordForm google={google} />
    </section>
  );
}
