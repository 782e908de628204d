import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../test/render';
import ResetPage from './ResetPage';

/** `usable`: whether the link still works when the page checks it (it may stop working after). */
function renderReset(route: string, usable = false) {
  const refusal = { status: 400, body: { message: 'error/invalid_link' } };
  vi.stubGlobal(
    'fetch',
    stubFetch((url) => (usable && url.pathname === '/api/auth/reset/check' ? { status: 200, body: { message: 'info/reset_link_valid' } } : refusal)).fetchMock,
  );
  return renderWithApp(<ResetPage />, { route, path: '/reset' });
}

describe('ResetPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('says a used or expired link was used, with no form, offering a new link for the same address', async () => {
    renderReset('/reset?token=old&email=alice%40example.com');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link was already used or has expired.');
    expect(screen.queryByLabelText('New password')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/login?forgot=alice%40example.com');
  });

  it('offers a new link when the link stops working between opening and sending', async () => {
    renderReset('/reset?token=old&email=alice%40example.com', true);
    fireEvent.change(await screen.findByLabelText('New password'), { target: { value: 'secret12' } });
    fireEvent.change(screen.getByLabelText('New password again'), { target: { value: 'secret12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is invalid or has expired.');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/login?forgot=alice%40example.com');
  });

  it('offers a new link when the address has no token at all', () => {
    renderReset('/reset');
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/login?forgot=');
  });
});
