import { type To, useLocation } from 'react-router-dom';

/** Pages a login never returns to: they would only send the user on again. */
const NOT_RETURNED_TO = /^\/(login|signup|verify|reset)(\/|$|\?)/;

/**
 * The page a login should return to, from the login page's `next` parameter: an address of this
 * app only (a path starting with one slash), never another site, else the feed.
 */
export function returnPathOf(search: string): string {
  const next = new URLSearchParams(search).get('next');
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.includes('\\') || NOT_RETURNED_TO.test(next)) return '/feed';
  return next;
}

/** The login page, told to come back here afterwards ("Log in to follow", "Log in to join"...). */
export function loginReturningTo(location: { pathname: string; search: string }): To {
  const here = `${location.pathname}${location.search}`;
  if (NOT_RETURNED_TO.test(here)) return '/login';
  return { pathname: '/login', search: `?${new URLSearchParams({ next: here }).toString()}` };
}

/** The login link of the current page. */
export function useLoginLink(): To {
  return loginReturningTo(useLocation());
}
