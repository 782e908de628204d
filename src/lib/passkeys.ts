import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { PasskeyLoginBody } from '#core/api/auth';
import type { RegisterBody } from '#core/api/passkeys';
import type { AuthenticationOptionsReply, RegistrationOptionsReply } from '#core/api/webauthn';

/**
 * The browser's side of passkeys. The WebAuthn library is loaded only when a passkey is made or
 * used, so the screens that offer one (the login page above all) do not carry it.
 */

/**
 * Whether the browser can make and use passkeys at all: the library's own test
 * (browserSupportsWebAuthn), done here so that asking does not load the library.
 */
export function webAuthnAvailable(): boolean {
  return typeof globalThis.PublicKeyCredential === 'function';
}

/** Asks the browser for a new passkey made for the server's creation options. */
export async function createPasskey(options: RegistrationOptionsReply['options']): Promise<RegisterBody['response']> {
  const { browserSupportsWebAuthn, startRegistration } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new PasskeyUnavailable();
  return startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON });
}

/** Asks the browser to sign the server's challenge with one of the passkeys it holds for this site. */
export async function signWithPasskey(options: AuthenticationOptionsReply['options']): Promise<PasskeyLoginBody['response']> {
  const { browserSupportsWebAuthn, startAuthentication } = await import('@simplewebauthn/browser');
  if (!browserSupportsWebAuthn()) throw new PasskeyUnavailable();
  const response = await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON });
  return response as PasskeyLoginBody['response'];
}

export class PasskeyUnavailable extends Error {
  constructor() {
    super('WebAuthn is not available in this browser');
    this.name = 'PasskeyUnavailable';
  }
}

/**
 * What a failure in the browser's passkey dialog means to the user: `cancelled` (closed, timed
 * out, or no passkey chosen: nothing to say beyond that), `registered` (this authenticator holds
 * one for the account already), `unavailable`, or null for any other failure (the server's answer
 * or the network's, shown as such).
 */
export function browserPasskeyFailure(err: unknown): 'cancelled' | 'registered' | 'unavailable' | null {
  if (err instanceof PasskeyUnavailable) return 'unavailable';
  if (!(err instanceof Error)) return null;
  const code = (err as Error & { code?: unknown }).code;
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' || err.name === 'InvalidStateError') return 'registered';
  if (code === 'ERROR_CEREMONY_ABORTED' || err.name === 'NotAllowedError' || err.name === 'AbortError') return 'cancelled';
  // Browsers refuse passkeys on a page opened by IP address (127.0.0.1) rather than by name.
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || err.name === 'SecurityError') return 'unavailable';
  return null;
}
