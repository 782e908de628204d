import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorker } from './support/browser';
import { JOURNEY_VIEWPORT, text } from './support/journeys';
import { createVerifiedUser } from './support/server';
import { type StoredBlob, storedRows } from './support/stored';
import { useE2eSuite } from './support/suite';

interface ShareTarget {
  action: string;
  method: string;
  enctype: string;
  params: { title?: string; text?: string; url?: string; files?: Array<{ name: string; accept: string[] }> };
}

/** A draft of the composer as stored. */
interface Draft {
  text: string;
  images: Array<{ blob: StoredBlob; name: string }>;
}

/**
 * Sharing into the installed app from another one: the system posts a form to the manifest's
 * share target, the service worker keeps it (offline too) and the composer opens with it.
 */
describe('share target', () => {
  const e2e = useE2eSuite();

  it('declares a share target the browser accepts, for text, links and images', async () => {
    const page = await e2e.visit('/');
    await page.getByRole('navigation', { name: 'Main navigation' }).waitFor();
    const cdp = await e2e.journey.context.newCDPSession(page);
    const { errors, url } = (await cdp.send('Page.getAppManifest')) as { errors: Array<{ message: string }>; url: string };
    expect(errors.map((e) => e.message)).toEqual([]);
    const manifest = (await (await page.request.get(url)).json()) as { share_target?: ShareTarget };
    const target = manifest.share_target!;
    expect(new URL(target.action, url).pathname).toBe('/share');
    expect([target.method, target.enctype]).toEqual(['POST', 'multipart/form-data']);
    expect(target.params.text && target.params.url && target.params.title).toBeTruthy();
    expect(target.params.files?.[0]?.accept).toContain('image/*');
  });

  it('opens the composer with what was shared, offline, and keeps it as a draft', async () => {
    const sam = await createVerifiedUser(e2e.server);
    const page = await e2e.visit('/feed', { as: sam, viewport: JOURNEY_VIEWPORT });
    await waitForServiceWorker(page);
    const manifestUrl = await page.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="manifest"]')!.href);
    const target = ((await (await page.request.get(manifestUrl)).json()) as { share_target: ShareTarget }).share_target;
    await e2e.journey.context.setOffline(true);

    // What the system does when the person picks Kruh in another app's share sheet.
    await page.evaluate(
      ({ action, fields }) => {
        const form = document.createElement('form');
        Object.assign(form, { method: 'post', action: new URL(action, document.baseURI).href, enctype: 'multipart/form-data' });
        for (const [name, value] of Object.entries(fields)) {
          const input = document.createElement('textarea');
          Object.assign(input, { name, value });
          form.append(input);
        }
        const files = document.createElement('input');
        Object.assign(files, { type: 'file', name: 'images', multiple: true, id: 'shared-files' });
        form.append(files);
        document.body.append(form);
      },
      { action: target.action, fields: { title: 'Roses', text: 'In bloom at the allotment', url: 'https://example.com/roses' } },
    );
    const photo = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#c0392b' } }).png().toBuffer();
    await page.setInputFiles('#shared-files', [{ name: 'roses.png', mimeType: 'image/png', buffer: photo }]);
    await page.evaluate(() => document.querySelector<HTMLFormElement>('form:has(#shared-files)')!.submit());

    const main = page.getByRole('main');
    const box = main.getByRole('textbox', { name: text('en', 'compose:text_label') });
    const shared = 'Roses\nIn bloom at the allotment\nhttps://example.com/roses';
    await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toBe(shared);
    expect(new URL(page.url()).pathname).toBe('/post');
    await main.getByRole('button', { name: text('en', 'compose:remove_image', { index: 1 }) }).waitFor();

    // Closed and opened again, still offline: the share is the composer's draft now. The composer
    // writes its draft a moment after a change, so the page is left once the draft is written.
    const drafts = async () => (await storedRows<Draft>(page, sam.id, 'drafts')).map((draft) => ({ text: draft.text, images: draft.images.length }));
    await expect.poll(drafts, { timeout: 15_000 }).toContainEqual({ text: shared, images: 1 });
    await page.goto(`${e2e.server.baseUrl}/post`);
    await expect.poll(() => box.inputValue(), { timeout: 15_000 }).toContain('In bloom at the allotment');
    await main.getByRole('button', { name: text('en', 'compose:remove_image', { index: 1 }) }).waitFor();
    expect(e2e.journey.log.pageErrors).toEqual([]);
  });
});
