import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { type MouseEvent, useEffect, useRef } from 'react';
import { Link, NavLink, type NavLinkProps, useLocation, useResolvedPath } from 'react-router-dom';
import { LIMITS } from '#core/limits';

// Links are on every screen, the first one included: the data layer comes with the first hover.
function prefetchLater(queryClient: QueryClient, pathname: string): void {
  // Only a head start: offline before the service worker holds the code, the import fails and the
  // page loads its data when it opens, as without the hover.
  import('../lib/query/prefetch').then(({ prefetchForAccount }) => prefetchForAccount(queryClient, pathname)).catch(() => undefined);
}

/** True when the click asks the browser for a new tab or window (middle, ctrl, meta, shift). */
export function opensElsewhere(event: MouseEvent): boolean {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

type AppLinkProps = NavLinkProps & {
  /** Overrides the route match when the caller knows better (the feed item is current on / too). */
  current?: boolean;
  className?: string;
};

/**
 * Hovering a link for a moment fetches the page's data into the local database (prefetch on
 * intent): a pointer only passing over the link asks for nothing.
 */
function usePrefetchOnHover(pathname: string, onEnter?: (event: MouseEvent<HTMLAnchorElement>) => void, onLeave?: (event: MouseEvent<HTMLAnchorElement>) => void) {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return {
    onMouseEnter: (event: MouseEvent<HTMLAnchorElement>) => {
      onEnter?.(event);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => prefetchLater(queryClient, pathname), LIMITS.prefetchDelayMs);
    },
    onMouseLeave: (event: MouseEvent<HTMLAnchorElement>) => {
      onLeave?.(event);
      clearTimeout(timer.current);
    },
  };
}

/**
 * The app's one link: a link to the page already showing does nothing, and a middle or
 * ctrl/meta click is left to the browser, which opens the hash address in a new tab. Hovered, it
 * prefetches a post's, profile's or group's data.
 */
export function AppLink({ to, onClick, onMouseEnter, onMouseLeave, current, ...props }: AppLinkProps) {
  const location = useLocation();
  const target = useResolvedPath(to);
  const hover = usePrefetchOnHover(target.pathname, onMouseEnter, onMouseLeave);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || opensElsewhere(event)) return;
    const samePage = target.pathname === location.pathname && (target.search || '') === (location.search || '');
    if (samePage) event.preventDefault();
  };
  if (current === undefined) return <NavLink to={to} onClick={handleClick} {...hover} {...props} />;
  const { className, style, children, end: _end, caseSensitive: _caseSensitive, ...rest } = props;
  return (
    <Link
      {...rest}
      to={to}
      onClick={handleClick}
      {...hover}
      aria-current={current ? 'page' : undefined}
      className={typeof className === 'function' ? undefined : className}
      style={typeof style === 'function' ? undefined : style}
    >
      {typeof children === 'function' ? null : children}
    </Link>
  );
}
