import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type RequestsSettling, followRequests } from './requests-settling';
import { sessionStorageState } from './server';
import { useE2eSuite } from './suite';
import { type Screen, VIEWPORTS, type World, screensOf, seedWorld } from './world';

/** What a person relying on a screen reader or a keyboard cannot get past. */
const BLOCKING = new Set(['serious', 'critical']);

/** The page background (`--color-bg`) of each scheme. */
const LIGHT_BACKGROUND = 'rgb(255, 255, 255)';
const DARK_BACKGROUND = 'rgb(11, 16, 32)';

export interface AxePass {
  name: string;
  viewport: keyof typeof VIEWPORTS;
  language: 'en' | 'cs';
  loggedIn: boolean;
  /** The device asks for the dark theme. */
  dark?: boolean;
}

/** The app's loading states: the shell's spinner while a screen's code comes, a list's skeleton. */
const LOADING = '.page-loading, [aria-busy="true"]';

/**
 * Waits until the screen has drawn its content: the app's main landmark there (the static shell's
 * has no id), every request it made answered and drawn, nothing loading, and its fonts in (contrast
 * is measured on them).
 */
export async function settled(page: Page, requests: RequestsSettling, screen: Pick<Screen, 'name'>): Promise<void> {
  const drawn = (what: string) => (err: unknown) => {
    throw new Error(`${screen.name}: ${what} (${String(err)})`);
  };
  const loaded = () => page.waitForFunction((loading) => !document.querySelector(loading), LOADING, { timeout: 10_000 }).catch(drawn('still loading'));
  await page.locator('main#main').waitFor({ timeout: 10_000 }).catch(drawn('no main landmark'));
  // The screen's code in and drawn, so the requests it makes have begun; then what they brought.
  await loaded();
  await requests.settled();
  await loaded();
  await page.evaluate(() => document.fonts.ready);
}

export interface Violation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: Array<{ target: unknown; failureSummary?: string }>;
}

export function describeViolations(screen: Screen, violations: Violation[]) {
  return violations.map(
    (v) => `${screen.name}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => `${JSON.stringify(n.target)}: ${n.failureSummary ?? ''}`).join('; ')}`,
  );
}

/** The rules every check runs: WCAG 2.1 A and AA, and axe's best practices. */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];

/** The violations that block someone (serious and critical). */
export const blocking = (violations: Violation[]): Violation[] => violations.filter((v) => BLOCKING.has(v.impact ?? ''));

/**
 * The serious and critical axe findings on the page as it is now (a dialog open, a message
 * shown), described one a line: a journey expects none.
 */
export async function blockingViolations(page: Page, name: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return describeViolations({ name, path: page.url() }, blocking(violations));
}

/**
 * Every screen, checked by axe in a real browser, once for each pass. The passes are split between
 * two files so that the longest of the browser checks run side by side.
 */
export function describeAccessibility(title: string, passes: AxePass[]): void {
  describe(title, () => {
    const e2e = useE2eSuite();
    let world: World;

    beforeAll(async () => {
      world = await seedWorld(e2e.server);
    });

    for (const pass of passes) {
      it(`has no serious or critical axe violation (${pass.name})`, { timeout: 240_000 }, async () => {
        const session = pass.loggedIn ? sessionStorageState(e2e.server, world.owner) : { cookies: [], origins: [] };
        const storageState = {
          ...session,
          origins: [
            {
              origin: e2e.server.baseUrl,
              localStorage: [...(session.origins[0]?.localStorage ?? []), { name: 'lng', value: pass.language }],
            },
          ],
        };
        const { context } = await e2e.open({ viewport: VIEWPORTS[pass.viewport], storageState,
          bypassCSP: true,
          locale: pass.language,
          colorScheme: pass.dark ? 'dark' : 'light',
          // Toasts appear and leave without fading, so contrast is measured on their final colours.
          reducedMotion: 'reduce',
        });
        const page = await context.newPage();
        const requests = followRequests(page);
        const found: string[] = [];
        const screens = screensOf(world).filter((screen) => pass.loggedIn || !screen.guarded);
        for (const screen of screens) {
          await page.goto(`${e2e.server.baseUrl}${screen.path}`);
          await settled(page, requests, screen);
          expect(await page.evaluate(() => document.documentElement.lang), screen.name).toBe(pass.language);
          // The theme really follows the device: the page paints the background of the scheme asked for.
          expect(await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor), screen.name).toBe(
            pass.dark ? DARK_BACKGROUND : LIGHT_BACKGROUND,
          );
          // axe.run in the page itself: the default runs each frame apart and joins the results in a
          // new blank page, which doubled each screen's time, and this app has no frame of another origin.
          // Only the violations are wanted; the passing nodes need not be described.
          const result = await new AxeBuilder({ page }).setLegacyMode(true).withTags(AXE_TAGS).options({ resultTypes: ['violations'] }).analyze();
          found.push(...describeViolations(screen, blocking(result.violations)));
        }
        expect(found).toEqual([]);
        expect(e2e.journey.log.pageErrors).toEqual([]);
      });
    }
  });
}
