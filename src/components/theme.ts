/**
 * The colour theme: the device's preference ("system"), or light or dark chosen on the account
 * page. The choice belongs to the device, not the account, so it is kept in localStorage and shown
 * as `data-theme` on <html>, which the stylesheet's tokens follow.
 */
export const THEMES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEMES)[number];

export const THEME_KEY = 'theme';

/** The colour of the browser's bar around the app in each scheme (the page's own header colours). */
export const THEME_COLORS = { light: '#4f46e5', dark: '#0b1020' } as const;

const isTheme = (value: unknown): value is ThemeChoice => THEMES.includes(value as ThemeChoice);

export function storedTheme(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return isTheme(value) ? value : 'system';
  } catch {
    return 'system';
  }
}

/**
 * Shows the choice: no attribute follows the device, `light` or `dark` overrides it. The browser's
 * bar keeps one colour tag per device scheme; a chosen theme gives both its own colour, so the bar
 * does not stay light around a dark app.
 */
export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === 'system') root.removeAttribute('data-theme');
  else root.setAttribute('data-theme', choice);
  for (const meta of root.ownerDocument.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    const scheme = meta.media.includes('dark') ? 'dark' : 'light';
    meta.content = THEME_COLORS[choice === 'system' ? scheme : choice];
  }
}

/**
 * The same as theme-init, as a classic script for the page's <head>: the static shell then paints in
 * the chosen theme before any module loads, instead of flashing the device's scheme first. Plain
 * ES5 and self-contained, since it runs before the app; the server allows it by its hash.
 */
export function themeBootScript(): string {
  const colors = JSON.stringify(THEME_COLORS);
  return (
    `(function(){try{var t=localStorage.getItem(${JSON.stringify(THEME_KEY)}),c=${colors};` +
    `if(t!=="light"&&t!=="dark")return;document.documentElement.setAttribute("data-theme",t);` +
    `var m=document.querySelectorAll('meta[name="theme-color"]');for(var i=0;i<m.length;i++)m[i].setAttribute("content",c[t]);` +
    `}catch(e){}})();`
  );
}

/** Remembers the choice on this device and shows it at once. */
export function chooseTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') localStorage.removeItem(THEME_KEY);
    else localStorage.setItem(THEME_KEY, choice);
  } catch {
    // Storage refused (private mode, full): the choice still holds until the page closes.
  }
  applyTheme(choice);
}
