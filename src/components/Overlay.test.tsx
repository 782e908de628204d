import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { Opener } from '../test/opener';
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

describe('Overlay focus', () => {
  it('keeps Tab inside the dialog and gives the focus back to the opener on close', () => {
    render(
      <>
        <Opener label="open">
          {(close) => (
            <Overlay label="Dialog" onClose={close}>
              <button type="button">first</button>
              <button type="button">last</button>
            </Overlay>
          )}
        </Opener>
        <button type="button">behind</button>
      </>,
    );
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    fireEvent.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Dialog' });
    expect(document.activeElement).toBe(dialog);

    const first = screen.getByRole('button', { name: 'first' });
    const last = screen.getByRole('button', { name: 'last' });
    // From the panel itself, Tab goes to the first control, and from the last back to the first.
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(document.activeElement).toBe(first);
    fireEvent.keyDown(first, { key: 'Tab', shiftKey: true });
    expect(document.activeElement).toBe(last);
    // A Tab in the middle is left to the browser.
    first.focus();
    expect(fireEvent.keyDown(first, { key: 'Tab' })).toBe(true);

    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
