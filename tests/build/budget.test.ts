import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { BUDGETS, MAX_FIRST_SCREEN_FILES, firstLoadScripts, headPreloads, kb, pageScripts, serviceWorker, packagesOf, total } from './budget';

/** The build to weigh: `dist/`, or the folder `KRUH_E2E_DIST` names (as the browser tests read it). */
const DIST = resolve(process.env.KRUH_E2E_DIST ?? 'dist');
const built = existsSync(join(DIST, 'index.html')) && existsSync(join(DIST, 'sw.js'));

// Without a build there is nothing to weigh; CI builds first, so there a missing build is a failure.
if (!built && process.env.CI) throw new Error(`No built app in ${DIST}: run \`npm run build\` before the build budget test.`);
if (!built) console.warn(`build budget skipped: no built app in ${DIST} (run \`npm run build\` first)`);

describe.skipIf(!built)('build budget (gzip)', () => {
  it(`first load: entry and what it preloads or imports statically, at most ${kb(BUDGETS.firstLoadJs)}`, () => {
    const files = firstLoadScripts(DIST);
    const list = files.map((f) => `  ${kb(f.gzip).padStart(9)}  ${f.file}`).join('\n');
    expect(total(files), `first-load scripts over budget:\n${list}\n  total ${kb(total(files))}`).toBeLessThanOrEqual(BUDGETS.firstLoadJs);
  });

  it(`a cold start on the feed fetches the feed's code from the head, at most ${kb(BUDGETS.feedScreenJs)} in few files`, () => {
    const first = new Set(firstLoadScripts(DIST).map((f) => f.file));
    const needed = [...pageScripts(DIST, 'FeedPage'), ...pageScripts(DIST, 'feed-prefetch')].filter((f) => !first.has(f.file));
    const neededFiles = [...new Set(needed.map((f) => f.file))];
    const preloaded = headPreloads(DIST);
    // Every script the screen needs beyond the first load is asked for at once, and nothing more.
    expect(preloaded.filter((f) => f.endsWith('.js')).sort()).toEqual(neededFiles.sort());
    for (const file of preloaded) expect(existsSync(join(DIST, file)), file).toBe(true);
    expect(preloaded.some((f) => f.endsWith('.css'))).toBe(true);
    expect(total(needed.filter((f, i) => neededFiles.indexOf(f.file) === i))).toBeLessThanOrEqual(BUDGETS.feedScreenJs);
    expect(first.size + neededFiles.length).toBeLessThanOrEqual(MAX_FIRST_SCREEN_FILES);
    // The lightbox comes when a picture is first opened.
    expect(neededFiles.flatMap((f) => packagesOf(DIST, f))).not.toContain('yet-another-react-lightbox');
  });

  it('first load carries neither the local database, the API schemas nor the lightbox', () => {
    // Only a screen that reads or writes data needs them: its chunk brings them, after the shell.
    const packages = firstLoadScripts(DIST).flatMap((f) => packagesOf(DIST, f.file));
    for (const heavy of ['dexie', '@sinclair/typebox', 'yet-another-react-lightbox']) expect(packages).not.toContain(heavy);
  });

  it('login page carries no WebAuthn library: it comes when a passkey is made or used', () => {
    const packages = pageScripts(DIST, 'LoginPage').flatMap((f) => packagesOf(DIST, f.file));
    expect(packages).toContain('react');
    expect(packages).not.toContain('@simplewebauthn/browser');
    expect(firstLoadScripts(DIST).flatMap((f) => packagesOf(DIST, f.file))).not.toContain('@simplewebauthn/browser');
  });

  it('ships brotli and gzip copies of the first-load files, which the server sends instead', () => {
    for (const file of ['index.html', ...firstLoadScripts(DIST).filter((f) => f.bytes >= 1024).map((f) => f.file)]) {
      expect(existsSync(join(DIST, `${file}.br`)), `${file}.br`).toBe(true);
      expect(existsSync(join(DIST, `${file}.gz`)), `${file}.gz`).toBe(true);
    }
  });

  it('ships brotli and gzip copies of every text file of 1 KB or more, the service worker included', () => {
    const texts = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|css|html|svg|webmanifest)$/.test(file));
    expect(texts).toContain('sw.js');
    for (const file of texts) {
      const content = readFileSync(join(DIST, file));
      if (content.length < 1024) continue;
      // The copies hold the file as it was finally written (sw.js after its precache list went in).
      expect(brotliDecompressSync(readFileSync(join(DIST, `${file}.br`))).equals(content), `${file}.br`).toBe(true);
      expect(gunzipSync(readFileSync(join(DIST, `${file}.gz`))).equals(content), `${file}.gz`).toBe(true);
    }
  });

  it(`service worker at most ${kb(BUDGETS.serviceWorker)}`, () => {
    expect(serviceWorker(DIST).gzip).toBeLessThanOrEqual(BUDGETS.serviceWorker);
  });

  it('service worker bundles no UI library', () => {
    const packages = packagesOf(DIST, 'sw.js');
    for (const ui of ['react', 'react-dom', 'scheduler', '@tanstack/react-query', 'dexie-react-hooks', 'react-i18next', 'i18next']) {
      expect(packages).not.toContain(ui);
    }
  });
});
