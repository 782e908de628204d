import { type ChangeEvent, type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { validateBio } from '#core/validation';
import { AppLink } from '../../components/AppLink';
import { avatarUrl } from '../../components/Avatar';
import { MediaImg } from '../../components/MediaImg';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { errorMessageOf, uploadErrorOf } from '../../lib/api/client';
import { pendingOutboxCount } from '../../lib/db/db';
import { useDb } from '../../lib/db/useDb';
import { useSubmit } from '../../lib/forms';
import { LANGUAGES, type Language, currentLanguage, switchLanguage, translateMessage } from '../../lib/i18n';
import { formatMonthYearInPhrase } from '../../components/month-year';
import { toast } from '../../lib/toast';
import { THEMES, type ThemeChoice, chooseTheme, storedTheme } from '../../components/theme';
import { type StoredAccount, changeBio, patchStoredAccount, uploadProfilePicture } from './account.api';
import { queueLanguage } from '../../lib/outbox/kinds/language';
import { ACCOUNT_DELETED_PATH } from './AccountDeletedPage';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { DataExport } from './DataExport';
import { DiscoverySettings } from './DiscoverySettings';
import { logOutAndForget } from '../../lib/logout';
import { reloadPage } from './session-actions';
import { useAccount } from './useAccount';
import '../../components/danger-button.css';
import '../../components/FormField.css';
import './account.css';
import { useObjectUrl } from '../../components/ImagePicker';
import { Icon } from '../../components/Icon';
import { useWorksOffline } from '../../lib/works-offline';
import { useRegistration } from '../../lib/registration';

type UploadState = 'idle' | 'uploading' | 'uploaded' | 'onlyImages' | { failed: string };

/** The profile picture: a click opens the file picker (images only), the upload says how it went. */
function ProfilePicture({ account }: { account: StoredAccount }) {
  const { t } = useTranslation('account');
  const input = useRef<HTMLInputElement>(null);
  const db = useDb();
  const [state, setState] = useState<UploadState>('idle');
  // The new picture's versioned URL from the upload's answer, shown before the account is read again.
  const [uploaded, setUploaded] = useState<string | null>(null);
  // The chosen picture, shown at once while it uploads.
  const [chosen, setChosen] = useState<File | null>(null);
  const preview = useObjectUrl(state === 'uploading' ? chosen : null);

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!file.type.startsWith('image/')) {
      setState('onlyImages');
      return;
    }
    setChosen(file);
    setState('uploading');
    try {
      const { url } = await uploadProfilePicture(file, file.name);
      if (url) {
        setUploaded(url);
        await patchStoredAccount(db, { pfpUrl: url });
      }
      setState('uploaded');
    } catch (err) {
      console.error(err);
      setState({ failed: uploadErrorOf(err) });
    }
  };

  const src = preview ?? avatarUrl('pfp', account.pfp, uploaded ?? account.pfpUrl);
  return (
    <div className="account-pfp">
      <button
        type="button"
        className="account-pfp__button"
        onClick={() => input.current?.click()}
        aria-label={t('pfp.change')}
        title={t('pfp.change')}
        disabled={state === 'uploading'}
      >
        <MediaImg
          src={src}
          alt=""
          width={96}
          height={96}
          onError={(event) => {
            const img = event.currentTarget;
            if (!img.src.endsWith('/default.jpeg') && !img.src.startsWith('blob:')) img.src = avatarUrl('pfp', null);
          }}
        />
        <span className="account-pfp__edit" aria-hidden="true">
          <Icon name="image" size={18} />
        </span>
      </button>
      <input ref={input} type="file" accept="image/*" hidden onChange={(event) => void onFile(event)} data-testid="pfp-input" />
      <p className={`account-pfp__status account-pfp__status--${typeof state === 'object' ? 'failed' : state}`} role="status">
        {state === 'uploading'
          ? t('pfp.uploading')
          : state === 'uploaded'
            ? t('pfp.uploaded')
            : typeof state === 'object'
              ? translateMessage(t, state.failed)
              : state === 'onlyImages'
                ? t('only_images', { ns: 'error' })
                : ''}
      </p>
    </div>
  );
}

/** The bio editor: the update button shows only while the text differs from the saved bio. */
function BioEditor({ account }: { account: StoredAccount }) {
  const { t } = useTranslation('account');
  const db = useDb();
  const [saved, setSaved] = useState<string | null>(null);
  const [draft, setDraft] = useState<string | null>(null);
  const { error, setError, busy: saving, submit } = useSubmit(errorMessageOf);
  const savedBio = saved ?? account.bio;
  const bio = draft ?? savedBio;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const invalid = validateBio(bio);
    void submit(invalid && `error/${invalid}`, async () => {
      const reply = await changeBio(bio);
      setSaved(bio);
      setDraft(null);
      await patchStoredAccount(db, { bio });
      toast.info(reply?.message ?? 'info/bio_updated');
    });
  };

  return (
    <form className="account-section account-bio" onSubmit={onSubmit}>
      <label htmlFor="account-bio" className="account-section__title">
        {t('bio.label')}
      </label>
      <textarea
        id="account-bio"
        className="field__input"
        value={bio}
        rows={4}
        placeholder={t('bio.placeholder')}
        aria-invalid={error ? true : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setError(null);
        }}
      />
      {error ? <p className="field__error">{translateMessage(t, error)}</p> : null}
      {bio !== savedBio ? (
        <button type="submit" className="button button--primary" disabled={saving}>
          {t('bio.update')}
        </button>
      ) : null}
      <UnsavedChangesGuard when={bio !== savedBio} question={t('bio.unsaved')} />
    </form>
  );
}

