import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { OUTBOX_PAGE } from '../../src/modules/federation/federation';

/**
 * A public post as the Note other servers read, at its own address, and a user's outbox of them:
 * only what a visitor may read, with no markup of the author's ever let through.
 */

const ORIGIN = 'https://kruh.example';
const AP = { accept: 'application/activity+json' };
// Fedify compacts the public address to its JSON-LD short form, which Mastodon and the others read too.
const PUBLIC = /^(as:Public|https:\/\/www\.w3\.org\/ns\/activitystreams#Public)$/;
const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><html><head><title>Kruh</title></head><body><div id="root"></div></body></html>');
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

type Tag = { type: string; href: string; name: string };
type Attachment = { type: string; mediaType: string; url: string; name?: string };

interface NoteJson {
  id: string;
  type: string;
  attributedTo: string;
  content: string;
  summary?: string;
  sensitive?: boolean;
  published: string;
  updated?: string;
  url: string;
  to: string | string[];
  cc: string | string[];
  tag: Tag | Tag[];
  attachment?: Attachment | Attachment[];
}

/** JSON-LD compaction writes a list of one as the one value. */
const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

describe('posts as ActivityPub objects', () => {
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: ORIGIN, WEB_DIR: webDir });
  let alice: TestUser;
  let bob: TestUser;
  let open: string;
  let plain: string;
  let closed: string;
  let hidden: string;

  const get = (url: string, accept = AP.accept) => t.app.inject({ method: 'GET', url, headers: { accept, 'accept-encoding': 'identity' } });
  const noteOf = async (id: string) => {
    const res = await get(`/ap/posts/${id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/activity\+json/);
    return res.json() as NoteJson;
  };

  beforeAll(async () => {
    alice = await createUser(t.app, { username: 'alice' });
    bob = await createUser(t.app, { username: 'bob' });
    const created = await call(t.app, alice, {
      method: 'POST',
      url: '/api/post',
      payload: { text: 'Beans & peas for @bob\n#Garden <b>now</b>', mentions: [bob.username], contentWarning: 'spoilers' },
    });
    expect(created.statusCode).toBe(201);
    open = (created.json() as { _id: string })._id;
    await t.app.db.updateTable('posts').set({ images: 1, image_alts: JSON.stringify(['A bean, <sprouting>']), edited_at: Date.now() }).where('id', '=', open).execute();
    plain = (await createPost(t.app, alice, { text: '<script>alert(1)</script>', createdAt: Date.now() + 1000 })).id;
    const secret = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
    closed = (await createPost(t.app, alice, { text: 'members only', groupIds: [secret.id] })).id;
    const gone = await createUser(t.app, { username: 'gone' });
    hidden = (await createPost(t.app, gone, { text: 'hidden with its author' })).id;
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', gone.id).execute();
    t.app.invalidateVisitorCache();
  });

  it('serves a public post as a Note with its author, mentions, hashtags, picture and content warning', async () => {
    const note = await noteOf(open);
    expect(note).toMatchObject({
      id: `${ORIGIN}/ap/posts/${open}`,
      type: 'Note',
      attributedTo: `${ORIGIN}/ap/actors/${alice.id}`,
      summary: 'spoilers',
      sensitive: true,
      url: `${ORIGIN}/p/${open}`,
    });
    expect(list(note.to)).toEqual([expect.stringMatching(PUBLIC)]);
    expect(list(note.cc)).toEqual([`${ORIGIN}/ap/actors/${alice.id}/followers`]);
    expect(typeof note.published).toBe('string');
    expect(typeof note.updated).toBe('string');
    expect(list(note.tag)).toEqual(
      expect.arrayContaining([
        { type: 'Mention', href: `${ORIGIN}/ap/actors/${bob.id}`, name: '@bob@kruh.example' },
        { type: 'Hashtag', href: `${ORIGIN}/h/garden`, name: '#garden' },
      ]),
    );
    const attachments = list(note.attachment);
    expect(attachments).toHaveLength(1);
    expect(attachments[0]).toMatchObject({ type: 'Document', mediaType: 'image/webp', name: 'A bean, <sprouting>' });
    expect(attachments[0]!.url).toMatch(new RegExp(`^${ORIGIN}/media/`));
    expect(note.content).toContain('Beans &#38; peas for ');
    expect(note.content).toContain(`<a href="${ORIGIN}/u/bob" class="u-url mention">@<span>bob</span></a>`);
    expect(note.content).toContain(`<a href="${ORIGIN}/h/garden" class="mention hashtag" rel="tag">#<span>Garden</span></a>`);
    expect(note.content).toContain('&#60;b&#62;now&#60;/b&#62;');
    expect(note.content).not.toContain('<b>');
    expect(note.content).toMatch(/^<p>Beans .*<br>.*<\/p>$/);
  });

  it("never lets a post's text through as markup", async () => {
    const note = await noteOf(plain);
    expect(note.content).toBe('<p>&#60;script&#62;alert(1)&#60;/script&#62;</p>');
    expect(note.summary ?? null).toBeNull();
    expect(note.sensitive ?? false).toBe(false);
    expect(list(note.attachment)).toEqual([]);
  });

  it("answers 404 for a private group's post, a suspended author's and an unknown one", async () => {
    for (const id of [closed, hidden, '0123456789abcdef01234567']) {
      expect((await get(`/ap/posts/${id}`)).statusCode, id).toBe(404);
      expect((await get(`/ap/posts/${id}`, 'text/html')).statusCode, id).toBe(404);
      expect((await get(`/p/${id}`)).statusCode, id).toBe(404);
    }
  });

  it("sends a browser from a Note to the post's page, and a fediverse server from the page to the Note", async () => {
    const browser = await get(`/ap/posts/${open}`, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(browser.statusCode).toBe(302);
    expect(browser.headers.location).toBe(`${ORIGIN}/p/${open}`);
    const server = await get(`/p/${open}`, 'application/activity+json, application/ld+json');
    expect(server.statusCode).toBe(302);
    expect(server.headers.location).toBe(`${ORIGIN}/ap/posts/${open}`);
    const page = await get(`/p/${open}`, 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
  });

  it("lists a user's public posts in their outbox as Create activities, newest first, and counts them", async () => {
    const outbox = await get(`/ap/actors/${alice.id}/outbox`);
    expect(outbox.statusCode).toBe(200);
    const collection = outbox.json() as { type: string; totalItems: number; first: string };
    expect(collection).toMatchObject({ type: 'OrderedCollection', totalItems: 2 });
    const first = await get(new URL(collection.first).pathname + new URL(collection.first).search);
    expect(first.statusCode).toBe(200);
    const page = first.json() as { type: string; orderedItems: { type: string; actor: string; object: NoteJson }[]; next?: string };
    expect(page.type).toBe('OrderedCollectionPage');
    expect(page.orderedItems.map((item) => item.type)).toEqual(['Create', 'Create']);
    expect(page.orderedItems.map((item) => item.object.id)).toEqual([`${ORIGIN}/ap/posts/${plain}`, `${ORIGIN}/ap/posts/${open}`]);
    expect(page.orderedItems[0]!.actor).toBe(`${ORIGIN}/ap/actors/${alice.id}`);
    expect(page.next).toBeUndefined();
  });

  it('pages a long outbox', async () => {
    const carol = await createUser(t.app, { username: 'carol' });
    for (let i = 0; i <= OUTBOX_PAGE; i++) await createPost(t.app, carol, { text: `post ${i}`, createdAt: Date.now() + i });
    const collection = (await get(`/ap/actors/${carol.id}/outbox`)).json() as { totalItems: number; first: string };
    expect(collection.totalItems).toBe(OUTBOX_PAGE + 1);
    const first = (await get(new URL(collection.first).pathname + new URL(collection.first).search)).json() as { orderedItems: unknown[]; next: string };
    expect(first.orderedItems).toHaveLength(OUTBOX_PAGE);
    const second = (await get(new URL(first.next).pathname + new URL(first.next).search)).json() as { orderedItems: { object: NoteJson }[]; next?: string };
    expect(second.orderedItems).toHaveLength(1);
    expect(second.orderedItems[0]!.object.content).toBe('<p>post 0</p>');
    expect(second.next).toBeUndefined();
  });
});
