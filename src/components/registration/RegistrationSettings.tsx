import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { REGISTRATION_MODES, type RegistrationSettings } from '#core/api/registration';
import { useOnline } from '../../lib/online';
import { saveRegistration, useRefreshRegistration, useRegistration } from '../../lib/registration';
import { useModerationCall } from '../moderation/ModerationLists';
import './registration.css';

/**
 * The instance moderators' choice of how new accounts come in, and whether members may make
 * invite links: shown as last read (offline too), saved at once, online only.
 */
export function RegistrationSettingsSection() {
  const { t } = useTranslation('moderation');
  const online = useOnline();
  const stored = useRegistration();
  const refresh = useRefreshRegistration();
  const { busy, run } = useModerationCall();
  const [draft, setDraft] = useState<RegistrationSettings | null>(null);
  const shown = draft ?? stored.value;

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!draft) return;
    const saved = await run(() => saveRegistration(draft));
    await refresh();
    if (saved) setDraft(null);
  }

  return (
    <section className="moderation-section" aria-labelledby="moderation-registration">
      <h2 id="moderation-registration">{t('registration.title')}</h2>
      {shown ? (
        <form className="registration-settings" onSubmit={(event) => void submit(event)}>
          <fieldset>
            <legend>{t('registration.mode_label')}</legend>
            {REGISTRATION_MODES.map((mode) => (
              <label key={mode} className="registration-settings__mode">
                <input type="radio" name="registration-mode" value={mode} checked={shown.mode === mode} onChange={() => setDraft({ ...shown, mode })} />
                <span>
                  <strong>{t(`registration.mode.${mode}`)}</strong>
                  <span className="moderation-report__meta"> {t(`registration.mode_hint.${mode}`)}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <label className="registration-settings__mode">
            <input type="checkbox" checked={shown.membersInvite} onChange={(event) => setDraft({ ...shown, membersInvite: event.target.checked })} />
            {t('registration.members_invite')}
          </label>
          <button type="submit" className="button button--primary" disabled={!online || busy || !draft}>
            {t('registration.save')}
          </button>
        </form>
      ) : (
        <p className="moderation-empty">{t('loading')}</p>
      )}
    </section>
  );
}
