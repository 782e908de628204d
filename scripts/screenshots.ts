/**
 * Screenshots of every screen, on a phone and a desktop, light and dark, in English and Czech.
 *
 *   npm run screenshots [-- --out screenshots] [-- --only feed,post,composer]
 *
 * Needs the built app (`npm run screenshots` builds first). Starts the real server on a fresh data
 * folder, fills it with a small lived-in world (the one the accessibility test walks), and writes
 * `<out>/<language>-<theme>-<viewport>/<screen>.png`. Pages that only a member may open are taken
 * logged in as the world's owner. After the screens come the scenes (screenshot-scenes.ts): a
 * post being written, a post's menu open, and a newcomer's empty tabs with their suggestions.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../tests/e2e/support/browser';
import { type TestServer, type TestUser, createVerifiedUser, sessionStorageState, startServer, uniqueName } from '../tests/e2e/support/server';
import { VIEWPORTS, screensOf, seedWorld } from '../tests/e2e/support/world';
import { type Scene, scenesOf } from './screenshot-scenes';

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

interface Look {
  language: (typeof LANGUAGES)[number];
  theme: (typeof THEMES)[number];
  viewport: { width: number; height: number };
}

/** A browser tab logged in as `user`, in the language, theme and size of one look. */
async function openAs(browser: Browser, server: TestServer, user: TestUser, look: Look): Promise<Page> {
  const origin = sessionStorageState(server, user).origins[0];
  const context = await browser.newContext({
    viewport: look.viewport,
    locale: look.language,
    colorScheme: look.theme,
    reducedMotion: 'reduce',
    storageState: { cookies: [], origins: [{ origin: server.baseUrl, localStorage: [...(origin?.localStorage ?? []), { name: 'lng', value: look.language }] }] },
  });
  return context.newPage();
}

async function take(page: Page, server: TestServer, scene: Pick<Scene, 'path' | 'act'>, file: string): Promise<void> {
  await page.goto(`${server.baseUrl}${scene.path}`);
  await page.locator('main').first().waitFor({ timeout: 10_000 });
  // Lists and images arrive after the first paint: let them settle before the picture.
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await page.waitForTimeout(400);
  if (scene.act) {
    await scene.act(page);
    // Let an opened menu or list finish its layout.
    await page.waitForTimeout(200);
  }
  await page.screenshot({ path: file, fullPage: true });
}

const server = await startServer();
// The full browser: the pictures show what people's Chromium draws.
const browser = await launchBrowser('full');
let taken = 0;
try {
  const world = await seedWorld(server);
  const wanted = <T extends { name: string }>(list: T[]) => list.filter((item) => !only || only.has(item.name));
  const screens: Scene[] = wanted(screensOf(world)).map((screen) => ({ ...screen, as: 'owner' }));
  const scenes = wanted(scenesOf(world));
  const shots = [...screens, ...scenes];
  // Made after the world, so the world's people and groups are there to be suggested.
  const newcomer = scenes.some((scene) => scene.as === 'newcomer') ? await createVerifiedUser(server, { username: uniqueName('eva') }) : null;
  const users = { owner: world.owner, newcomer };
  for (const language of LANGUAGES) {
    for (const theme of THEMES) {
      for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
        const look = { language, theme, viewport };
        const dir = join(out, `${language}-${theme}-${viewportName}`);
        mkdirSync(dir, { recursive: true });
        for (const as of ['owner', 'newcomer'] as const) {
          const mine = shots.filter((shot) => shot.as === as);
          const user = users[as];
          if (mine.length === 0 || !user) continue;
          const page = await openAs(browser, server, user, look);
          for (const shot of mine) {
            await take(page, server, shot, join(dir, `${shot.name}.png`));
            taken += 1;
          }
          await page.context().close();
        }
        console.log(`${dir}: ${shots.length} screens`);
      }
    }
  }
} finally {
  await browser.close();
  await server.close();
}
console.log(`${taken} screenshots in ${out}`);
