import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appPaths } from '#core/app-paths';
import { createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
const TEMPLATE = '<!doctype html><html><head><title>Kruh</title></head><body><div id="root"></div></body></html>';
writeFileSync(join(webDir, 'index.html'), TEMPLATE);
mkdirSync(join(webDir, 'assets'));
writeFileSync(join(webDir, 'assets/index-Bq3x9k.js'), 'export {};\n');
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

/**
 * Every screen has a real path the server answers with the app's page (so a link opened outside the
 * app, or a reload, lands on that screen), while the server's own paths never turn into the app.
 */
describe("the app's paths", () => {
  const t = useTestApp({ WEB_DIR: webDir });

  const screens = [
    appPaths.feed(),
    '/feed/following',
    appPaths.post('p1', 'c1'),
    appPaths.user('alice'),
    `${appPaths.user('alice')}/followers`,
    appPaths.group('Garden Club'),
    `${appPaths.group('garden')}/members`,
    appPaths.hashtag('cider'),
    `${appPaths.search()}?q=apples`,
    appPaths.notifications(),
    '/account/credentials',
    `${appPaths.login()}?next=%2Fnotifications`,
    '/verify?token=t&email=a%40b.c',
    '/no/such/screen',
  ];

  // A person's page answers 404 when there is no such person (with the app all the same), so the
  // person whose pages are asked for exists.
  beforeAll(async () => {
    await createUser(t.app, { username: 'alice' });
  });

  it.each(screens)('%s answers the app', async (path) => {
    const page = await t.app.inject({ method: 'GET', url: path, headers: { 'accept-encoding': 'identity' } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<div id="root">');
  });

  // A hashed file gone after a deploy (a chunk an old page asks for) must fail as what it is: the
  // app's HTML in its place is a script error in the page, and the service worker could keep it.
  const missingAssets = ['/assets/nope.js', '/assets/index-Zz9.css', '/assets/fonts/gone.woff2', '/assets'];

  it.each(['/api/no-such-call', '/media/none.webp', '/rss/x/nothing', '/.well-known/nothing', '/api', ...missingAssets])('%s stays the server\'s own (404, not the app)', async (path) => {
    const answer = await t.app.inject({ method: 'GET', url: path });
    expect(answer.statusCode).toBe(404);
    expect(answer.body).not.toContain('<div id="root">');
  });

  it('serves a hashed file that is there, to be kept for good', async () => {
    const asset = await t.app.inject({ method: 'GET', url: '/assets/index-Bq3x9k.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-type']).toMatch(/javascript/);
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});
