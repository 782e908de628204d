import { describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { useE2eSuite } from './support/suite';

interface ManifestIcon {
  src: string;
  sizes: string;
  type?: string;
  purpose?: string;
}

interface Manifest {
  name?: string;
  short_name?: string;
  start_url?: string;
  scope?: string;
  display?: string;
  theme_color?: string;
  background_color?: string;
  icons?: ManifestIcon[];
}

/** Width and height from a PNG's IHDR chunk. */
function pngSize(bytes: Buffer): { width: number; height: number } | null {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(signature) || bytes.toString('ascii', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** The app can be installed: a complete manifest the browser accepts, and a service worker. */
describe('installable app', () => {
  const e2e = useE2eSuite({ browser: 'full' });

  it('links a manifest with name, standalone display, theme colour and 192, 512 and maskable icons', async () => {
    const page = await e2e.visit('/');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();

    // Found the way the browser finds it: the page's <link rel="manifest">.
    const href = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? null);
    expect(href).not.toBeNull();
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    const manifest = (await response.json()) as Manifest;

    expect(manifest.name).toBe('Kruh');
    expect(manifest.short_name).toBeTruthy();
    expect(manifest.display).toBe('standalone');
    expect(manifest.start_url).toBeTruthy();
    expect(manifest.theme_color).toMatch(/^#[0-9a-f]{6}$/i);
    expect(manifest.background_color).toBeTruthy();
    const metaTheme = await page.evaluate(() => document.querySelector('meta[name="theme-color"]')?.getAttribute('content') ?? null);
    expect(metaTheme?.toLowerCase()).toBe(manifest.theme_color!.toLowerCase());

    const icons = manifest.icons ?? [];
    const purposes = (icon: ManifestIcon) => (icon.purpose ?? 'any').split(/\s+/);
    const find = (size: string, purpose: string) => icons.find((i) => i.sizes.split(/\s+/).includes(size) && purposes(i).includes(purpose));
    const wanted = [find('192x192', 'any'), find('512x512', 'any'), find('512x512', 'maskable')];
    expect(wanted.map((i) => (i ? `${i.sizes} ${i.purpose ?? 'any'}` : null))).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);

    // Every listed icon is served, as the PNG of the size it claims.
    for (const icon of icons) {
      const image = await page.request.get(new URL(icon.src, href!).href);
      expect(image.status(), icon.src).toBe(200);
      expect(image.headers()['content-type'], icon.src).toMatch(/^image\/png/);
      const [width, height] = icon.sizes.split('x').map(Number);
      expect(pngSize(await image.body()), icon.src).toEqual({ width, height });
    }
  });

  it('meets the browser installability checks once the service worker controls the page', async () => {
    const page = await e2e.visit('/');
    await waitForServiceWorker(page);
    const cdp = await e2e.journey.context.newCDPSession(page);

    const { errors, url } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: Array<{ message: string; critical: number }> };
    expect(url).toMatch(/manifest\.webmanifest$/);
    expect(errors).toEqual([]);

    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: Array<{ errorId: string; errorArguments: Array<{ name: string; value: string }> }>;
    };
    // Automation contexts count as incognito, which also shows the browser judged installability
    // (the headless shell answers nothing); nothing else may be missing.
    expect(installabilityErrors.map((e) => e.errorId)).toEqual(['in-incognito']);
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
