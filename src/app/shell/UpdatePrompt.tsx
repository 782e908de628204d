import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getUpdateState, subscribeUpdate } from '../pwa-state';
import './UpdatePrompt.css';

/** The banner shown when a new version of the app is waiting (service worker update). */
export function UpdatePrompt() {
  const { t } = useTranslation('common');
  const state = useSyncExternalStore(subscribeUpdate, getUpdateState, getUpdateState);
  if (!state.needRefresh) return null;
  return (
    <div className="update-prompt" role="alert">
      <span>{t('update.available')}</span>
      <div className="update-prompt__actions">
        <button type="button" className="button button--primary" onClick={() => state.reload()}>
          {t('update.reload')}
        </button>
        <button type="button" className="button" onClick={() => state.dismiss()}>
          {t('update.later')}
        </button>
      </div>
    </div>
  );
}
