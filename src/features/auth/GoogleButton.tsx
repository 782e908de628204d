import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useDb } from '../../lib/db/useDb';
import { currentLanguage, translateMessage } from '../../lib/i18n';
import { publicConfigQuery } from '../../lib/public-config';
import { failureMessage, googleLogin, keepSession } from './auth.api';
import { decodeGoogleCredential } from './google-credential';
import './auth.css';

interface GoogleIdentity {
  accounts: {
    id: {
      initialize(options: { client_id: string; callback: (response: { credential?: string }) => void }): void;
      renderButton(element: HTMLElement, options: Record<string, unknown>): void;
    };
  };
}

declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const GSI_SRC = 'https://accounts.google.com/gsi/client';
let gsiScript: Promise<void> | undefined;

/** Loads Google Identity Services once, only when a client id is configured. */
async function loadGoogleIdentity(): Promise<GoogleIdentity> {
  gsiScript ??= new Promise<void>((resolve, reject) => {
    if (window.google?.accounts?.id) {
      resolve();
      return;
    }
    const script = document.createElement('script');
    script.src = GSI_SRC;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      gsiScript = undefined;
      reject(new Error('gsi failed to load'));
    };
    document.head.appendChild(script);
  });
  await gsiScript;
  if (!window.google?.accounts?.id) throw new Error('gsi missing');
  return window.google;
}

export function useGoogleClientId(): string | null {
  const db = useDb();
  const config = useQuery(publicConfigQuery(db.name));
  return config.data?.googleClientId ?? null;
}

/** The Google sign-in button of the login and sign-up screens; renders nothing without a client id. */
export function GoogleButton({ mode, acceptRules }: { mode: 'signin' | 'signup'; acceptRules?: boolean | undefined }) {
  const { t, i18n } = useTranslation('auth');
  // Read when Google answers, not when its button was set up: the box may be ticked in between.
  const rulesAccepted = useRef(acceptRules);
  useEffect(() => {
    rulesAccepted.current = acceptRules;
  }, [acceptRules]);
  const navigate = useNavigate();
  const clientId = useGoogleClientId();
  const container = useRef<HTMLDivElement>(null);
  const language = currentLanguage(i18n);

  useEffect(() => {
    if (!clientId) return;
    let cancelled = false;
    const fail = (message: string) => window.alert(translateMessage(t, message));
    const onCredential = async ({ credential }: { credential?: string }) => {
      if (!credential || !decodeGoogleCredential(credential)) {
        fail('google.failed');
        return;
      }
      try {
        keepSession(await googleLogin(credential, language, rulesAccepted.current));
        void navigate('/feed', { replace: true });
      } catch (err) {
        fail(failureMessage(err, 'google.failed'));
      }
    };
    loadGoogleIdentity().then(
      (google) => {
        if (cancelled || !container.current) return;
        google.accounts.id.initialize({ client_id: clientId, callback: (r) => void onCredential(r) });
        google.accounts.id.renderButton(container.current, {
          type: 'standard',
          theme: 'outline',
          size: 'large',
          shape: 'pill',
          text: mode === 'signup' ? 'signup_with' : 'signin_with',
          locale: language,
          width: 280,
        });
      },
      (err: unknown) => console.warn('Google sign-in unavailable', err),
    );
    return () => {
      cancelled = true;
    };
  }, [clientId, mode, language, navigate, t]);

  if (!clientId) return null;
  return (
    <div className="auth__google">
      <div className="auth__divider">
        <span>{t('or')}</span>
      </div>
      <div ref={container} className="auth__google-button" data-testid="google-button" />
    </div>
  );
}
