import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getToasts } from '../../lib/toast';
import { renderWithApp } from '../../test/render';
import { bobsPost, setUpMenuCard } from './menu-test-kit';
import { PostCard } from './PostCard';

// The menu's chunk cannot be fetched: offline, before the service worker stored the app.
vi.mock('./PostMenuPanel', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

setUpMenuCard();

describe('the post menu, its entries out of reach', () => {
  it('says the menu is not on this device instead of doing nothing, and closes', async () => {
    renderWithApp(<PostCard post={bobsPost} />);
    const button = screen.getByRole('button', { name: 'More actions' });
    fireEvent.click(button);
    await waitFor(() => expect(getToasts().map((t) => t.message)).toContain('common:not_offline'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
