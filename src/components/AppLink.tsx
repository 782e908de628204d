import type { MouseEvent } from 'react';
import { Link, NavLink, type NavLinkProps, useLocation, useResolvedPath } from 'react-router-dom';

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
 * The app's one link: a link to the page already showing does nothing, and a middle or
 * ctrl/meta click is left to the browser, which opens the hash address in a new tab.
 */
export function AppLink({ to, onClick, current, ...props }: AppLinkProps) {
  const location = useLocation();
  const target = useResolvedPath(to);
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || opensElsewhere(event)) return;
    const samePage = target.pathname === location.pathname && (target.search || '') === (location.search || '');
    if (samePage) event.preventDefault();
  };
  if (current === undefined) return <NavLink to={to} onClick={handleClick} {...props} />;
  const { className, style, children, end: _end, caseSensitive: _caseSensitive, ...rest } = props;
  return (
    <Link
      {...rest}
      to={to}
      onClick={handleClick}
      aria-current={current ? 'page' : undefined}
      className={typeof className === 'function' ? undefined : className}
      style={typeof style === 'function' ? undefined : style}
    >
      {typeof children === 'function' ? null : children}
    </Link>
  );
}
