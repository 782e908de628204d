import { useTranslation } from 'react-i18next';
import { useOnline } from '../../lib/online';
import { webAuthnAvailable } from '../../lib/passkeys';
import './auth.css';

/**
 * "Sign in with a passkey" on the login page. A browser without WebAuthn gets a note instead of
 * the button; offline the button waits, since the server must hand out the challenge.
 */
export function PasskeySignIn({ busy, onSignIn }: { busy: boolean; onSignIn: () => void }) {
  const { t } = useTranslation('auth');
  const online = useOnline();
  const available = webAuthnAvailable();
  return (
    <div className="auth__passkey">
      <div className="auth__divider">
        <span>{t('or')}</span>
      </div>
      {available ? (
        <button type="button" className="button button--block" disabled={busy || !online} onClick={onSignIn} aria-describedby={online ? undefined : 'passkey-note'}>
          {t('passkey.signIn')}
        </button>
      ) : null}
      {!available || !online ? (
        <p id="passkey-note" className="auth__note">
          {t(available ? 'passkey.offline' : 'passkey.unsupported')}
        </p>
      ) : null}
    </div>
  );
}
