import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Overlay } from './Overlay';

describe('Overlay', () => {
  it('renders into body, locks scroll with scrollbar padding, and restores on close', () => {
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 1015 });
    Object.defineProperty(document.documentElement, 'clientWidth', { configurable: true, value: 1000 });
    const onClose = vi.fn();
    const { unmount } = render(
      <div id="host">
        <Overlay label="Search" onClose={onClose}>
          <p>inside</p>
        </Overlay>
      </div>,
    );
    const dialog = screen.getByRole('dialog', { name: 'Search' });
    expect(dialog.closest('#host')).toBeNull();
    expect(document.body.style.overflow).toBe('hidden');
    expect(document.body.style.paddingRight).toBe('15px');

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(dialog.parentElement!);
    expect(onClose).toHaveBeenCalledTimes(2);
    fireEvent.mouseDown(screen.getByText('inside'));
    expect(onClose).toHaveBeenCalledTimes(2);

    unmount();
    expect(document.body.style.overflow).toBe('');
    expect(document.body.style.paddingRight).toBe('');
  });
});
