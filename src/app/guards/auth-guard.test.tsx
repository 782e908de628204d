import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MEDIA_CACHE } from '../../../sw/media-cache';
import { getSession, storeSession } from '../../lib/session';
import { FakeCacheStorage } from '../../test/fake-caches';
import { renderRoutes, stubFetch } from '../../test/render';
import { RequireAuth, resetAuthGuard } from './auth-guard';

const routes = [
  { path: '/account', element: <RequireAuth><p>account page</p></RequireAuth> },
  { path: '/feed', element: <p>feed page</p> },
  { path: '/login', element: <p>login page</p> },
];

describe('RequireAuth', () => {
  beforeEach(() => resetAuthGuard());
  afterEach(() => vi.unstubAllGlobals());

  it('sends a visitor without a token to /feed without calling the server', async () => {
    const { fetchMock, calls } = stubFetch(() => undefined);
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feed');
    expect(calls).toHaveLength(0);
  });

  it('sends the user to /login and ends the session when the auth test fails', async () => {
    storeSession('expired', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } })).fetchMock);
    const { router } = renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession().token).toBeNull();
  });

  it('drops private-group images from the media cache when the server refuses the token', async () => {
    const storage = new FakeCacheStorage();
    const cache = await storage.open(MEDIA_CACHE);
    await cache.put('/media/aaaaaaaaaaaaaaaaaaaaaaaa0.webp', new Response('img', { headers: { 'Cache-Control': 'private, max-age=600' } }));
    vi.stubGlobal('caches', storage.asCacheStorage());
    storeSession('revoked', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 401, body: { message: 'error/invalid_token' } })).fetchMock);
    renderRoutes(routes, { route: '/account' });
    expect(await screen.findByText('login page')).toBeInTheDocument();
    await vi.waitFor(() => expect(storage.urls(MEDIA_CACHE)).toEqual([]));
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
