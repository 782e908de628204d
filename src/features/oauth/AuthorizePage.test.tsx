import '../../test/setup';
import { useLocation, useNavigate } from 'react-router-dom';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type OutboxRow, getDb, logoutAndClear } from '../../lib/db/db';
import { clearSession, storeSession } from '../../lib/session';
import { getSession } from '../../lib/session-store';
import { type FetchCall, mockFetch, setOnline } from '../../test/local-first';
import { renderRoutes } from '../../test/render';
import { returnPathOf } from '../../components/login-return';
import AuthorizePage, { leavePage } from './AuthorizePage';
import { RequireAuth } from '../../app/guards/auth-guard';

const REQUEST = '?client_id=app1&redirect_uri=https%3A%2F%2Fapp.example%2Fcb&scope=read+write%3Astatuses&response_type=code&state=s1&code_challenge=c&code_challenge_method=S256';
const PROMPT = { app: { name: 'Pocket', website: 'https://app.example' }, scopes: ['read', 'write:statuses'], redirectUri: 'https://app.example/cb', outOfBand: false };

/** The sign-in as the guard sends a visitor to it: it signs in and goes where `next` says. */
function SignIn() {
  const navigate = useNavigate();
  const { search } = useLocation();
  const signIn = () => {
    storeSession('tok', 'ana', 'a'.repeat(24));
    void navigate(returnPathOf(search), { replace: true });
  };
  return (
    <button type="button" onClick={signIn}>
      Sign in
    </button>
  );
}

const routes = [
  { path: '/oauth/authorize', element: <RequireAuth><AuthorizePage /></RequireAuth> },
  { path: '/login', element: <SignIn /> },
  // Where the guard sends a page whose session ended on it.
  { path: '/feed', element: <p>Feed</p> },
];

type Answer = { status?: number; body?: unknown };
function serve(other: (call: FetchCall) => Answer | undefined = () => undefined) {
  return mockFetch((call) => {
    const answer = other(call);
    if (answer) return answer;
    if (call.path === '/api/auth/test') return { body: { message: 'ok' } };
    if (call.path === '/api/oauth/authorize' && call.method === 'GET') return { body: PROMPT };
    return { status: 404, body: { message: 'error/not_found' } };
  });
}

beforeEach(async () => {
  clearSession();
  await logoutAndClear();
  setOnline(true);
});
afterEach(() => vi.unstubAllGlobals());

const signedIn = () => storeSession('tok', 'ana', 'a'.repeat(24));

