import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { LIMITS } from '#core/limits';
import { normalizeEmail, validateEmail, validatePassword, validatePasswordRepeat, validateUsername } from '#core/validation';
import { FormField, PasswordField } from '../../components/FormField';
import type { PasskeyItem } from '#core/api/passkeys';
import { NetworkError, errorMessageOf } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { useFormValues, useSubmit } from '../../lib/forms';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { useOnline } from '../../lib/online';
import { browserPasskeyFailure, webAuthnAvailable } from '../../lib/passkeys';
import { queryKeys } from '../../lib/query/keys';
import { useStoredValue } from '../../lib/query/stored';
import { clearSession, setSessionUsername, useSession } from '../../lib/session';
import { toast } from '../../lib/toast';
import { changeEmail, changePassword, changeUsername, patchStoredAccount } from './account.api';
import { PASSKEYS_META_KEY, addPasskey, fetchPasskeys, removePasskey } from './passkeys.api';
import { AccountSection } from './AccountSection';
import { AccountSubpage } from './AccountSubpage';
import { useAccount } from './useAccount';
import './account.css';
import '../../components/removable-list.css';
import './passkeys.css';

/** A message to show: a catalogue key (error/..., info/...) or a key of this namespace. */
type Outcome = { kind: 'error' | 'info'; message: string } | null;

function FormMessage({ outcome }: { outcome: Outcome }) {
  const { t } = useTranslation('account');
  if (!outcome) return null;
  return (
    <p className={outcome.kind === 'error' ? 'field__error' : 'account-form__info'} role={outcome.kind === 'error' ? 'alert' : 'status'}>
      {translateMessage(t, outcome.message)}
    </p>
  );
}

/**
 * A form's message and busy state, and its save: a failed check (a message key) is shown as the
 * form's error; otherwise `run` saves and its message, or the failure (the server's message, or
 * "Server Error" when it sent none we know), is shown. With `leaves`, a save leaves the page.
 */
function useSave(options: { leaves?: boolean; failure?: (err: unknown) => string | null } = {}) {
  const { error, setError, busy, submit } = useSubmit((err) => options.failure?.(err) ?? errorMessageOf(err, 'credentials.serverError'), options);
  const [info, setInfo] = useState<string | null>(null);
  const outcome: Outcome = error ? { kind: 'error', message: error } : info ? { kind: 'info', message: info } : null;
  const clear = () => {
    setError(null);
    setInfo(null);
  };
  const save = (invalid: string | null, run: () => Promise<string | void>) =>
    submit(invalid, async () => {
      const message = await run();
      if (message) setInfo(message);
    });
  return { outcome, clear, busy, save };
}

