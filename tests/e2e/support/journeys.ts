import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { VIEWPORTS } from './world';

/** The size the journeys run at: each database's pass runs once at phone and once at desktop size. */
export const JOURNEY_VIEWPORT = VIEWPORTS[process.env.KRUH_E2E_VIEWPORT === 'desktop' ? 'desktop' : 'phone'];

type Catalogue = Record<string, unknown>;
const catalogues = new Map<string, Catalogue>();

/**
 * A text of the app as a person reads it in `language` (`ns:key.path`, with {{values}} filled):
 * taken from the locale files, so a journey in Czech checks the Czech the app ships.
 */
export function text(language: 'en' | 'cs', id: string, values: Record<string, string | number> = {}): string {
  const [ns, path] = id.split(':') as [string, string];
  const file = `${language}/${ns}`;
  let catalogue = catalogues.get(file);
  if (!catalogue) {
    catalogue = JSON.parse(readFileSync(resolve('locales', `${file}.json`), 'utf8')) as Catalogue;
    catalogues.set(file, catalogue);
  }
  const found = path.split('.').reduce<unknown>((node, key) => (node as Catalogue | undefined)?.[key], catalogue);
  if (typeof found !== 'string') throw new Error(`no text ${id} in ${language}`);
  return found.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(values[name] ?? `{{${name}}}`));
}

/**
 * Writes a post from the composer at `path` (`/post`, `/post?g=<group>`) and sends it with
 * Ctrl+Enter, as a person does; resolves once the app has left for the feed (queued, maybe offline).
 */
export async function composePost(page: Page, baseUrl: string, words: string, path = '/post'): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  const box = page.getByRole('main').getByRole('textbox', { name: text('en', 'compose:text_label') });
  await box.fill(words);
  await box.press('Control+Enter');
  await page.waitForURL((url) => url.pathname === '/');
}