describe('AuthorizePage', () => {
  it('names the app and says what each scope lets it do', async () => {
    signedIn();
    const { calls } = serve();
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}` });
    expect(await screen.findByRole('heading', { name: 'Pocket asks to use your account' })).toBeInTheDocument();
    expect(screen.getByRole('list', { name: 'If you allow it, it will be able to:' }).textContent).toBe('Read everything your account can seeChange posts');
    expect(screen.getByText('You are signed in as ana.')).toBeInTheDocument();
    const asked = calls.find((c) => c.path === '/api/oauth/authorize')!;
    const query = new URL(asked.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      client_id: 'app1', redirect_uri: 'https://app.example/cb', scope: 'read write:statuses', response_type: 'code', code_challenge: 'c', code_challenge_method: 'S256',
    });
  });

  it('approves with the whole request and goes to the app with its code', async () => {
    signedIn();
    const to = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    const { calls } = serve((call) => (call.method === 'POST' && call.path === '/api/oauth/authorize' ? { body: { redirect: 'https://app.example/cb?code=k&state=s1', code: null } } : undefined));
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    await waitFor(() => expect(to).toHaveBeenCalledWith('https://app.example/cb?code=k&state=s1'));
    const posted = calls.find((c) => c.method === 'POST' && c.path === '/api/oauth/authorize')!;
    expect(posted.body).toMatchObject({ client_id: 'app1', state: 's1', code_challenge: 'c', approve: true });
    expect(await screen.findByText('Going back to Pocket…')).toBeInTheDocument();
  });

  it('denies, and the app is told so', async () => {
    signedIn();
    const to = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    const { calls } = serve((call) => (call.method === 'POST' && call.path === '/api/oauth/authorize' ? { body: { redirect: 'https://app.example/cb?error=access_denied&state=s1', code: null } } : undefined));
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Deny' }));
    await waitFor(() => expect(to).toHaveBeenCalledWith('https://app.example/cb?error=access_denied&state=s1'));
    expect(calls.find((c) => c.method === 'POST')!.body).toMatchObject({ approve: false });
  });

  it('shows the code to copy to an app without an address of its own', async () => {
    signedIn();
    serve((call) => {
      if (call.method === 'GET' && call.path === '/api/oauth/authorize') return { body: { ...PROMPT, redirectUri: 'urn:ietf:wg:oauth:2.0:oob', outOfBand: true } };
      return call.method === 'POST' && call.path === '/api/oauth/authorize' ? { body: { redirect: null, code: 'the-code' } } : undefined;
    });
    renderRoutes(routes, { route: '/oauth/authorize?client_id=app1&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob' });
    fireEvent.click(await screen.findByRole('button', { name: 'Allow' }));
    expect(await screen.findByRole('textbox', { name: 'Your sign-in code' })).toHaveValue('the-code');
  });

  it('says what is wrong with a request the server refuses, and offers no button', async () => {
    signedIn();
    serve((call) => (call.path === '/api/oauth/authorize' ? { status: 400, body: { message: 'error/redirect_not_registered' } } : undefined));
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}` });
    expect(await screen.findByRole('alert')).toHaveTextContent('The app asked to return to an address it did not register.');
    expect(screen.queryByRole('button', { name: 'Allow' })).toBeNull();
  });

  it('asks a visitor to sign in first and comes back with the whole request', async () => {
    serve();
    const { router } = renderRoutes(routes, { route: `/oauth/authorize${REQUEST}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('heading', { name: 'Pocket asks to use your account' })).toBeInTheDocument();
    expect(`${router.state.location.pathname}${router.state.location.search}`).toBe(`/oauth/authorize${REQUEST}`);
  });

  it('asks for a new sign-in with force_login: logs out and signs in, coming back to the request without it', async () => {
    signedIn();
    const to = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    to.mockClear();
    const { calls } = serve();
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}&force_login=true` });
    expect(await screen.findByRole('heading', { name: 'Pocket asks you to sign in again, so you can choose the account it uses' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Allow' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Log out and sign in' }));
    await waitFor(() => expect(to).toHaveBeenCalledWith(`/login?${new URLSearchParams({ next: `/oauth/authorize${REQUEST}` }).toString()}`));
    expect(getSession().token).toBeNull();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/oauth/authorize')).toBe(false);
  });

  it('warns before a force_login sign-in drops items not sent yet', async () => {
    signedIn();
    const to = vi.spyOn(leavePage, 'to').mockImplementation(() => undefined);
    to.mockClear();
    serve();
    await getDb().outbox.add({ kind: 'post', status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 0, clientId: 'c1', idempotencyKey: 'k1', payload: { text: 'x', mentions: [], groups: [], replyingTo: null }, images: [] } as OutboxRow);
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}&force_login=1` });
    fireEvent.click(await screen.findByRole('button', { name: 'Log out and sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Logging out drops 1 item not sent yet from this device. Sign in anyway?');
    expect(to).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Log out and sign in' }));
    await waitFor(() => expect(to).toHaveBeenCalledTimes(1));
  });

  it('speaks Czech when the app asks for it', async () => {
    signedIn();
    serve();
    renderRoutes(routes, { route: `/oauth/authorize${REQUEST}&lang=cs` });
    expect(await screen.findByRole('heading', { name: 'Pocket žádá o přístup k vašemu účtu' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Povolit' })).toBeInTheDocument();
  });
});
