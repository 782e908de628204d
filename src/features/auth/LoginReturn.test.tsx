import { fireEvent, screen } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearSession, getSession } from '../../lib/session';
import { loginReturningTo, returnPathOf, useLoginLink } from '../../components/login-return';
import { renderRoutes, stubFetch } from '../../test/render';
import LoginPage from './LoginPage';

function FollowPage() {
  return (
    <>
      <p>bob&apos;s profile</p>
      <Link to={useLoginLink()}>Log in to follow</Link>
    </>
  );
}

const routes = [
  { path: '/u/:name', element: <FollowPage /> },
  { path: '/login', element: <LoginPage /> },
  { path: '/feed', element: <p>feed page</p> },
];

describe('login return', () => {
  beforeEach(() => clearSession());
  afterEach(() => vi.unstubAllGlobals());

  it('"Log in to follow" logs in and comes back to the page it was on', async () => {
    const stub = stubFetch((url) =>
      url.pathname === '/api/auth/login' ? { body: { token: 'tok-1', user: { _id: 'a'.repeat(24), username: 'alice' } } } : undefined,
    );
    vi.stubGlobal('fetch', stub.fetchMock);
    const { router } = renderRoutes(routes, { route: '/u/bob?x=1' });
    const link = await screen.findByRole('link', { name: 'Log in to follow' });
    expect(link).toHaveAttribute('href', '/login?next=%2Fu%2Fbob%3Fx%3D1');
    fireEvent.click(link);
    fireEvent.change(await screen.findByLabelText('Username or email'), { target: { value: 'alice' } });
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'secret1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByText("bob's profile")).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/u/bob');
    expect(router.state.location.search).toBe('?x=1');
    expect(getSession().token).toBe('tok-1');
  });

  it('returns only to a page of this app, else to the feed', () => {
    expect(returnPathOf('?next=%2Fg%2Fgarden')).toBe('/g/garden');
    expect(returnPathOf('')).toBe('/feed');
    expect(returnPathOf('?next=https%3A%2F%2Fevil.example')).toBe('/feed');
    expect(returnPathOf('?next=%2F%2Fevil.example')).toBe('/feed');
    expect(returnPathOf('?next=%2F%5Cevil.example')).toBe('/feed');
    expect(returnPathOf('?next=%2Flogin')).toBe('/feed');
    expect(loginReturningTo({ pathname: '/signup', search: '' })).toBe('/login');
  });
});
