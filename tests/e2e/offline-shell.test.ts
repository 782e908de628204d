import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/src/app';
import { loadConfig } from '../../server/src/config';
import { openDatabase } from '../../server/src/db/database';

const DIST = resolve('dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The built app served by the real server, in a real browser: the service worker takes control,
 * and after going offline a reload still shows the shell and a lazily loaded screen.
 * Needs `npm run build` first (CI builds before testing).
 */
describe('offline app shell', () => {
  let app: FastifyInstance;
  let browser: Browser;
  let context: BrowserContext;
  let baseUrl: string;
  let dataDir: string;

  beforeAll(async () => {
    if (!existsSync(join(DIST, 'index.html')) || !existsSync(join(DIST, 'sw.js'))) {
      throw new Error(`No built app in ${DIST}: run \`npm run build\` before the e2e tests.`);
    }
    dataDir = mkdtempSync(join(tmpdir(), 'kruh-e2e-'));
    const config = loadConfig({
      DATA_DIR: dataDir,
      WEB_DIR: DIST,
      JWT_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'silent',
      RUN_WORKER: 'false',
      PORT: '0',
    });
    app = await buildApp({ config, database: openDatabase({ dataDir }), logger: false });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('server did not report a port');
    baseUrl = `http://127.0.0.1:${address.port}`;

    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await app?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is installable: a manifest with icons and a service worker', async () => {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 30_000 });
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    // Automation contexts count as incognito; nothing else may be missing.
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const manifest = (await (await page.request.get(`${baseUrl}/manifest.webmanifest`)).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Kruh', display: 'standalone', start_url: './', scope: './' });
    await page.close();
  });

  it('starts offline from the service worker and never answers the API from a cache', async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));

    await page.goto(`${baseUrl}/#/feed`);
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 30_000 });
    // The API answers while online.
    expect(await page.evaluate(async () => (await fetch('/api/health')).status)).toBe(200);

    await context.setOffline(true);
    try {
      await page.goto(`${baseUrl}/#/login`);
      const nav = page.getByRole('navigation', { name: 'Main navigation' });
      await nav.waitFor({ timeout: 15_000 });
      await expect(nav.getByRole('link', { name: 'Feed' }).isVisible()).resolves.toBe(true);
      await page.getByRole('heading', { name: 'Log in to Kruh' }).waitFor({ timeout: 15_000 });

      await page.reload();
      await page.getByRole('navigation', { name: 'Main navigation' }).waitFor({ timeout: 15_000 });

      const api = await page.evaluate(async () => {
        try {
          return (await fetch('/api/health')).status;
        } catch {
          return 'network-error';
        }
      });
      expect(api).toBe('network-error');
    } finally {
      await context.setOffline(false);
    }
    expect(errors).toEqual([]);
    await page.close();
  });
});
