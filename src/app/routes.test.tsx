import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../lib/session';
import { renderRoutes, stubFetch } from '../test/render';
import { routes } from './routes';

describe('app routes', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the not-found page for an unknown path, inside the shell', async () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderRoutes(routes, { route: '/no/such/page' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByRole('navigation', { name: 'Main navigation' })).toBeInTheDocument();
  });

  it.each([
    '/', '/feed', '/feed/following', '/feed/groups', '/p/abc', '/login', '/signup', '/verify', '/reset',
    '/search?q=x', '/h/cats', '/u/alice', '/u/alice/followers', '/g/knitters', '/g/knitters/members',
    '/g/knitters/settings', '/create-group', '/post', '/notifications', '/account/notifications',
    '/account', '/account/credentials', '/account/notification-settings', '/account/safety', '/account/invites',
    '/account/apps', '/account-deleted', '/moderation', '/moderation/instance', '/moderation/people', '/about',
  ])('has a screen for %s', (route) => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    const { router } = renderRoutes(routes, { route });
    const leaf = router.state.matches.at(-1)!.route;
    expect(leaf.path).not.toBe('*');
    expect(leaf.lazy).toBeTypeOf('function');
  });

  it('guards the account pages', async () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    const { router } = renderRoutes(routes, { route: '/account/credentials' });
    // The page module loads first (lazy route), then the guard asks for a login that comes back.
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 10_000 });
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/account/credentials');
  });

  it('serves the login page and hides the right column search on /search only', async () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderRoutes(routes, { route: '/login' });
    expect(await screen.findByRole('heading', { name: 'Log in to Kruh' })).toBeInTheDocument();
    expect(screen.getByRole('complementary', { name: 'Search' })).toBeInTheDocument();
  });

  it('has no right column on /search', async () => {
    storeSession('tok', 'alice', 'a'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderRoutes(routes, { route: '/search' });
    await screen.findByRole('searchbox', { name: 'Search for users, groups, posts and replies' });
    expect(screen.queryByRole('complementary')).not.toBeInTheDocument();
  });
});
