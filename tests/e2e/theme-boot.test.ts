import { describe, expect, it } from 'vitest';
import { THEME_COLORS, THEME_KEY } from '../../src/components/theme';
import { JOURNEY_VIEWPORT } from './support/journeys';
import { useE2eSuite } from './support/suite';

/**
 * A dark theme chosen on a light device: the static shell must paint dark from the HTML alone,
 * before any of the app's modules has loaded, with the page's CSP allowing the script that does it.
 */
describe('the chosen theme on a cold start', () => {
  const e2e = useE2eSuite();

  it('paints the shell in the chosen theme before the app loads, and the CSP lets it', async () => {
    const { context } = await e2e.open({ viewport: JOURNEY_VIEWPORT, colorScheme: 'light' });
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.goto(`${e2e.server.baseUrl}/index.html`);
    await page.evaluate((key) => localStorage.setItem(key, 'dark'), THEME_KEY);

    // No module of the app may load: what shows is the HTML, its inline style and its inline script.
    await context.route(/\/assets\/.*\.js$/, (route) => route.abort());
    await page.goto(`${e2e.server.baseUrl}/`);
    const painted = await page.evaluate(() => ({
      theme: document.documentElement.dataset.theme ?? null,
      background: getComputedStyle(document.documentElement).backgroundColor,
      bar: [...document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')].map((meta) => meta.content),
    }));
    expect(painted.theme).toBe('dark');
    expect(painted.background).toBe('rgb(11, 16, 32)');
    expect(painted.bar).toEqual([THEME_COLORS.dark, THEME_COLORS.dark]);
    expect(violations).toEqual([]);
  });
});
