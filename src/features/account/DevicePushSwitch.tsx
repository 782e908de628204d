import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessageOf } from '../../lib/api/client';
import { type DevicePushState, devicePushState, disableDevicePush, enableDevicePush, resendDevicePush } from '../../lib/push/device-push';
import { toast } from '../../lib/toast';

/**
 * "Notifications on this device": Web Push for this browser. The permission prompt comes only
 * from turning the switch on. Where the browser cannot (no Push API, iOS outside the installed app)
 * or the person blocked notifications, the switch is off and a note says why.
 */
export function DevicePushSwitch() {
  const { t } = useTranslation('account');
  const [state, setState] = useState<DevicePushState | 'checking'>('checking');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let live = true;
    devicePushState().then(
      (found) => {
        if (!live) return;
        setState(found);
        // The server may have dropped it, or hold it for another account: it gets it again.
        if (found === 'on') void resendDevicePush().catch(() => undefined);
      },
      () => live && setState('unsupported'),
    );
    return () => {
      live = false;
    };
  }, []);

  const toggle = async () => {
    setBusy(true);
    try {
      if (state === 'on') {
        await disableDevicePush();
        setState('off');
      } else {
        setState(await enableDevicePush());
      }
    } catch (err) {
      toast.error(errorMessageOf(err, 'account:push.failed'));
      setState(await devicePushState().catch(() => 'off' as const));
    } finally {
      setBusy(false);
    }
  };

  const note = state === 'unsupported' ? t('push.unsupported') : state === 'denied' ? t('push.denied') : t('push.hint');
  return (
    <div className="account-section settings-list__item">
      <label className="switch">
        <span className="switch__label">{t('push.label')}</span>
        <input
          type="checkbox"
          role="switch"
          className="switch__input"
          checked={state === 'on'}
          disabled={busy || state === 'checking' || state === 'unsupported' || state === 'denied'}
          aria-describedby="device-push-note"
          onChange={() => void toggle()}
        />
        <span className="switch__track" aria-hidden="true" />
      </label>
      <p id="device-push-note" className="account-form__note">
        {note}
      </p>
    </div>
  );
}
