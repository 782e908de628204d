import Parser from 'rss-parser';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { addMember, call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { multipartBody } from '../helpers/multipart';
import { useTestApp } from '../helpers/test-app';

/**
 * Feeds to follow, read by a well-kept RSS parser as a feed reader would: a user's posts, a public
 * group's posts and a hashtag, with absolute links to the posts' real paths; never a private
 * group's feed. robots.txt and the sitemap name what may be indexed.
 */

const t = useTestApp({ PUBLIC_URL: 'https://kruh.example' });
const parser = new Parser();

let author: TestUser;
let open: { id: string; name: string };
let closed: { id: string; name: string };
let posts: Record<'plain' | 'tagged' | 'warned' | 'inGroup' | 'inPrivate', string>;

beforeAll(async () => {
  author = await createUser(t.app, { username: 'feedwriter' });
  open = await createGroup(t.app, author, { name: 'Garden Club' });
  closed = await createGroup(t.app, author, { name: 'Quiet Room', isPrivate: true });
  const member = await createUser(t.app, { username: 'feedmember' });
  await addMember(t.app, closed.id, member);
  const at = Date.now() - 60_000;
  const write = async (text: string, groups: string[] = []) => (await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text, groups } })).json()._id as string;
  posts = {
    plain: (await createPost(t.app, author, { text: 'Tomatoes <b>ripe</b> & red', createdAt: at })).id,
    warned: (await createPost(t.app, author, { text: 'spoiler words', createdAt: at + 2 })).id,
    inGroup: (await createPost(t.app, author, { text: 'Meeting on Sunday', groupIds: [open.id], createdAt: at + 3 })).id,
    // Through the API, which files the hashtags.
    tagged: await write('Seeds for #swapday this week'),
    inPrivate: await write('hidden words #swapday', [closed.id]),
  };
  await t.app.db.updateTable('posts').set({ content_warning: 'Film ending' }).where('id', '=', posts.warned).execute();
  t.app.invalidateVisitorCache();
});

async function readFeed(url: string, language = 'en') {
  const res = await call(t.app, null, { method: 'GET', url, headers: { 'accept-language': language } });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/rss\+xml/);
  return parser.parseString(res.body);
}

const linkOf = (id: string) => `https://kruh.example/p/${id}`;

describe('feeds to follow', () => {
  it("a user's feed lists their public posts, newest first, linking to each post's page", async () => {
    const feed = await readFeed('/rss/u/FeedWriter');
    expect(feed.title).toBe('Posts by @feedwriter on Kruh');
    expect(feed.link).toBe('https://kruh.example/u/feedwriter');
    expect(feed.items.map((item) => item.link)).toEqual([posts.tagged, posts.inGroup, posts.warned, posts.plain].map(linkOf));
    const plain = feed.items.find((item) => item.link === linkOf(posts.plain));
    // Text is text: markup in a post arrives escaped, and reads back as written.
    expect(plain?.content).toBe('Tomatoes <b>ripe</b> & red');
    expect(plain?.creator ?? plain?.author).toBeDefined();
  });

  it("a post's picture is its enclosure, with the picture's size in bytes", async () => {
    const id = (await call(t.app, author, { method: 'POST', url: '/api/post', payload: { text: 'Our first pumpkin' } })).json()._id as string;
    const png = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#e80' } }).png().toBuffer();
    const form = multipartBody({ id, index: '0' }, [{ field: 'image', filename: 'pumpkin.png', contentType: 'image/png', data: png }]);
    expect((await call(t.app, author, { method: 'POST', url: '/api/upload/image', ...form })).statusCode).toBeLessThan(300);
    t.app.invalidateVisitorCache();
    const item = (await readFeed('/rss/u/feedwriter')).items.find((entry) => entry.link === linkOf(id));
    const url = new URL(item?.enclosure?.url ?? '');
    expect(url.pathname).toMatch(/^\/media\//);
    const picture = await call(t.app, null, { method: 'GET', url: url.pathname + url.search });
    expect(picture.statusCode).toBe(200);
    expect(picture.rawPayload.length).toBeGreaterThan(0);
    expect(item?.enclosure).toMatchObject({ type: 'image/webp', length: String(picture.rawPayload.length) });
  });

  it('a post behind a content warning shows the warning, not its text', async () => {
    const feed = await readFeed('/rss/u/feedwriter');
    const warned = feed.items.find((item) => item.link === linkOf(posts.warned));
    expect(warned?.title).toBe('Content warning: Film ending');
    expect(JSON.stringify(warned)).not.toContain('spoiler words');
  });

  it("a public group's feed lists its posts; a private group has no feed", async () => {
    const feed = await readFeed(`/rss/g/${encodeURIComponent(open.name)}`);
    expect(feed.title).toBe('Posts in &Garden Club on Kruh');
    expect(feed.items.map((item) => item.link)).toEqual([linkOf(posts.inGroup)]);
    const hidden = await call(t.app, null, { method: 'GET', url: `/rss/g/${encodeURIComponent(closed.name)}` });
    expect(hidden.statusCode).toBe(404);
    expect(hidden.body).not.toContain('hidden words');
  });

  it("a hashtag's feed lists the public posts carrying it, in Czech when the reader asks for it", async () => {
    const feed = await readFeed('/rss/h/swapday', 'cs-CZ,cs;q=0.9,en;q=0.5');
    expect(feed.title).toBe('Příspěvky s #swapday na Kruhu');
    expect(feed.items.map((item) => item.link)).toEqual([linkOf(posts.tagged)]);
  });

  it('an unknown user has no feed', async () => {
    expect((await call(t.app, null, { method: 'GET', url: '/rss/u/nobody_here' })).statusCode).toBe(404);
  });
});

describe('what search engines may read', () => {
  it('robots.txt keeps them out of personal screens and the API, and names the sitemap', async () => {
    const res = await call(t.app, null, { method: 'GET', url: '/robots.txt' });
    expect(res.statusCode).toBe(200);
    const rules = res.body.split('\n');
    for (const path of ['/api/', '/account', '/notifications', '/search']) expect(rules).toContain(`Disallow: ${path}`);
    expect(rules).not.toContain('Disallow: /p/');
    expect(rules).toContain('Sitemap: https://kruh.example/sitemap.xml');
  });

  it('the sitemap lists public profiles and public groups, not private groups', async () => {
    const res = await call(t.app, null, { method: 'GET', url: '/sitemap.xml' });
    expect(res.statusCode).toBe(200);
    const locations = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toContain('https://kruh.example/u/feedwriter');
    expect(locations).toContain('https://kruh.example/g/Garden%20Club');
    expect(locations.some((loc) => loc?.includes('Quiet'))).toBe(false);
  });
});
