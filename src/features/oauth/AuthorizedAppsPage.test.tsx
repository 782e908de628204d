import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb, logoutAndClear } from '../../lib/db/db';
import { storeSession } from '../../lib/session';
import { type FetchCall, mockFetch, setOnline } from '../../test/local-first';
import { renderWithApp } from '../../test/render';
import AuthorizedAppsPage from './AuthorizedAppsPage';
import { AUTHORIZED_APPS_META_KEY } from './oauth.api';

const POCKET = { id: 'a'.repeat(24), name: 'Pocket', website: 'https://app.example', scopes: ['read', 'write:statuses'], authorizedAt: Date.UTC(2026, 10, 20, 12), lastUsedAt: Date.UTC(2026, 10, 25, 8) };
const TOOT = { id: 'b'.repeat(24), name: 'Toot', website: null, scopes: ['read'], authorizedAt: Date.UTC(2026, 10, 18, 12), lastUsedAt: null };

function serve(apps: unknown[], other: (call: FetchCall) => { status?: number; body?: unknown } | undefined = () => undefined) {
  return mockFetch((call) => other(call) ?? (call.path === '/api/oauth/authorizations' ? { body: { apps } } : { status: 404, body: { message: 'error/not_found' } }));
}
const render = () => renderWithApp(<AuthorizedAppsPage />, { route: '/account/apps', path: '/account/apps' });

beforeEach(async () => {
  storeSession('tok', 'me', 'u1');
  await logoutAndClear();
  storeSession('tok', 'me', 'u1');
  setOnline(true);
});
afterEach(() => vi.unstubAllGlobals());

describe('AuthorizedAppsPage', () => {
  it('lists the apps with their scopes, when they were let in and last used', async () => {
    serve([POCKET, TOOT]);
    render();
    const list = await screen.findByRole('list', { name: 'Authorised apps' });
    expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Pockethttps://app.exampleRead everything your account can see · Change postsAllowed on Nov 20, 2026 · last used on Nov 25, 2026Revoke',
      'TootRead everything your account can seeAllowed on Nov 18, 2026 · not used yetRevoke',
    ]);
  });

  it('revokes an app and drops it from the list', async () => {
    const { calls } = serve([POCKET, TOOT], (call) => (call.method === 'DELETE' ? { body: { message: 'info/app_revoked' } } : undefined));
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the access of Pocket' }));
    expect(await screen.findByText('The app no longer has access to your account.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`/api/oauth/authorizations/${POCKET.id}`]);
    await waitFor(() => expect(screen.queryByText('Pocket')).toBeNull());
    expect(screen.getByText('Toot')).toBeInTheDocument();
  });

  it('shows the list kept from before while offline, and waits to revoke', async () => {
    await getDb().meta.put({ key: AUTHORIZED_APPS_META_KEY, value: [TOOT] });
    setOnline(false);
    mockFetch(() => new Error('offline'));
    render();
    expect(await screen.findByText('Toot')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revoke the access of Toot' })).toBeDisabled();
    expect(screen.getByText('You are offline. Access can be revoked once you are online.')).toBeInTheDocument();
  });

  it('says when no app has access', async () => {
    serve([]);
    render();
    expect(await screen.findByText('No app has access to your account.')).toBeInTheDocument();
  });
});
