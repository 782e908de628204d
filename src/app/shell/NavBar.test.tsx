import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { NavBar } from './NavBar';

const nav = () => screen.getByRole('navigation', { name: 'Main navigation' });
const link = (name: string | RegExp) => within(nav()).getByRole('link', { name });

describe('NavBar', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows Feed, Search, Log in and Sign up to visitors, with Feed current on /', () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderWithApp(<NavBar />, { route: '/' });
    const names = within(nav())
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(names).toEqual(['Feed', 'Search', 'Log in', 'Sign up']);
    expect(link('Feed')).toHaveAttribute('aria-current', 'page');
    expect(link('Feed').querySelector('svg')).toHaveAttribute('data-filled', 'true');
    expect(link('Search').querySelector('svg')).toHaveAttribute('data-filled', 'false');
    expect(link('Log in')).toHaveAttribute('href', '/login');
  });

  it('marks the current item with a filled icon', () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderWithApp(<NavBar />, { route: '/signup' });
    expect(link('Sign up')).toHaveAttribute('aria-current', 'page');
    expect(link('Sign up').querySelector('svg')).toHaveAttribute('data-filled', 'true');
    expect(link('Feed')).not.toHaveAttribute('aria-current');
  });

  it('shows the logged-in items, the profile link, the account with avatar and the unread badge', async () => {
    const { fetchMock, calls } = stubFetch((url) =>
      url.pathname === '/api/notification/unread' ? { body: { count: 3 } } : undefined,
    );
    vi.stubGlobal('fetch', fetchMock);
    storeSession('tok', 'alice', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    renderWithApp(<NavBar />, { route: '/u/alice' });

    expect(within(nav()).queryByRole('link', { name: 'Log in' })).not.toBeInTheDocument();
    expect(link('New post')).toHaveAttribute('href', '/post');
    expect(link('Profile')).toHaveAttribute('href', '/u/alice');
    expect(link('Profile')).toHaveAttribute('aria-current', 'page');
    const account = link('alice');
    expect(account).toHaveAttribute('href', '/account');
    // The avatar comes in its own chunk, after the first paint.
    await waitFor(() => expect(account.querySelector('img')).toHaveAttribute('src', '/media/pfp/aaaaaaaaaaaaaaaaaaaaaaaa.jpeg'));

    expect(await within(nav()).findByLabelText('3 unread notifications')).toHaveTextContent('3');
    const unread = calls.find((c) => c.url.pathname === '/api/notification/unread');
    expect(unread).toBeDefined();
  });

  it('gives each destination one name, shown and spoken alike in the bottom bar and the side rail', async () => {
    vi.stubGlobal('fetch', stubFetch(() => ({ body: { count: 0 } })).fetchMock);
    storeSession('tok', 'alice', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    renderWithApp(<NavBar />, { route: '/feed' });
    const items = within(nav()).getAllByRole('listitem');
    const labels = items.map((item) => item.querySelector('.navbar__label'));
    expect(labels.map((label) => label?.textContent)).toEqual(['Feed', 'Search', 'New post', 'Alerts', 'Profile', 'alice']);
    items.forEach((item, i) => {
      // One text per label: none kept for one size and hidden at the other.
      expect(labels[i]!.children).toHaveLength(0);
      expect(within(item).getByRole('link', { name: labels[i]!.textContent! })).toBeInTheDocument();
    });
    await waitFor(() => expect(within(nav()).queryByText('0')).not.toBeInTheDocument());
  });

  it('counts /account/notifications as the notifications item, not the account', async () => {
    vi.stubGlobal('fetch', stubFetch(() => ({ body: { count: 0 } })).fetchMock);
    storeSession('tok', 'alice', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    renderWithApp(<NavBar />, { route: '/account/notifications' });
    expect(link('Alerts')).toHaveAttribute('aria-current', 'page');
    expect(link('alice')).not.toHaveAttribute('aria-current');
    await waitFor(() => expect(within(nav()).queryByText('0')).not.toBeInTheDocument());
  });

  it('keeps quiet when the unread call fails', async () => {
    const { fetchMock, calls } = stubFetch(() => ({ status: 500, body: { message: 'error/server_error' } }));
    vi.stubGlobal('fetch', fetchMock);
    storeSession('tok', 'alice', 'aaaaaaaaaaaaaaaaaaaaaaaa');
    renderWithApp(<NavBar />, { route: '/feed' });
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(within(nav()).queryByText(/unread/)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
