import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { GoogleButton } from './GoogleButton';

const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const GOOD = `${part({ alg: 'RS256' })}.${part({ iss: 'https://accounts.google.com', aud: 'cid', sub: '42' })}.c2ln`;

function fakeGoogle() {
  let callback: ((r: { credential?: string }) => void) | undefined;
  const renderButton = vi.fn();
  window.google = {
    accounts: {
      id: {
        initialize: (options) => {
          callback = options.callback;
        },
        renderButton,
      },
    },
  };
  return { sign: (credential: string) => callback!({ credential }), renderButton, ready: () => !!callback };
}

describe('GoogleButton', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    delete window.google;
  });

  it('renders nothing when no client id is configured', async () => {
    const { fetchMock, calls } = stubFetch(() => ({ body: { googleClientId: null, tenorEnabled: false } }));
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<GoogleButton mode="signin" />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(screen.queryByTestId('google-button')).not.toBeInTheDocument();
  });

  it('checks the credential, rejects a malformed one, and logs in with a good one', async () => {
    const google = fakeGoogle();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { fetchMock, calls } = stubFetch((url) => {
      if (url.pathname === '/api/config') return { body: { googleClientId: 'cid', tenorEnabled: false } };
      if (url.pathname === '/api/auth/google') return { body: { token: 'g-tok', user: { _id: 'c'.repeat(24), username: 'gina' } } };
      return undefined;
    });
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderWithApp(<GoogleButton mode="signup" />, { route: '/signup', routes: [{ path: '/feed', element: <p>feed</p> }] });
    await waitFor(() => expect(google.ready()).toBe(true));
    expect(google.renderButton.mock.calls[0]![1]).toMatchObject({ text: 'signup_with', locale: 'en' });

    await act(async () => google.sign('not.a-jwt'));
    expect(alert).toHaveBeenCalledWith('Google Sign-in failed');
    expect(calls.some((c) => c.url.pathname === '/api/auth/google')).toBe(false);

    await act(async () => google.sign(GOOD));
    await waitFor(() => expect(router.state.location.pathname).toBe('/feed'));
    expect(calls.find((c) => c.url.pathname === '/api/auth/google')?.body).toMatchObject({ token: GOOD });
    expect(getSession()).toEqual({ token: 'g-tok', username: 'gina', id: 'c'.repeat(24) });
  });

  it('alerts the server message when the server refuses the credential', async () => {
    const google = fakeGoogle();
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    vi.stubGlobal(
      'fetch',
      stubFetch((url) =>
        url.pathname === '/api/config'
          ? { body: { googleClientId: 'cid', tenorEnabled: false } }
          : { status: 401, body: { message: 'error/google_failed' } },
      ).fetchMock,
    );
    renderWithApp(<GoogleButton mode="signin" />, { lng: 'cs' });
    await waitFor(() => expect(google.ready()).toBe(true));
    await act(async () => google.sign(GOOD));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Přihlášení přes Google se nezdařilo.'));
    expect(getSession().token).toBeNull();
  });

  it("sends whether the sign-up's rules box is ticked when Google answers, not when the button was set up", async () => {
    const google = fakeGoogle();
    const { fetchMock, calls } = stubFetch((url) => {
      if (url.pathname === '/api/config') return { body: { googleClientId: 'cid', tenorEnabled: false } };
      if (url.pathname === '/api/auth/google') return { body: { token: 'g-tok', user: { _id: 'c'.repeat(24), username: 'gina' } } };
      return undefined;
    });
    vi.stubGlobal('fetch', fetchMock);
    function WithRulesBox() {
      const [accepted, setAccepted] = useState(false);
      return (
        <>
          <input type="checkbox" aria-label="accept" checked={accepted} onChange={(event) => setAccepted(event.target.checked)} />
          <GoogleButton mode="signup" acceptRules={accepted} />
        </>
      );
    }
    renderWithApp(<WithRulesBox />, { route: '/signup', routes: [{ path: '/feed', element: <p>feed</p> }] });
    await waitFor(() => expect(google.ready()).toBe(true));
    fireEvent.click(screen.getByRole('checkbox', { name: 'accept' }));
    await act(async () => google.sign(GOOD));
    await waitFor(() => expect(calls.find((c) => c.url.pathname === '/api/auth/google')?.body).toMatchObject({ token: GOOD, acceptRules: true }));
  });
});
