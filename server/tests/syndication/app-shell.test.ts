import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_FEED_ELEMENT_ID } from '#core/listing';
import { call, createGroup, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
const TEMPLATE = '<!doctype html><html><head><title>Kruh</title></head><body><div id="root"></div></body></html>';
writeFileSync(join(webDir, 'index.html'), TEMPLATE);
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

/** The page after its head (the head carries the site's link preview, see link-previews.test.ts). */
const bodyOf = (html: string) => html.slice(html.indexOf('</head>'));

const HOSTILE = 'Hello </script><script>alert(1)</script><!-- there';

/** The JSON block the page carries, read as the app reads it. */
function firstFeedOf(html: string): unknown {
  const match = new RegExp(`<script type="application/json" id="${FIRST_FEED_ELEMENT_ID}"[^>]*>([^<]*)</script>`).exec(html);
  return match ? JSON.parse(match[1]!) : null;
}

describe("the app's page at /", () => {
  const t = useTestApp({ WEB_DIR: webDir });
  let publicText: string;
  let secret: string;

  beforeAll(async () => {
    const author = await createUser(t.app);
    const club = await createGroup(t.app, author, { isPrivate: true });
    secret = `members only ${Date.now()}`;
    await createPost(t.app, author, { text: secret, groupIds: [club.id] });
    publicText = HOSTILE;
    await createPost(t.app, author, { text: publicText });
  });

  it("carries a visitor's first explore page, exactly as the API answers it", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    const carried = firstFeedOf(page.body) as { posts: Array<{ text: string }> };
    const api = await t.app.inject({ method: 'GET', url: '/api/feed?page=1&limit=4' });
    expect(carried).toEqual(api.json());
    expect(carried.posts.map((p) => p.text)).toContain(publicText);
  });

  it('never carries what a visitor may not see', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).not.toContain(secret);
    expect(JSON.stringify(firstFeedOf(page.body))).not.toContain(secret);
  });

  it('drops a deleted post at once, not when its rendering would have aged', async () => {
    const author = await createUser(t.app);
    const text = `soon gone ${Date.now()}`;
    const doomed = await createPost(t.app, author, { text });
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).toContain(text);
    const deleted = await call(t.app, author, { method: 'DELETE', url: `/api/post/${doomed.id}` });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain(text);
  });

  it('cannot be broken out of by the text of a post', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/' });
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<!-- there');
    // One data block, and the page's own markup around it unchanged.
    expect(page.body.match(/<script/g)).toHaveLength(1);
    expect(bodyOf(page.body.replace(/<script type="application\/json".*<\/script>/s, ''))).toBe(bodyOf(TEMPLATE));
  });

  it("carries a post's text as written, whatever replacement patterns it holds", async () => {
    const author = await createUser(t.app);
    // Each pattern String.replace would expand: the text before, the match, the text after, a group.
    const patterns = ['$`', "$'", '$&', '$$', '$1', '$<name>'];
    const text = patterns.map((pattern) => `look ${pattern} here`).join(', ');
    await createPost(t.app, author, { text });
    const page = await t.app.inject({ method: 'GET', url: '/' });
    const carried = firstFeedOf(page.body) as { posts: Array<{ text: string }> };
    expect(carried.posts[0]?.text).toBe(text);
    // Nothing of the page copied into the block or after it: the template once, around one block.
    expect(page.body.match(/<!doctype/g)).toHaveLength(1);
    expect(bodyOf(page.body.replace(/<script type="application\/json".*<\/script>/s, ''))).toBe(bodyOf(TEMPLATE));
  });

  it('is compressed for browsers that accept it', async () => {
    const plain = (await t.app.inject({ method: 'GET', url: '/' })).body;
    const br = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gzip = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain);
  });

  it('leaves /index.html, the copy the service worker keeps, as the plain file', async () => {
    const file = await t.app.inject({ method: 'GET', url: '/index.html' });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe(TEMPLATE);
  });
});

describe("the app's page at / drawn for a visitor", () => {
  const shellDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
  const SPINNER = '<div class="page-loading"><span class="spinner"></span></div>';
  writeFileSync(join(shellDir, 'index.html'), `<!doctype html><html><head></head><body><div id="root"><main class="shell__main">${SPINNER}</main></div></body></html>`);
  afterAll(() => rmSync(shellDir, { recursive: true, force: true }));
  const t = useTestApp({ WEB_DIR: shellDir });
  let secret: string;
  let words: string;

  beforeAll(async () => {
    const author = await createUser(t.app);
    const club = await createGroup(t.app, author, { isPrivate: true });
    secret = `members only ${Date.now()}`;
    await createPost(t.app, author, { text: secret, groupIds: [club.id] });
    await createPost(t.app, author, { text: HOSTILE });
    words = `Painted before any script #lake ${Date.now()}`;
    await createPost(t.app, author, { text: words });
  });

  /** The main area of the page, as the browser would parse it before any script runs. */
  const mainOf = (html: string) => /<main class="shell__main">([\s\S]*)<\/main>/.exec(html)?.[1] ?? '';

  it('shows the first page as cards in the main area, in the order the API answers', async () => {
    const main = mainOf((await t.app.inject({ method: 'GET', url: '/' })).body);
    const api = (await t.app.inject({ method: 'GET', url: '/api/feed?page=1&limit=4' })).json<{ posts: Array<{ _id: string }> }>();
    expect([...main.matchAll(/<article class="post-card" data-post-id="([^"]+)"/g)].map((m) => m[1])).toEqual(api.posts.map((p) => p._id));
    expect(main).toContain('<span>Painted before any script </span><a class="hashtag" href="/h/lake">#lake</a>');
    // The spinner stays beside them, for an app that opens elsewhere.
    expect(main).toContain(SPINNER);
  });

  it("renders a post's markup inert, as text", async () => {
    const main = mainOf((await t.app.inject({ method: 'GET', url: '/' })).body);
    expect(main).toContain('Hello &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;!-- there');
    expect(main).not.toMatch(/<script|<!--/);
  });

  it('never shows what a visitor may not see', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/' })).body).not.toContain(secret);
  });

  it("speaks the visitor's language", async () => {
    const cs = mainOf((await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'de;q=1, cs;q=0.8, en;q=0.5' } })).body);
    expect(cs).toContain('aria-label="Sdílet"');
    const en = mainOf((await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'en-GB, cs;q=0.8' } })).body);
    expect(en).toContain('aria-label="Share"');
  });
});