/** Interface language (en, cs): switched at once, and remembered on the server. */
function LanguageChoice() {
  const { t, i18n } = useTranslation('account');
  const db = useDb();
  // The choice shows while its texts are fetched, rather than the radio springing back meanwhile.
  const [chosen, setChosen] = useState<Language | null>(null);
  const current = chosen ?? currentLanguage(i18n);
  const choose = (lng: Language) => {
    setChosen(lng);
    switchLanguage(i18n, lng).then(
      () => setChosen(null),
      (err: unknown) => {
        console.warn('language', err);
        setChosen(null);
      },
    );
    void queueLanguage(lng, db);
  };
  return <ChoiceField name="language" values={LANGUAGES} labelOf={(lng) => t(`language.${lng}`)} current={current} onChoose={choose} />;
}

/** One choice among a few, as radio buttons under a title (`theme.label`) and each labelled by `labelOf`. */
function ChoiceField<V extends string>({ name, values, labelOf, current, onChoose }: {
  name: 'language' | 'theme';
  values: readonly V[];
  labelOf: (value: V) => string;
  current: V;
  onChoose: (value: V) => void;
}) {
  const { t } = useTranslation('account');
  return (
    <fieldset className="account-section account-language">
      <legend className="account-section__title">{t(`${name}.label`)}</legend>
      {values.map((value) => (
        <label key={value} className="account-language__option">
          <input type="radio" name={name} value={value} checked={current === value} onChange={() => onChoose(value)} />
          {labelOf(value)}
        </label>
      ))}
    </fieldset>
  );
}

/** Light, dark or as the device: kept on this device and applied at once. */
function ThemeChoiceField() {
  const { t } = useTranslation('account');
  const [current, setCurrent] = useState<ThemeChoice>(storedTheme);
  const choose = (theme: ThemeChoice) => {
    chooseTheme(theme);
    setCurrent(theme);
  };
  return <ChoiceField name="theme" values={THEMES} labelOf={(theme) => t(`theme.${theme}`)} current={current} onChoose={choose} />;
}

/**
 * /account: picture, bio, language, theme, presence on other servers, links to credentials,
 * notification settings and logout, email, join date, the download of the account's data and the
 * account delete.
 */
export default function AccountPage() {
  const { t, i18n } = useTranslation(['account', 'common', 'safety', 'moderation']);
  const navigate = useNavigate();
  const { account, isLoading } = useAccount();
  const registration = useRegistration();
  // The account delete, or a logout that would drop this many unsent items.
  const [confirming, setConfirming] = useState<{ kind: 'delete' } | { kind: 'logout'; pending: number } | null>(null);
  const [deleting, setDeleting] = useState(false);
  const worksOffline = useWorksOffline();

  const logout = async () => {
    setConfirming(null);
    await logOutAndForget();
    void navigate('/feed', { replace: true });
  };

  const onLogout = async () => {
    const pending = await pendingOutboxCount().catch(() => 0);
    if (pending > 0) setConfirming({ kind: 'logout', pending });
    else await logout();
  };

  // The server deleted the account: this device forgets it, and the app starts again on the
  // screen that says so (a full load, so nothing of the account stays in memory).
  const onDeleted = async () => {
    setConfirming(null);
    setDeleting(true);
    try {
      await logOutAndForget();
    } finally {
      reloadPage(ACCOUNT_DELETED_PATH);
    }
  };

  if (!account) {
    return (
      <section className="account-page">
        <h1>{t('title')}</h1>
        {isLoading ? (
          <p className="list-status" role="status">
            {t('loading')}
          </p>
        ) : null}
      </section>
    );
  }

  return (
    <section className="account-page" aria-labelledby="account-title">
      <header className="account-page__header">
        <ProfilePicture account={account} />
        <div>
          <h1 id="account-title">{account.username}</h1>
          <dl className="account-facts">
            <dt>{t('email')}</dt>
            <dd>{account.email ?? t('noEmail')}</dd>
            <dt>{t('joined')}</dt>
            <dd>{formatMonthYearInPhrase(account.createdAt, currentLanguage(i18n))}</dd>
          </dl>
        </div>
      </header>
      <BioEditor account={account} />
      <LanguageChoice />
      <ThemeChoiceField />
      <DiscoverySettings account={account} />
      {worksOffline ? <p className="account-section account-note">{t('common:update.offlineReady')}</p> : null}
      <nav className="account-section account-links" aria-label={t('links')}>
        <AppLink to={`/u/${encodeURIComponent(account.username)}`}>{t('profileLink')}</AppLink>
        <AppLink to="/account/credentials">{t('credentialsLink')}</AppLink>
        <AppLink to="/account/notification-settings">{t('settingsLink')}</AppLink>
        <AppLink to="/account/safety">{t('safety:lists_link')}</AppLink>
        <AppLink to="/account/apps">{t('appsLink')}</AppLink>
        {account.moderator && <AppLink to="/moderation">{t('moderation:link')}</AppLink>}
        {registration.value?.membersInvite && !account.moderator && <AppLink to="/account/invites">{t('moderation:invites.title')}</AppLink>}
        <button type="button" className="link-button" onClick={() => void onLogout()}>
          {t('logout.button')}
        </button>
      </nav>
      <DataExport />
      <div className="account-section account-danger">
        <button type="button" className="button button--danger" disabled={deleting} onClick={() => setConfirming({ kind: 'delete' })}>
          {t('delete.button')}
        </button>
      </div>
      {confirming?.kind === 'delete' ? (
        <DeleteAccountDialog account={account} onDeleted={() => void onDeleted()} onCancel={() => setConfirming(null)} />
      ) : null}
      {confirming?.kind === 'logout' ? (
        <ConfirmDialog
          question={t('logout.pending', { count: confirming.pending })}
          action={t('logout.anyway')}
          onConfirm={() => void logout()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
    </section>
  );
}
