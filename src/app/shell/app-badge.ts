import { useEffect } from 'react';

type BadgeNavigator = Navigator & { setAppBadge?: (count?: number) => Promise<void>; clearAppBadge?: () => Promise<void> };

/**
 * Shows the unread count on the installed app's icon (Badging API), and clears it at 0. Where the
 * browser has no badge (Firefox, a tab that is not an installed app) nothing happens; it is a hint,
 * so a refusal is ignored.
 */
export function showAppBadge(count: number): void {
  const nav = navigator as BadgeNavigator;
  if (typeof nav.setAppBadge !== 'function') return;
  const done = count > 0 ? nav.setAppBadge(count) : nav.clearAppBadge?.();
  void done?.catch(() => undefined);
}

/** Keeps the app icon's badge at `count`. */
export function useAppBadge(count: number): void {
  useEffect(() => showAppBadge(count), [count]);
}
