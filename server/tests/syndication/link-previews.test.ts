import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/**
 * What a link to a screen shows when shared (a chat's card, a search result): the server puts the
 * title, description, picture and canonical address of the post, profile or group in the page's
 * head, in the reader's language; anything a visitor may not read gets the site's own preview.
 */

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
writeFileSync(
  join(webDir, 'index.html'),
  '<!doctype html><html><head><meta name="description" content="generic" /><title>Kruh</title></head><body><div id="root"></div></body></html>',
);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const t = useTestApp({ WEB_DIR: webDir, PUBLIC_URL: 'https://kruh.example' });
const ORIGIN = 'https://kruh.example';

/** The head's meta tags by name or property, as a link preview reads them. */
async function headOf(path: string, language = 'en', status = 200) {
  const page = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-language': language, 'accept-encoding': 'identity' } });
  expect(page.statusCode).toBe(status);
  const meta = Object.fromEntries([...page.body.matchAll(/<meta (?:name|property)="([^"]+)" content="([^"]*)"/g)].map((m) => [m[1], m[2]]));
  const link = (rel: string) => new RegExp(`<link rel="${rel}"[^>]*href="([^"]+)"`).exec(page.body)?.[1];
  return { body: page.body, meta, title: /<title>([^<]*)<\/title>/.exec(page.body)?.[1], canonical: link('canonical'), feed: link('alternate'), titles: page.body.match(/<title>/g)?.length };
}

let author: TestUser;
let pictured: string;
let plain: string;
let hidden: string;
let secretGroup: string;
let garden: string;

beforeAll(async () => {
  author = await createUser(t.app, { username: 'previewer' });
  await t.app.db.updateTable('users').set({ bio: 'Grows beans & <peas>' }).where('id', '=', author.id).execute();
  garden = (await createGroup(t.app, author, { name: 'Bean Growers' })).name;
  await t.app.db.updateTable('groups').set({ description: 'All about beans' }).where('name', '=', garden).execute();
  const closed = await createGroup(t.app, author, { name: 'Bean Secrets', isPrivate: true });
  secretGroup = closed.name;
  plain = (await createPost(t.app, author, { text: 'First beans of the year "sprouted" today' })).id;
  hidden = (await createPost(t.app, author, { text: 'the secret bean spot', groupIds: [closed.id] })).id;
  pictured = (await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: 'Look at these' } })).json()._id as string;
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#3a3' } }).png().toBuffer();
  const form = multipartBody({ id: pictured, index: '0' }, [{ field: 'image', filename: 'a.png', contentType: 'image/png', data: png }]);
  expect((await call(t.app, author, { method: 'POST', url: '/api/upload/image', ...form })).statusCode).toBeLessThan(300);
  t.app.invalidateVisitorCache();
});

describe('link previews', () => {
  it("a public post's page carries its author, text and canonical address", async () => {
    const head = await headOf(`/p/${plain}`);
    expect(head.title).toBe('@previewer on Kruh');
    expect(head.titles).toBe(1);
    expect(head.meta['og:title']).toBe('@previewer on Kruh');
    expect(head.meta['og:description']).toBe('First beans of the year &#34;sprouted&#34; today');
    expect(head.meta.description).toBe(head.meta['og:description']);
    expect(head.meta['og:type']).toBe('article');
    expect(head.meta['og:url']).toBe(`${ORIGIN}/p/${plain}`);
    expect(head.canonical).toBe(`${ORIGIN}/p/${plain}`);
    // No picture of its own: the author's avatar.
    expect(head.meta['og:image']).toMatch(new RegExp(`^${ORIGIN}/media/`));
    expect(head.meta['twitter:card']).toBeDefined();
    expect(head.meta.robots).toBeUndefined();
  });

  it("a post with pictures shows its first picture", async () => {
    const head = await headOf(`/p/${pictured}`);
    expect(head.meta['og:image']).toContain(`${pictured}0`);
    expect(head.meta['twitter:card']).toBe('summary_large_image');
  });

  it("a post in a private group, a deleted one and an unknown one get the site's preview", async () => {
    const generic = await headOf('/');
    for (const path of [`/p/${hidden}`, '/p/000000000000000000000000']) {
      const head = await headOf(path);
      expect(head.body).not.toContain('secret bean');
      expect(head.body).not.toContain(hidden);
      expect(head.title).toBe('Kruh');
      expect(head.meta['og:description']).toBe(generic.meta['og:description']);
      expect(head.meta.robots).toBe('noindex');
    }
  });

  it('a profile carries the bio, escaped, its avatar and its feed', async () => {
    const head = await headOf('/u/previewer');
    expect(head.title).toBe('@previewer on Kruh');
    expect(head.meta['og:description']).toBe('Grows beans &#38; &#60;peas&#62;');
    expect(head.meta['og:type']).toBe('profile');
    expect(head.feed).toBe(`${ORIGIN}/rss/u/previewer`);
  });

  it("an unknown user's page answers 404 with the app and the site's preview", async () => {
    for (const path of ['/u/nobody_here', '/u/nobody_here/groups']) {
      const head = await headOf(path, 'en', 404);
      expect(head.body).toContain('<div id="root"></div>');
      expect(head.title).toBe('Kruh');
      expect(head.meta.robots).toBe('noindex');
    }
  });

  it('a public group carries its description and feed, in Czech when asked; a private group tells nothing', async () => {
    const head = await headOf(`/g/${encodeURIComponent(garden)}`, 'cs,en;q=0.5');
    expect(head.title).toBe('&#38;Bean Growers na Kruhu');
    expect(head.meta['og:description']).toBe('All about beans');
    expect(head.meta['og:locale']).toBe('cs_CZ');
    expect(head.feed).toBe(`${ORIGIN}/rss/g/Bean%20Growers`);
    const closed = await headOf(`/g/${encodeURIComponent(secretGroup)}`);
    expect(closed.title).toBe('Kruh');
    expect(closed.body).not.toContain('Bean Secrets');
  });

  it('personal screens are kept out of search engines', async () => {
    for (const path of ['/account', '/notifications', '/search?q=beans']) expect((await headOf(path)).meta.robots).toBe('noindex');
    expect((await headOf('/h/beans')).meta.robots).toBeUndefined();
  });
});
