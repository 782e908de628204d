import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { bobsPost, setUpMenuCard } from './menu-test-kit';
import { PostCard } from './PostCard';
import { postMenuPanelLoaded } from './PostMenu';

// Each test file has its own modules: here the menu's chunk starts unloaded, as on a page's first visit,
// and nothing but the page being idle loads it.
setUpMenuCard();

describe('the post menu', () => {
  it('has its entries loaded once the page is idle after the first cards, so a press opens it at once, offline too', async () => {
    expect(postMenuPanelLoaded()).toBe(false);
    renderWithApp(<PostCard post={bobsPost} />);
    await waitFor(() => expect(postMenuPanelLoaded()).toBe(true), { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    // Read at once, not awaited (unlike the other menu tests): drawing without waiting is what this checks.
    expect(screen.getByRole('menuitem', { name: 'Mute @bob' })).toBeInTheDocument();
  });
});
