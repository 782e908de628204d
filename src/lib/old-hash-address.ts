import { pathOfHash } from '#core/app-paths';

type Win = Pick<Window, 'location' | 'history'>;

/**
 * The real path an old hash address stands for, or null when the location holds none. A query
 * before the hash (`/?lng=cs#/signup`) is kept, after the hash's own.
 */
export function pathOfOldAddress(loc: Pick<Location, 'hash' | 'search' | 'origin'>): string | null {
  const path = pathOfHash(loc.hash);
  if (path === null) return null;
  const url = new URL(path, loc.origin);
  for (const [key, value] of new URLSearchParams(loc.search)) if (!url.searchParams.has(key)) url.searchParams.append(key, value);
  return `${url.pathname}${url.search}`;
}

/**
 * Addresses were once hashes (`/#/p/<id>`), and mails already sent and bookmarks still carry them:
 * such an address is replaced by the real path it stands for before the app reads the location, so
 * it opens the same screen (and the history keeps one entry, not a bounce).
 */
export function replaceOldHashAddress(win: Win = window): void {
  const path = pathOfOldAddress(win.location);
  if (path !== null) win.history.replaceState(win.history.state, '', path);
}

/**
 * An old hash address reached without loading the page (pasted over the open app's address, so
 * only the hash changed) is followed too, by the router, in place of the entry it came in.
 */
export function followOldHashAddresses(navigate: (path: string) => unknown, win: Win & Pick<Window, 'addEventListener'> = window): void {
  win.addEventListener('hashchange', () => {
    const path = pathOfOldAddress(win.location);
    if (path !== null) navigate(path);
  });
}

/** The app's address in the location: its path and query (`/feed?sort=popular`). */
export const currentAddress = (loc: Pick<Location, 'pathname' | 'search'> = window.location) => `${loc.pathname}${loc.search}`;
