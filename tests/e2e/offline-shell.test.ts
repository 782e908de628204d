import { describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { useE2eSuite } from './support/suite';

/**
 * The built app served by the real server, in a real browser: the service worker takes control,
 * and after going offline a reload still shows the shell and a lazily loaded screen.
 * Needs `npm run build` first (CI builds before testing).
 */
describe('offline app shell', () => {
  // No mail or notifications here: the shell needs no job worker.
  const e2e = useE2eSuite({ worker: false, browser: 'full' });

  it('is installable: a manifest with icons and a service worker', async () => {
    const page = await e2e.visit('/');
    await waitForServiceWorker(page);
    const cdp = await e2e.journey.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string }>;
    };
    // Automation contexts count as incognito, which also shows the browser judged installability
    // (the headless shell answers nothing); nothing else may be missing.
    expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);
    const manifest = (await (await page.request.get(`${e2e.server.baseUrl}/manifest.webmanifest`)).json()) as Record<string, unknown>;
    expect(manifest).toMatchObject({ name: 'Kruh', display: 'standalone', start_url: './', scope: './' });
  });

  it('starts offline from the service worker and never answers the API from a cache', async () => {
    const page = await e2e.visit('/feed');
    const { context, log } = e2e.journey;

    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    await waitForServiceWorker(page);
    // The API answers while online.
    expect(await page.evaluate(async () => (await fetch('/api/health')).status)).toBe(200);

    await context.setOffline(true);
    await page.goto(`${e2e.server.baseUrl}/login`);
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
    expect(log.pageErrors).toEqual([]);
  });

  it('takes over a page that was loading while the worker activated, so its lazy screens open offline', async () => {
    const page = await e2e.visit('/feed');
    const { context, log } = e2e.journey;
    const { baseUrl } = e2e.server;

    // The next load of the page is held at the network until the first install has activated: the
    // browser's own claim at activation then misses it.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let reached!: () => void;
    const loading = new Promise<void>((resolve) => (reached = resolve));
    await page.route('**/login', async (route) => {
      if (route.request().isNavigationRequest()) {
        reached();
        await held;
      }
      await route.continue();
    });
    const loaded = page.goto(`${baseUrl}/login`);
    await loading;
    const witness = await context.newPage();
    await witness.goto(`${baseUrl}/feed`);
    await witness.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    await witness.close();
    release();
    await loaded;

    await waitForServiceWorker(page, 15_000);
    await page.getByRole('heading', { name: 'Log in to Kruh' }).waitFor();
    await context.setOffline(true);
    await page.getByRole('main').getByRole('link', { name: 'Sign up' }).click();
    await page.getByRole('heading', { name: 'Create your account' }).waitFor({ timeout: 15_000 });
    expect(log.pageErrors).toEqual([]);
  });
});
