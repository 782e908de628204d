import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../lib/session';
import { setOnline } from '../../test/local-first';
import { renderWithApp, stubFetch } from '../../test/render';
import LoginPage from './LoginPage';

const browser = vi.hoisted(() => ({
  browserSupportsWebAuthn: vi.fn(() => true),
  startAuthentication: vi.fn(),
  startRegistration: vi.fn(),
}));
vi.mock('@simplewebauthn/browser', () => browser);

const feedRoute = { path: '/feed', element: <p>feed page</p> };
const OPTIONS = { challenge: 'Y2hhbGxlbmdl', rpId: 'localhost', allowCredentials: [], userVerification: 'required' };
const SIGNED = {
  id: 'cred',
  rawId: 'cred',
  type: 'public-key',
  clientExtensionResults: {},
  response: { clientDataJSON: 'Y2Q', authenticatorData: 'YWQ', signature: 'c2ln', userHandle: 'dQ' },
};
const SESSION = { token: 'tok-pk', user: { _id: 'b'.repeat(24), username: 'bob' } };

function renderLogin(responder: Parameters<typeof stubFetch>[0], lng: 'en' | 'cs' = 'en') {
  const stub = stubFetch(responder);
  vi.stubGlobal('fetch', stub.fetchMock);
  const view = renderWithApp(<LoginPage />, { route: '/login', path: '/login', routes: [feedRoute], lng });
  return { ...view, calls: stub.calls };
}

/** The server's side of a passkey sign-in: options, then the session (or `refusal`). */
const server = (refusal?: { status: number; body: unknown }) => (url: URL) =>
  url.pathname === '/api/auth/passkey/options'
    ? { body: { challengeId: 'ch-1', options: OPTIONS } }
    : url.pathname === '/api/auth/passkey'
      ? (refusal ?? { body: SESSION })
      : undefined;

const passkeyButton = () => screen.getByRole('button', { name: 'Sign in with a passkey' });

describe('LoginPage: sign in with a passkey', () => {
  beforeEach(() => {
    setOnline(true);
    vi.stubGlobal('PublicKeyCredential', function PublicKeyCredential() {});
    browser.startAuthentication.mockReset();
  });
  afterEach(() => vi.unstubAllGlobals());

  it('signs the server\'s challenge, keeps the session as a password login does, and goes to the feed', async () => {
    browser.startAuthentication.mockResolvedValue(SIGNED);
    const { calls, router } = renderLogin(server());
    fireEvent.click(passkeyButton());
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feed');
    expect(getSession()).toEqual({ token: 'tok-pk', username: 'bob', id: 'b'.repeat(24) });
    expect(browser.startAuthentication).toHaveBeenCalledWith({ optionsJSON: OPTIONS });
    expect(calls.find((c) => c.url.pathname === '/api/auth/passkey')?.body).toEqual({ challengeId: 'ch-1', response: SIGNED });
  });

  it('shows the server\'s refusal, translated, and stays signed out', async () => {
    browser.startAuthentication.mockResolvedValue(SIGNED);
    renderLogin(server({ status: 400, body: { message: 'error/passkey_not_found' } }), 'cs');
    fireEvent.click(screen.getByRole('button', { name: 'Přihlásit se přístupovým klíčem' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Tento přístupový klíč zde není známý.');
    expect(getSession().token).toBeNull();
    expect(screen.getByRole('button', { name: 'Přihlásit se přístupovým klíčem' })).toBeEnabled();
  });

  it('says so when the browser\'s dialog was closed, and sends nothing', async () => {
    browser.startAuthentication.mockRejectedValue(Object.assign(new Error('closed'), { name: 'NotAllowedError' }));
    const { calls } = renderLogin(server());
    fireEvent.click(passkeyButton());
    expect(await screen.findByRole('alert')).toHaveTextContent('No passkey was used.');
    expect(calls.filter((c) => c.url.pathname === '/api/auth/passkey')).toHaveLength(0);
    expect(passkeyButton()).toBeEnabled();
  });

  it('offers no button where the browser has no WebAuthn, and says why', () => {
    vi.stubGlobal('PublicKeyCredential', undefined);
    renderLogin(server());
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
    expect(screen.getByText('This browser cannot use passkeys.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeEnabled();
  });

  it('waits for a connection while offline', async () => {
    setOnline(false);
    renderLogin(server());
    expect(passkeyButton()).toBeDisabled();
    expect(screen.getByText('Signing in with a passkey needs a connection.')).toBeInTheDocument();
    setOnline(true);
    act(() => void window.dispatchEvent(new Event('online')));
    await waitFor(() => expect(passkeyButton()).toBeEnabled());
    expect(screen.queryByText('Signing in with a passkey needs a connection.')).toBeNull();
  });
});
