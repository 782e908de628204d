import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_SETTINGS } from '#core/limits';
import { NotStoredLine } from '../../components/StatusPage';
import { NetworkError, errorMessageOf, isSessionRefused } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { useFailureToast } from '../../lib/load-failure';
import { queryKeys } from '../../lib/query/keys';
import { useStoredValue } from '../../lib/query/stored';
import { toast } from '../../lib/toast';
import { AccountSubpage } from './AccountSubpage';
import { DevicePushSwitch } from './DevicePushSwitch';
import { NOTIFICATION_SETTINGS_META_KEY, fetchNotificationSettings, saveNotificationSettings } from './account.api';
import './account.css';

/** The server's message, else error/loading_failed. */
const failureMessage = (err: unknown): string => errorMessageOf(err, 'error/loading_failed');

/**
 * /account/notification-settings: whether this device shows notifications while the app is closed
 * (Web Push, DevicePushSwitch), then one switch per notification type, in the order of
 * NOTIFICATION_SETTINGS. Each switch saves the whole list at once. The stored copy paints first
 * (offline too), the server's answer replaces it.
 */
export default function NotificationSettingsPage() {
  const { t } = useTranslation('account');
  const db = useDb();
  const stored = useStoredValue<boolean[]>(
    NOTIFICATION_SETTINGS_META_KEY,
    queryKeys.notificationSettings(db.name),
    (db, signal) => fetchNotificationSettings(db, signal),
    true,
    // Changed on other devices too: asked again on every visit.
    { staleTime: 0 },
  );
  // What the user set in this visit; the stored list until then.
  const [local, setLocal] = useState<boolean[] | null>(null);
  const [saving, setSaving] = useState(false);
  const settings = local ?? stored.value ?? null;
  // Nothing to show and nothing to report: the page says what it lacks.
  const notStored = stored.error instanceof NetworkError || isSessionRefused(stored.error);

  // Offline is said on the page (or nothing is missing), a refused session by the shell: no toast for either.
  useFailureToast(stored.error, failureMessage);

  const toggle = async (index: number) => {
    if (!settings) return;
    const before = settings;
    const next = settings.map((on, i) => (i === index ? !on : on));
    setLocal(next);
    setSaving(true);
    try {
      setLocal(await saveNotificationSettings(db, next));
    } catch (err) {
      setLocal(before);
      toast.error(failureMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <AccountSubpage page="settings">
      <DevicePushSwitch />
      {!settings ? (
        notStored ? (
          <NotStoredLine error={stored.error} />
        ) : !stored.error ? (
          <p className="list-status" role="status">
            {t('loading')}
          </p>
        ) : null
      ) : (
        <ul className="account-section settings-list">
          {NOTIFICATION_SETTINGS.map((name, i) => (
            <li key={name} className="settings-list__item">
              <label className="switch">
                <span className="switch__label">{t(`settings.${name}`)}</span>
                <input
                  type="checkbox"
                  role="switch"
                  className="switch__input"
                  checked={!!settings[i]}
                  disabled={saving}
                  onChange={() => void toggle(i)}
                />
                <span className="switch__track" aria-hidden="true" />
              </label>
            </li>
          ))}
        </ul>
      )}
    </AccountSubpage>
  );
}
