import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { getDb } from '../../lib/db/db';
import { cancelScheduledSend } from '../../lib/outbox/outbox';
import { getToasts } from '../../lib/toast';
import { apiPost, mockFetch, startOnline } from '../../test/local-first';
import { renderRoutes } from '../../test/render';
import { routes } from '../routes';

const POST = 'p00000000000000000000001';
const refused = { status: 401, body: { message: 'error/invalid_token' } };

beforeEach(async () => {
  await startOnline();
  vi.stubGlobal('IntersectionObserver', undefined);
  await getDb().posts.put({ ...apiPost(POST, { text: 'saved words' }), cachedAt: 1 });
});
afterEach(() => {
  cancelScheduledSend();
  vi.unstubAllGlobals();
});

describe('the session notice', () => {
  it('says in the shell that the session ended, offers a login back to the page, and keeps the saved post', async () => {
    mockFetch(() => refused);
    const before = getToasts().length;
    renderRoutes(routes, { route: `/p/${POST}` });
    const shown = await screen.findByText('Your session has ended. What is saved on this device is still here: log in again to carry on.');
    const box = shown.closest('[role="status"]') as HTMLElement;
    expect(box).not.toBeNull();
    expect(within(box).getByRole('link', { name: 'Log in' })).toHaveAttribute('href', `/login?next=${encodeURIComponent(`/p/${POST}`)}`);
    expect(await screen.findByText('saved words')).toBeInTheDocument();
    expect(screen.queryByText('Post not found.')).toBeNull();
    expect(getToasts().slice(before)).toEqual([]);
  });

  it('speaks Czech in Czech', async () => {
    mockFetch(() => refused);
    renderRoutes(routes, { route: '/feed', lng: 'cs' });
    const shown = await screen.findByText('Vaše přihlášení skončilo. Co je uložené v tomto zařízení, tu zůstává: pro pokračování se znovu přihlaste.');
    expect(within(shown.closest('[role="status"]') as HTMLElement).getByRole('link', { name: 'Přihlásit se' })).toBeInTheDocument();
  });

  it('is not shown while the server takes the session', async () => {
    mockFetch((call) => (call.path === `/api/post/${POST}` ? { body: apiPost(POST, { text: 'saved words' }) } : { body: { comments: [], hasMore: false } }));
    renderRoutes(routes, { route: `/p/${POST}` });
    expect(await screen.findByText('saved words')).toBeInTheDocument();
    expect(screen.queryByText(/Your session has ended/)).toBeNull();
  });
});
