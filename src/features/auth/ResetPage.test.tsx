import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithApp, stubFetch } from '../../test/render';
import ResetPage from './ResetPage';

function renderReset(route: string) {
  vi.stubGlobal('fetch', stubFetch(() => ({ status: 400, body: { message: 'error/invalid_link' } })).fetchMock);
  return renderWithApp(<ResetPage />, { route, path: '/reset' });
}

describe('ResetPage', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('offers a new link, for the same address, when the link was used or expired', async () => {
    renderReset('/reset?token=old&email=alice%40example.com');
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'secret12' } });
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
