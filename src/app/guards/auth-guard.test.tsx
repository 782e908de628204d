import type { ReactElement } from 'react';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getSession, storeSession } from '../../lib/session';
import { clearSession } from '../../lib/session-store';
import { renderRoutes, stubFetch } from '../../test/render';
import { refuseSession } from '../../test/session';
import { RequireAuth, resetAuthGuard } from './auth-guard';

const routes = [
  { path: '/account', element: <RequireAuth><p>account page</p></RequireAuth> },
  { path: '/feed', element: <p>feed page</p> },
  { path: '/login', element: <p>login page</p> },
];

describe('RequireAuth', () => {
  beforeEach(() => resetAuthGuard());
  afterEach(() => vi.unstubAllGlobals());

  it('asks a visitor without a token to log in and come back, without calling the server', async () => {
    const { fetchMock, calls } = stubFetch(() => undefined);
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderRoutes(routes, { route: '/account?tab=1' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/account?tab=1');
    expect(calls).toHaveLength(0);
  });

  it('sends a user whose session ends on the page (a logout) to /feed', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 200, body: { message: 'ok' } })).fetchMock);
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    act(() => clearSession());
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feed');
  });

  it('lets a page that ends the session go where it is going, while that page still loads', async () => {
    storeSession('token-1', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 200, body: { message: 'ok' } })).fetchMock);
    let loaded: () => void = () => undefined;
    const slowLogin = { path: '/login', lazy: () => new Promise<{ Component: () => ReactElement }>((resolve) => (loaded = () => resolve({ Component: () => <p>login page</p> }))) };
    const { router } = renderRoutes([routes[0]!, routes[1]!, slowLogin], { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    // As the password form does: on the way out first (drawn at once), then without the session.
    const going = router.navigate('/login', { replace: true, flushSync: true });
    clearSession();
    await new Promise((resolve) => setTimeout(resolve, 20));
    loaded();
    await going;
    expect(router.state.location.pathname).toBe('/login');
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('keeps the page and the session, marked expired, when the server refuses the token', async () => {
    storeSession('expired', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } })).fetchMock);
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    await vi.waitFor(() => expect(getSession().expired).toBe(true));
    expect(router.state.location.pathname).toBe('/account');
    expect(getSession()).toMatchObject({ token: 'expired', username: 'alice', id: 'a'.repeat(24) });
  });

  it('does not ask the server again about a session it refused', async () => {
    await refuseSession('expired', 'alice', 'a'.repeat(24));
    const { fetchMock, calls } = stubFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } }));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/account');
    expect(calls).toHaveLength(0);
  });

  it('shows the page when the auth test passes, testing each token once', async () => {
    storeSession('good', 'alice', 'a'.repeat(24));
    const { fetchMock, calls } = stubFetch((url, init) =>
      url.pathname === '/api/auth/test' && init?.method === 'POST'
        ? { body: { ok: true, user: { _id: 'a'.repeat(24), username: 'alice' } } }
        : undefined,
    );
    vi.stubGlobal('fetch', fetchMock);
    const first = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    await vi.waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.method).toBe('POST');
    first.unmount();
    renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
  });

  it('keeps the page offline, trusting the stored session', async () => {
    storeSession('good', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('account page')).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 20));
    expect(router.state.location.pathname).toBe('/account');
    expect(getSession().token).toBe('good');
  });
});
