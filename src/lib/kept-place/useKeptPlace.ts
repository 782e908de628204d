import { useLayoutEffect, useMemo } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';
import { type Places, places as appPlaces } from './places';

/** What the user does to scroll on their own: once they have, a pending restore must not move the page. */
const TAKEN_OVER = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

/**
 * Keeps the scroll of the history entry `entry` in `places` and, when the entry is come back to
 * (`restore`), scrolls to where it was left as soon as the page is tall enough again: a screen's
 * lists paint from the local database after the router has already tried, on a page still short.
 */
export function keepScroll(entry: string, restore: boolean, places: Places = appPlaces): () => void {
  const target = restore ? places.scrollOf(entry) : undefined;
  let pending = target !== undefined && target > 0;
  const root = document.documentElement;
  const resized = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => tryRestore());

  function stop() {
    pending = false;
    resized?.disconnect();
    for (const type of TAKEN_OVER) window.removeEventListener(type, stop, true);
  }
  function tryRestore() {
    if (!pending || target === undefined || root.scrollHeight - window.innerHeight < target) return;
    window.scrollTo(0, target);
    stop();
  }
  // While the restore waits, the page's own scrolls (to the top of a short page) are not the user's place.
  const onScroll = () => {
    if (!pending) places.keepScroll(entry, window.scrollY);
  };

  window.addEventListener('scroll', onScroll, { passive: true });
  if (pending) {
    for (const type of TAKEN_OVER) window.addEventListener(type, stop, { capture: true, passive: true });
    resized?.observe(document.body);
    tryRestore();
  }
  const save = () => places.save();
  window.addEventListener('pagehide', save);
  return () => {
    stop();
    window.removeEventListener('scroll', onScroll);
    window.removeEventListener('pagehide', save);
    save();
  };
}

const OWN_KEY = 'kruhPlace';

/**
 * The key an entry's place is kept under. The router keys the entries it makes; one it did not
 * (the tab's first, an address changed from outside such as a notification's link) it calls
 * "default", so such an entry gets a key of its own in its history state, which a reload keeps.
 */
export function entryKey(routerKey: string): string {
  if (routerKey !== 'default') return routerKey;
  const state: unknown = window.history.state;
  const record = state !== null && typeof state === 'object' ? (state as Record<string, unknown>) : {};
  const own = record[OWN_KEY];
  if (typeof own === 'string') return own;
  // Unique within the tab, as the router's own keys are.
  const key = `own-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
  window.history.replaceState({ ...record, [OWN_KEY]: key }, '');
  return key;
}

/**
 * Where the screen of each history entry was left: the shown entry, under which the screen's lists
 * keep their loaded pages (usePaged, given it through HistoryEntry), and its scroll; back shows
 * them again. A new entry starts at the top.
 */
export function useKeptPlace(): string {
  const location = useLocation();
  // Read anew for each location: back on an entry of its own key, its history state is the one shown.
  const key = useMemo(() => entryKey(location.key), [location]);
  const restore = useNavigationType() === 'POP';
  // Before the browser paints the new screen, and before it reports any scroll of it.
  useLayoutEffect(() => keepScroll(key, restore), [key, restore]);
  return key;
}
