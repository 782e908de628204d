import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NOTIFICATION_SETTINGS } from '#core/limits';
import { AppLink } from '../../components/AppLink';
import { ApiError } from '../../lib/api/client';
import { useDb } from '../../lib/db/useDb';
import { toast } from '../../lib/toast';
import { fetchNotificationSettings, patchStoredAccount, saveNotificationSettings } from './account.api';
import './account.css';

/** The server's message, else error/loading_failed. */
const failureMessage = (err: unknown): string => (err instanceof ApiError && err.key ? `error/${err.key}` : 'error/loading_failed');

/**
 * /account/notification-settings: one switch per notification type, in the order of
 * NOTIFICATION_SETTINGS. Each switch saves the whole list at once.
 */
export default function NotificationSettingsPage() {
  const { t } = useTranslation('account');
  const db = useDb();
  const query = useQuery({
    queryKey: ['notification-settings', db.name],
    queryFn: ({ signal }) => fetchNotificationSettings(signal),
    staleTime: 0,
  });
  // What the user set in this visit; the server's list until then.
  const [local, setLocal] = useState<boolean[] | null>(null);
  const [saving, setSaving] = useState(false);
  const settings = local ?? query.data ?? null;

  const reported = useRef<unknown>(null);
  useEffect(() => {
    if (query.error && reported.current !== query.error) {
      reported.current = query.error;
      toast.error(failureMessage(query.error));
    }
  }, [query.error]);

  const toggle = async (index: number) => {
    if (!settings) return;
    const before = settings;
    const next = settings.map((on, i) => (i === index ? !on : on));
    setLocal(next);
    setSaving(true);
    try {
      const saved = await saveNotificationSettings(next);
      setLocal(saved);
      await patchStoredAccount(db, { notifications: saved });
    } catch (err) {
      setLocal(before);
      toast.error(failureMessage(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <section className="account-page" aria-labelledby="settings-title">
      <AppLink to="/account" className="account-back">
        {t('back')}
      </AppLink>
      <h1 id="settings-title">{t('settings.title')}</h1>
      {!settings ? (
        query.isPending ? (
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
    </section>
  );
}
