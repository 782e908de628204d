import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getSession, storeSession } from '../../lib/session';
import { renderWithApp, stubFetch } from '../../test/render';
import { refuseSession } from '../../test/session';
import LoginPage from './LoginPage';

const feedRoute = { path: '/feed', element: <p>feed page</p> };

function renderLogin(responder: Parameters<typeof stubFetch>[0], lng: 'en' | 'cs' = 'en') {
  const stub = stubFetch(responder);
  vi.stubGlobal('fetch', stub.fetchMock);
  const view = renderWithApp(<LoginPage />, { route: '/login', path: '/login', routes: [feedRoute], lng });
  return { ...view, calls: stub.calls };
}

function fill(identifier: string, password: string, labels = { id: 'Username or email', password: 'Password' }) {
  fireEvent.change(screen.getByLabelText(labels.id), { target: { value: identifier } });
  fireEvent.change(screen.getByLabelText(labels.password), { target: { value: password } });
}

describe('LoginPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('logs in, stores the session and goes to the feed', async () => {
    const { calls, router } = renderLogin((url) =>
      url.pathname === '/api/auth/login'
        ? { body: { token: 'tok-1', user: { _id: 'a'.repeat(24), username: 'alice' } } }
        : undefined,
    );
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup');
    fill('alice@example.com', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/feed');
    expect(getSession()).toEqual({ token: 'tok-1', username: 'alice', id: 'a'.repeat(24) });
    expect(calls.find((c) => c.url.pathname === '/api/auth/login')?.body).toEqual({
      username: 'alice@example.com',
      password: 'secret1',
    });
  });

  it('shows the form to a session the server refused, and logging in again ends the expiry', async () => {
    await refuseSession('old-tok', 'alice', 'a'.repeat(24));
    const { router } = renderLogin((url) =>
      url.pathname === '/api/auth/login' ? { body: { token: 'tok-2', user: { _id: 'a'.repeat(24), username: 'alice' } } } : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'Log in to Kruh' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    fill('alice', 'new-secret');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText('feed page')).toBeInTheDocument();
    expect(getSession()).toEqual({ token: 'tok-2', username: 'alice', id: 'a'.repeat(24) });
  });

  it('shows the server message translated', async () => {
    renderLogin(() => ({ status: 401, body: { message: 'error/invalid_credentials' } }));
    fill('alice', 'wrong-password');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong username, email or password.');
    expect(getSession().token).toBeNull();
  });

  it('shows the lockout message in Czech', async () => {
    renderLogin(() => ({ status: 429, body: { message: 'error/login_timeout' } }), 'cs');
    fill('alice', 'wrong-password', { id: 'Uživatelské jméno nebo e-mail', password: 'Heslo' });
    fireEvent.click(screen.getByRole('button', { name: 'Přihlásit se' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Zkuste to znovu za 3 minuty.');
  });

  it('falls back to error/loading_failed when there is no answer', async () => {
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('Failed to fetch')));
    renderWithApp(<LoginPage />, { route: '/login', path: '/login' });
    fill('alice', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Loading failed.');
  });

  it('asks for the missing field before calling', () => {
    const { calls } = renderLogin(() => undefined);
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a username.');
    expect(calls.filter((c) => c.url.pathname === '/api/auth/login')).toHaveLength(0);
  });

  it('sends a logged-in user to the feed', async () => {
    storeSession('tok', 'alice', 'a'.repeat(24));
    renderLogin(() => undefined);
    expect(await screen.findByText('feed page')).toBeInTheDocument();
  });

  it('mails a reset link from the forgot-password form', async () => {
    const { calls } = renderLogin((url) =>
      url.pathname === '/api/auth/forgot' ? { body: { message: 'info/password_reset_sent' } } : undefined,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Forgot your password?' }));
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Please enter a valid email address.')).toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'Alice@Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByRole('status')).toHaveTextContent(/we sent it a link/);
    await waitFor(() =>
      expect(calls.find((c) => c.url.pathname === '/api/auth/forgot')?.body).toEqual({ email: 'alice@example.com' }),
    );
  });

  const resendCalls = (calls: Array<{ url: URL; body: unknown }>) =>
    calls.filter((c) => c.url.pathname === '/api/auth/resend-verification').map((c) => c.body);
  const unverified = (url: URL) =>
    url.pathname === '/api/auth/login'
      ? { status: 403, body: { message: 'error/verify_email' } }
      : url.pathname === '/api/auth/resend-verification'
        ? { body: { message: 'info/verification_sent' } }
        : undefined;

  it('offers to send the verification mail again to the address logged in with', async () => {
    const { calls } = renderLogin(unverified);
    fill('Alice@Example.com', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send it again' }));
    expect(await screen.findByText('If this address is waiting to be verified, we sent it a new link.')).toBeInTheDocument();
    expect(resendCalls(calls)).toEqual([{ email: 'alice@example.com' }]);
  });

  it('sends the mail again by the username the login used, asking for no address', async () => {
    const { calls } = renderLogin(unverified);
    fill('alice', 'secret1');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Send it again' }));
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(await screen.findByText('If this address is waiting to be verified, we sent it a new link.')).toBeInTheDocument();
    expect(resendCalls(calls)).toEqual([{ username: 'alice' }]);
  });

  it('opens the forgotten-password form prefilled from the address', () => {
    vi.stubGlobal('fetch', stubFetch(() => undefined).fetchMock);
    renderWithApp(<LoginPage />, { route: '/login?forgot=alice%40example.com', path: '/login' });
    expect(screen.getByRole('heading', { name: 'Reset your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('alice@example.com');
  });
});