function CredentialsForm({
  title,
  onSubmit,
  google,
  busy,
  children,
}: {
  title: string;
  onSubmit: () => void;
  /** A form an account that logs in with Google cannot use: disabled, with the reason. */
  google?: boolean;
  busy: boolean;
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
      {google ? <p className="account-form__note">{t('login_google', { ns: 'error' })}</p> : null}
      <fieldset disabled={google || busy} className="account-form__fields">
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
  const { outcome, clear, busy, save } = useSave();

  const submit = () => {
    const invalid = validateUsername(value);
    return save(invalid && `error/${invalid}`, async () => {
      const reply = await changeUsername(value);
      const saved = reply?.username ?? value;
      setSessionUsername(saved);
      await patchStoredAccount(db, { username: saved });
      setValue('');
      return reply?.message ?? 'info/account_updated';
    });
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
          clear();
        }}
      />
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

function EmailForm({ google }: { google: boolean }) {
  const { t } = useTranslation('account');
  const { outcome, clear, busy, save } = useSave();
  const { values, field, reset } = useFormValues({ email: '', password: '' }, (name) => {
    if (name === 'email') clear();
  });

  const submit = () => {
    const invalid = validateEmail(values.email);
    return save(values.email.trim() === '' ? 'credentials.email.required' : invalid && `error/${invalid}`, async () => {
      const reply = await changeEmail(normalizeEmail(values.email), values.password);
      reset();
      return reply?.message ?? 'info/email_send';
    });
  };

  return (
    <CredentialsForm title={t('credentials.email.title')} onSubmit={() => void submit()} busy={busy} google={google}>
      <FormField label={t('credentials.email.label')} name="email" type="email" autoComplete="email" {...field('email')} />
      <PasswordField purpose="current" label={t('credentials.email.password')} name="current-password" {...field('password')} />
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

/** The password form's inputs: the one in use, the new one and its repeat. */
const PASSWORD_INPUTS = [
  { field: 'old', purpose: 'current', label: 'credentials.password.old', name: 'old-password' },
  { field: 'next', purpose: 'new', label: 'credentials.password.new', name: 'new-password' },
  { field: 'repeat', purpose: 'new', label: 'credentials.password.repeat', name: 'repeat-password' },
] as const;

function PasswordForm({ google }: { google: boolean }) {
  const { t } = useTranslation('account');
  const navigate = useNavigate();
  // The change ends every session of the account: a save leaves the page.
  const { outcome, clear, busy, save } = useSave({ leaves: true });
  const { values, field } = useFormValues({ old: '', next: '', repeat: '' }, clear);

  const submit = () => {
    const invalid = validatePasswordRepeat(values.next, values.repeat) ?? validatePassword(values.next);
    return save(invalid && `error/${invalid}`, async () => {
      const reply = await changePassword(values.old, values.next);
      toast.info(reply?.message ?? 'info/account_updated');
      // On the way to the login page first, drawn at once, so the guard of this page, seeing the
      // session end, lets it go there rather than to the feed. The local database stays: logging in
      // again as the same person finds the drafts and the unsent posts where they were.
      const going = navigate('/login', { replace: true, flushSync: true });
      clearSession();
      await going;
    });
  };

  return (
    <CredentialsForm title={t('credentials.password.title')} onSubmit={() => void submit()} busy={busy} google={google}>
      {PASSWORD_INPUTS.map((input) => (
        <PasswordField
          key={input.field}
          purpose={input.purpose}
          label={t(input.label)}
          name={input.name}
          minLength={input.purpose === 'new' ? LIMITS.passwordMin : undefined}
          {...field(input.field)}
        />
      ))}
      <FormMessage outcome={outcome} />
    </CredentialsForm>
  );
}

/** A failure of the browser's passkey dialog as this page says it; null for the server's. */
function passkeyFailure(err: unknown): string | null {
  const failure = browserPasskeyFailure(err);
  return failure ? `credentials.passkeys.${failure}` : null;
}

function PasskeyRow({ passkey, busy, online, onRemove }: { passkey: PasskeyItem; busy: boolean; online: boolean; onRemove: () => void }) {
  const { t, i18n } = useTranslation('account');
  const date = (time: number) => new Intl.DateTimeFormat(currentLanguage(i18n), { dateStyle: 'medium' }).format(time);
  const name = passkey.name ?? t('credentials.passkeys.unnamed');
  return (
    <li className="removable-list__item">
      <span className="removable-list__text">
        <span className="removable-list__name">{name}</span>
        <span className="passkey-list__dates">
          {t('credentials.passkeys.created', { date: date(passkey.createdAt) })}
          {passkey.lastUsedAt ? ` · ${t('credentials.passkeys.lastUsed', { date: date(passkey.lastUsedAt) })}` : ''}
        </span>
      </span>
      <button type="button" className="button button--danger" disabled={busy || !online} onClick={onRemove} aria-label={t('credentials.passkeys.removeNamed', { name })}>
        {t('credentials.passkeys.remove')}
      </button>
    </li>
  );
}

/**
 * The account's passkeys: the list (kept in the local database, so it shows offline), adding one
 * in this browser, and removing any. Both changes need the server, so they wait while offline.
 */
function PasskeysSection() {
  const { t } = useTranslation('account');
  const db = useDb();
  const online = useOnline();
  const available = webAuthnAvailable();
  const stored = useStoredValue<PasskeyItem[]>(PASSKEYS_META_KEY, queryKeys.passkeys(db.name), (db, signal) => fetchPasskeys(db, signal), true, {
    staleTime: 0,
  });
  const [name, setName] = useState('');
  const { outcome, clear, busy, save } = useSave({ failure: passkeyFailure });
  const passkeys = stored.value;

  const add = (event: FormEvent) => {
    event.preventDefault();
    void save(null, async () => {
      await addPasskey(db, name);
      setName('');
      return 'credentials.passkeys.added';
    });
  };
  const remove = (id: string) => void save(null, () => removePasskey(db, id));

  return (
    <AccountSection id="passkeys-title" kind="account-form" title={t('credentials.passkeys.title')} note={t('credentials.passkeys.about')} noteClass="account-form__note">
      {passkeys === undefined ? (
        <p className="list-status" role="status">
          {stored.error instanceof NetworkError || (stored.ready && !online) ? t('credentials.passkeys.notLoaded') : stored.error ? null : t('loading')}
        </p>
      ) : passkeys.length === 0 ? (
        <p className="account-form__note">{t('credentials.passkeys.none')}</p>
      ) : (
        <ul className="removable-list" aria-label={t('credentials.passkeys.title')}>
          {passkeys.map((passkey) => (
            <PasskeyRow key={passkey._id} passkey={passkey} busy={busy} online={online} onRemove={() => remove(passkey._id)} />
          ))}
        </ul>
      )}
      {available ? (
        <form className="passkey-add" onSubmit={add} aria-label={t('credentials.passkeys.add')}>
          <fieldset disabled={busy || !online} className="account-form__fields">
            <FormField
              label={t('credentials.passkeys.name')}
              name="passkey-name"
              autoComplete="off"
              maxLength={LIMITS.passkeyNameMax}
              value={name}
              onChange={(event) => {
                setName(event.target.value);
                clear();
              }}
            />
            <button type="submit" className="button button--primary">
              {t('credentials.passkeys.add')}
            </button>
          </fieldset>
        </form>
      ) : (
        <p className="account-form__note">{t('credentials.passkeys.unsupported')}</p>
      )}
      {!online ? <p className="account-form__note">{t('credentials.passkeys.offline')}</p> : null}
      <FormMessage outcome={outcome} />
    </AccountSection>
  );
}

/** /account/credentials: username, email and password, and the account's passkeys. */
export default function CredentialsPage() {
  const { account } = useAccount();
  const google = !!account?.isGoogle;
  return (
    <AccountSubpage page="credentials">
      <UsernameForm />
      <EmailForm google={google} />
      <PasswordForm google={google} />
      <PasskeysSection />
    </AccountSubpage>
  );
}
