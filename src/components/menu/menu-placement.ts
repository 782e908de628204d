/** Space kept between a menu and the edge of what is visible. */
const MARGIN = 8;

/**
 * The band of the screen a menu may use: the window less the bars fixed over it (the bottom bar
 * on a phone, the sticky top bar). On larger screens the navigation is a side column, not a bar.
 */
export function visibleBand(): { top: number; bottom: number } {
  const height = window.innerHeight;
  let top = 0;
  let bottom = height;
  const bar = document.querySelector('.navbar')?.getBoundingClientRect();
  if (bar && bar.height > 0 && bar.top > height / 2) bottom = Math.min(bottom, bar.top);
  const header = document.querySelector('.topbar')?.getBoundingClientRect();
  if (header && header.height > 0 && header.top <= 0 && header.bottom < height / 2) top = Math.max(top, header.bottom);
  return { top, bottom };
}

export interface Placement {
  /** Whether the menu opens above its button: there is not room enough under it, and more over it. */
  up: boolean;
  /** A height to scroll within, when neither side has room for the whole menu. */
  maxHeight?: number;
}

/** Where a menu of `height` fits best beside its button's box. */
export function placeMenu(anchor: DOMRect, height: number, band = visibleBand()): Placement {
  const below = band.bottom - anchor.bottom - MARGIN;
  const above = anchor.top - band.top - MARGIN;
  const up = height > below && above > below;
  const room = Math.max(0, up ? above : below);
  return height > room ? { up, maxHeight: room } : { up };
}
