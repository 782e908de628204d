import { afterEach, describe, expect, it, vi } from 'vitest';
import { PasskeyUnavailable, browserPasskeyFailure, createPasskey, signWithPasskey, webAuthnAvailable } from './passkeys';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const failure = (name: string, code?: string) => Object.assign(new Error(name), { name, ...(code ? { code } : {}) });

describe('passkeys in the browser', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('knows WebAuthn is there by the browser having PublicKeyCredential', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    expect(webAuthnAvailable()).toBe(false);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    expect(webAuthnAvailable()).toBe(true);
  });

  it('asks the library only where it says WebAuthn works', async () => {
    browser.browserSupportsWebAuthn.mockReturnValueOnce(false).mockReturnValueOnce(false);
    await expect(createPasskey({ rp: { name: 'Kruh' }, user: { id: 'dQ', name: 'me', displayName: 'me' }, challenge: 'Y2g', pubKeyCredParams: [] })).rejects.toBeInstanceOf(PasskeyUnavailable);
    await expect(signWithPasskey({ challenge: 'Y2g' })).rejects.toBeInstanceOf(PasskeyUnavailable);
    expect(browser.startRegistration).not.toHaveBeenCalled();
    expect(browser.startAuthentication).not.toHaveBeenCalled();
  });

  it('tells the dialog closed, a key already there and a page passkeys cannot be used on from other failures', () => {
    expect(browserPasskeyFailure(failure('NotAllowedError'))).toBe('cancelled');
    expect(browserPasskeyFailure(failure('AbortError', 'ERROR_CEREMONY_ABORTED'))).toBe('cancelled');
    expect(browserPasskeyFailure(failure('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'))).toBe('registered');
    // A page opened at 127.0.0.1: the library refuses the address as the site's name.
    expect(browserPasskeyFailure(failure('SecurityError', 'ERROR_INVALID_DOMAIN'))).toBe('unavailable');
    expect(browserPasskeyFailure(new PasskeyUnavailable())).toBe('unavailable');
    expect(browserPasskeyFailure(failure('UnknownError'))).toBeNull();
    expect(browserPasskeyFailure(new TypeError('Failed to fetch'))).toBeNull();
    expect(browserPasskeyFailure('nope')).toBeNull();
  });
});
