import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { THEME_COLORS, THEME_KEY, chooseTheme, storedTheme, themeBootScript } from '../../components/theme';

describe('theme on start', () => {
  afterEach(() => {
    localStorage.removeItem(THEME_KEY);
    document.documentElement.removeAttribute('data-theme');
    vi.resetModules();
  });

  it('shows the theme chosen on this device as soon as the entry imports it', async () => {
    localStorage.setItem(THEME_KEY, 'dark');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    await import('./theme-init');
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('follows the device when nothing or something unknown is stored', async () => {
    localStorage.setItem(THEME_KEY, 'purple');
    expect(storedTheme()).toBe('system');
    await import('./theme-init');
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
  });

  it('keeps a choice that storage refuses until the page closes', () => {
    const setItem = vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('full', 'QuotaExceededError');
    });
    try {
      chooseTheme('light');
      expect(document.documentElement.dataset.theme).toBe('light');
    } finally {
      setItem.mockRestore();
    }
  });
});

describe("the browser's bar colour", () => {
  const schemes = ['light', 'dark'] as const;
  const metas = () => [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content);

  beforeEach(() => {
    for (const scheme of schemes) {
      const meta = document.createElement('meta');
      meta.name = 'theme-color';
      meta.media = `(prefers-color-scheme: ${scheme})`;
      meta.content = 'unset';
      document.head.append(meta);
    }
  });
  afterEach(() => {
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.remove();
    localStorage.removeItem(THEME_KEY);
    document.documentElement.removeAttribute('data-theme');
  });

  it("gives both schemes' tags the chosen theme's colour, and each its own again for the device's", () => {
    chooseTheme('dark');
    expect(metas()).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    chooseTheme('light');
    expect(metas()).toEqual([THEME_COLORS.light, THEME_COLORS.light]);
    chooseTheme('system');
    expect(metas()).toEqual([THEME_COLORS.light, THEME_COLORS.dark]);
  });
});

describe('the theme script in the page head', () => {
  const run = () => new Function(themeBootScript())() as void;

  afterEach(() => {
    for (const meta of document.querySelectorAll('meta[name="theme-color"]')) meta.remove();
    localStorage.removeItem(THEME_KEY);
    document.documentElement.removeAttribute('data-theme');
  });

  it('shows the stored choice and colours the bar before the app runs, as theme-init would', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    meta.content = THEME_COLORS.light;
    document.head.append(meta);
    localStorage.setItem(THEME_KEY, 'dark');
    run();
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(meta.content).toBe(THEME_COLORS.dark);
  });

  it('leaves the page to the device for nothing or something unknown stored, and when storage throws', () => {
    localStorage.setItem(THEME_KEY, 'purple');
    run();
    expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    const getItem = vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('denied', 'SecurityError');
    });
    try {
      expect(run).not.toThrow();
      expect(document.documentElement.hasAttribute('data-theme')).toBe(false);
    } finally {
      getItem.mockRestore();
    }
  });
});
