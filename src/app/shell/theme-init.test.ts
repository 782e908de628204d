import { afterEach, describe, expect, it, vi } from 'vitest';
import { THEME_KEY, chooseTheme, storedTheme } from '../../components/theme';

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
