import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import VerifyPage from './VerifyPage';

describe('VerifyPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('shows the server message, logs out and offers login', async () => {
    storeSession('old-token', 'someone', 'b'.repeat(24));
    const { fetchMock, calls } = stubFetch((url) =>
      url.pathname === '/api/auth/verify' ? { body: { message: 'info/email_verified' } } : undefined,
    );
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<VerifyPage />, { route: '/verify?token=good-token&email=a%40example.com' });
    expect(screen.getByRole('status')).toHaveTextContent('Verifying your email…');
    expect(await screen.findByText('Your email is verified. You can log in now.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
    expect(getSession().token).toBeNull();
    const call = calls.find((c) => c.url.pathname === '/api/auth/verify')!;
    expect(call.url.searchParams.get('token')).toBe('good-token');
    expect(call.url.searchParams.get('email')).toBe('a@example.com');
  });

  it('shows a failure translated, keeps the session and offers no login link', async () => {
    storeSession('tok', 'someone', 'b'.repeat(24));
    vi.stubGlobal('fetch', stubFetch(() => ({ status: 400, body: { message: 'error/invalid_link' } })).fetchMock);
    renderWithApp(<VerifyPage />, { route: '/verify?token=used-token', lng: 'cs' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Tento odkaz je neplatný nebo vypršel.');
    expect(screen.queryByRole('link', { name: 'Přihlásit se' })).not.toBeInTheDocument();
    expect(getSession().token).toBe('tok');
  });

  it('does not call without a token', () => {
    const { fetchMock, calls } = stubFetch(() => undefined);
    vi.stubGlobal('fetch', fetchMock);
    renderWithApp(<VerifyPage />, { route: '/verify' });
    expect(screen.getByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
    expect(calls).toHaveLength(0);
  });
});
