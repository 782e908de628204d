/**
 * Screenshots of every screen, on a phone and a desktop, light and dark, in English and Czech.
 *
 *   npm run screenshots [-- --out screenshots] [-- --only feed,post]
 *
 * Needs the built app (`npm run screenshots` builds first). Starts the real server on a fresh data
 * folder, fills it with a small lived-in world (the one the accessibility test walks), and writes
 * `<out>/<language>-<theme>-<viewport>/<screen>.png`. Pages that only a member may open are taken
 * logged in as the world's owner.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { launchBrowser } from '../tests/e2e/support/browser';
import { sessionStorageState, startServer } from '../tests/e2e/support/server';
import { VIEWPORTS, screensOf, seedWorld } from '../tests/e2e/support/world';

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: 'screenshots' },
    only: { type: 'string' },
  },
});
const out = resolve(args.out);
const only = args.only ? new Set(args.only.split(',')) : null;

const LANGUAGES = ['en', 'cs'] as const;
const THEMES = ['light', 'dark'] as const;

const server = await startServer();
const browser = await launchBrowser();
let taken = 0;
try {
  const world = await seedWorld(server);
  const screens = screensOf(world).filter((screen) => !only || only.has(screen.name));
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
        const session = sessionStorageState(server, world.owner);
        const origin = session.origins[0];
        const context = await browser.newContext({
          viewport,
          locale: language,
          colorScheme: theme,
          reducedMotion: 'reduce',
          storageState: { cookies: [], origins: [{ origin: server.baseUrl, localStorage: [...(origin?.localStorage ?? []), { name: 'lng', value: language }] }] },
        });
        const page = await context.newPage();
        const dir = join(out, `${language}-${theme}-${viewportName}`);
        mkdirSync(dir, { recursive: true });
        for (const screen of screens) {
          await page.goto(`${server.baseUrl}${screen.path}`);
          await page.locator('main').first().waitFor({ timeout: 10_000 });
          // Lists and images arrive after the first paint: let them settle before the picture.
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await page.waitForTimeout(400);
          await page.screenshot({ path: join(dir, `${screen.name}.png`), fullPage: true });
          taken += 1;
        }
        await context.close();
        console.log(`${dir}: ${screens.length} screens`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${taken} screenshots in ${out}`);
