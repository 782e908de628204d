import '../../test/setup';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithApp } from '../../test/render';
import { bobsPost, setUpMenuCard } from './menu-test-kit';
import { PostCard } from './PostCard';

// Each test file has its own modules: here the menu's chunk starts unloaded, as on a page's first visit.
setUpMenuCard();

describe('the post menu', () => {
  it('opens on a press that comes before its entries have loaded, once they have', async () => {
    renderWithApp(<PostCard post={bobsPost} />);
    fireEvent.click(screen.getByRole('button', { name: 'More actions' }));
    expect(await screen.findByRole('menuitem', { name: 'Report post' })).toBeInTheDocument();
  });
});
