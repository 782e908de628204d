import '../../test/setup';
import { fireEvent, screen, waitFor } from '@testing-library/react';
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

describe('the post menu from the keyboard', () => {
  it('takes the focus on its first entry, moves with the arrows (round), Home and End, and gives it back on Escape', async () => {
    renderWithApp(<PostCard post={bobsPost} />);
    const button = screen.getByRole('button', { name: 'More actions' });
    button.focus();
    fireEvent.click(button);
    await screen.findByRole('menu');
    const items = screen.getAllByRole('menuitem');
    expect(items.length).toBeGreaterThan(2);
    const first = items[0]!;
    const last = items[items.length - 1]!;
    await waitFor(() => expect(first).toHaveFocus());
    const press = (key: string) => fireEvent.keyDown(document.activeElement ?? document.body, { key });
    press('ArrowDown');
    expect(items[1]).toHaveFocus();
    press('ArrowUp');
    expect(first).toHaveFocus();
    press('ArrowUp');
    expect(last).toHaveFocus();
    press('ArrowDown');
    expect(first).toHaveFocus();
    press('End');
    expect(last).toHaveFocus();
    press('Home');
    expect(first).toHaveFocus();
    press('Escape');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(button).toHaveFocus();
  });
});
