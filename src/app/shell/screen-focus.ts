import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import { screenHeading } from './screen-title';

/** Whether the focus is somewhere a new screen should take it from: nowhere, or outside the screen. */
function focusLeftBehind(main: HTMLElement): boolean {
  const active = document.activeElement;
  return !active || active === document.body || !main.contains(active);
}

/** Puts the focus on the screen's heading, as a screen reader announces a new page by it. */
function focusHeading(heading: HTMLElement): void {
  if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
  // The screen keeps its scroll (Back returns to the place it left).
  heading.focus({ preventScroll: true });
}

/**
 * Moves the focus to the new screen's heading after a navigation (a link in the navigation keeps
 * it otherwise, and a form that sent leaves it on the page's body), and after a screen swaps the
 * part that held the focus for another (sign-up's form for its "check your mail"). A screen that
 * put the focus in itself (the composer's text, a search box) keeps it.
 */
export function useScreenFocus(): void {
  const { pathname } = useLocation();
  const opened = useRef(pathname);
  // After a navigation to another screen (not the first one, nor a change of a list's order):
  // once the new screen has drawn its heading.
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main || opened.current === pathname) return undefined;
    opened.current = pathname;
    const moved = () => {
      const heading = screenHeading();
      if (!heading) return false;
      if (focusLeftBehind(main)) focusHeading(heading);
      return true;
    };
    if (moved()) return undefined;
    const observer = new MutationObserver(() => {
      if (moved()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname]);

  // Within a screen: the focused element taken away with the part that held it.
  useEffect(() => {
    const main = document.getElementById('main');
    if (!main) return undefined;
    let held: Element | null = null;
    const onFocus = (event: FocusEvent) => {
      held = main.contains(event.target as Node) ? (event.target as Element) : null;
    };
    const observer = new MutationObserver(() => {
      if (!held || held.isConnected || document.activeElement !== document.body) return;
      held = null;
      const heading = screenHeading();
      if (heading) focusHeading(heading);
    });
    document.addEventListener('focusin', onFocus);
    observer.observe(main, { childList: true, subtree: true });
    return () => {
      document.removeEventListener('focusin', onFocus);
      observer.disconnect();
    };
  }, []);
}
