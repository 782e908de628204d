import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react';
import { placeMenu } from './menu-placement';
import './menu.css';

interface MenuParts {
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The menu's box with its button: a press outside it closes the menu. */
  wrapper: RefObject<HTMLElement | null>;
  /** The button that opens the menu, given the focus back when Escape closes it. */
  button: RefObject<HTMLElement | null>;
}

const itemsOf = (list: HTMLElement): HTMLElement[] =>
  [...list.querySelectorAll<HTMLElement>('[role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"]')].filter(
    (item) => !item.matches(':disabled'),
  );

/** Which entry a key moves to from entry `at` of `count` (round at both ends), or null for another key. */
function movedTo(key: string, at: number, count: number): number | null {
  switch (key) {
    case 'ArrowDown':
      return (at + 1) % count;
    case 'ArrowUp':
      return (at - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}

/**
 * Wraps a menu entry's action: the menu closes and its button has the focus again before the
 * action runs, so a dialog the entry opens gives the focus back to the button when it closes (the
 * entry itself is gone by then).
 */
export function useMenuEntry(setOpen: (open: boolean) => void, button: RefObject<HTMLElement | null>) {
  return (action: () => void) => () => {
    setOpen(false);
    button.current?.focus({ preventScroll: true });
    action();
  };
}

/**
 * What every drop-down menu of the app does once open: it fits in what the bars leave of the screen
 * (opening upward, or scrolling, when its button is near an edge), it takes the focus on its first
 * entry, the arrows, Home and End move between entries, and Escape or a press outside closes it
 * (Escape giving the focus back to its button). Returns the ref for the menu's list.
 */
export function useMenu<T extends HTMLElement = HTMLUListElement>({ open, setOpen, wrapper, button }: MenuParts): RefObject<T | null> {
  const list = useRef<T>(null);

  // Before the first paint, so the menu never shows where it does not fit.
  useLayoutEffect(() => {
    const menu = list.current;
    const anchor = button.current;
    if (!open || !menu || !anchor) return;
    menu.style.maxHeight = '';
    const { up, maxHeight } = placeMenu(anchor.getBoundingClientRect(), menu.offsetHeight);
    menu.dataset.placement = up ? 'up' : 'down';
    if (maxHeight !== undefined) menu.style.maxHeight = `${maxHeight}px`;
    itemsOf(menu)[0]?.focus({ preventScroll: true });
  }, [open, button]);

  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        setOpen(false);
        button.current?.focus();
        return;
      }
      const menu = list.current;
      if (!menu || !menu.contains(document.activeElement)) return;
      // Tab leaves a menu as it leaves any control, and the menu closes behind it.
      if (event.key === 'Tab') {
        setOpen(false);
        return;
      }
      const items = itemsOf(menu);
      const next = movedTo(event.key, items.indexOf(document.activeElement as HTMLElement), items.length);
      if (next === null || items.length === 0) return;
      event.preventDefault();
      items[next]?.focus();
    };
    const onPointer = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointer);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointer);
    };
  }, [open, setOpen, wrapper, button]);

  return list;
}
