import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAINTENANCE_TASKS } from '../../src/jobs';
import { maintenanceStep } from '../../src/modules/jobs/maintenance';
import { checkMediaKey } from '../../src/lib/storage';
import { keptRemoteMediaKey, remoteMediaUrl } from '../../src/policy/media-urls';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { type FakeActor, type FakeFediverse, PUBLIC, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * A remote post's pictures in the app: the post lists them as this server's own addresses, whose
 * hash names the picture's address on its server; the first read fetches it from there through the
 * guard, re-encodes it as an upload and keeps it, and nothing but a picture this server named is
 * ever fetched.
 */

const ORIGIN = 'https://kruh.example';
const METRICS = 'metrics-token-0123456789abcdef';
const DAY_MS = 24 * 60 * 60 * 1000;

describe('the key a remote picture is kept under', () => {
  it('is a valid storage key for every address, whatever its hash comes out as', () => {
    // One hash in thirty-two once began with a character no key may begin with: sampled widely.
    for (let i = 0; i < 500; i++) {
      const key = keptRemoteMediaKey(`secret-${i % 7}`, `https://other.example/media/${i}.webp`);
      expect(checkMediaKey(key)).toBe(key);
      expect(key).toMatch(/^remote\/[0-9a-f]{64}$/);
    }
  });
});

describe('remote pictures', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN, METRICS_TOKEN: METRICS });
  let fedi: FakeFediverse;
  let bob: FakeActor;
  let fan: TestUser;

  beforeAll(async () => {
    fedi = await startFakeFediverse();
    bob = await fedi.actor('bob');
    fan = await createUser(t.app, { username: 'fan' });
    const account = await remoteAccountFor(t.app.db, { id: bob.id, inbox: bob.inbox, sharedInbox: null, handle: bob.handle, url: null, bio: '' }, Date.now());
    await t.app.db.insertInto('follows').values({ follower_id: fan.id, following_id: account, created_at: Date.now() }).execute();
    fedi.serveFile('/beans.png', 'image/png', await sharp({ create: { width: 30, height: 20, channels: 3, background: '#336699' } }).png().toBuffer());
    fedi.serveFile('/page.html', 'image/png', Buffer.from('<html><script>alert(1)</script></html>'));
  });
  afterAll(async () => {
    await fedi.close();
  });

  /** A followed actor's post with these pictures, as the app lists it (`apId`: its Note's id). */
  async function postWith(pictures: { path: string; alt: string }[], author: FakeActor = bob) {
    const note = {
      id: `${author.id}/notes/${randomUUID()}`,
      type: 'Note',
      attributedTo: author.id,
      to: [PUBLIC],
      content: '<p>look</p>',
      attachment: pictures.map((p) => ({ type: 'Document', mediaType: 'image/png', url: fedi.url(p.path), name: p.alt })),
    };
    const create = { id: `${note.id}/create`, type: 'Create', actor: author.id, to: [PUBLIC], object: note };
    expect((await deliverToInbox(t.app, '/ap/inbox', create, author)).statusCode).toBe(202);
    const row = await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', note.id).executeTakeFirstOrThrow();
    const res = await call(t.app, fan, { method: 'GET', url: `/api/post/${row.id}` });
    expect(res.statusCode).toBe(200);
    return { ...(res.json() as { images: number; media: string[]; alts: string[] }), apId: note.id, note, postId: row.id };
  }

  it("lists a remote post's pictures at this server's addresses, and serves each as a re-encoded copy kept here", async () => {
    const post = await postWith([{ path: '/beans.png', alt: 'blue beans' }]);
    expect(post).toMatchObject({ images: 1, alts: ['blue beans'] });
    const [address] = post.media;
    expect(address).toBe(remoteMediaUrl(t.app, fedi.url('/beans.png')));
    expect(address!.startsWith('/media/remote/')).toBe(true);

    const res = await t.app.inject({ method: 'GET', url: address! });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(await sharp(res.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 30, height: 20 });

    // Kept: served again when its server no longer has it.
    fedi.serveFile('/beans.png', 'text/plain', Buffer.from('gone'));
    const again = await t.app.inject({ method: 'GET', url: address! });
    expect(again.statusCode).toBe(200);
    expect(again.rawPayload.equals(res.rawPayload)).toBe(true);
  });

  it('fetches no address this server did not name, and keeps nothing that is not a picture', async () => {
    const named = remoteMediaUrl(t.app, fedi.url('/beans.png'));
    const hash = named.split('?')[0]!.slice('/media/remote/'.length);
    const other = `/media/remote/${hash}x?u=${encodeURIComponent(fedi.url('/other.png'))}`;
    const forged = `/media/remote/${remoteMediaUrl('not the secret', fedi.url('/other.png')).split('?')[0]!.slice('/media/remote/'.length)}?u=${encodeURIComponent(fedi.url('/other.png'))}`;
    for (const url of [other, forged]) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(404);

    const page = remoteMediaUrl(t.app, fedi.url('/page.html'));
    expect((await t.app.inject({ method: 'GET', url: page })).statusCode).toBe(404);
    const missing = remoteMediaUrl(t.app, fedi.url('/nothing.png'));
    expect((await t.app.inject({ method: 'GET', url: missing })).statusCode).toBe(404);
    const kept = await t.app.storage.head(page.split('?')[0]!.slice('/media/'.length));
    expect(kept).toBeNull();
  });

  /** The storage key of a listed picture, once a read has kept its copy. */
  const keptCopy = async (address: string) => {
    expect((await t.app.inject({ method: 'GET', url: address })).statusCode).toBe(200);
    const key = address.split('?')[0]!.slice('/media/'.length);
    expect(await t.app.storage.head(key)).not.toBeNull();
    return key;
  };

  it("removes the kept copies of a remote post's pictures when the post is deleted, or its author's account", async () => {
    const deleteBy = (author: FakeActor, object: string) =>
      deliverToInbox(t.app, '/ap/inbox', { id: `${author.id}/activities/${randomUUID()}`, type: 'Delete', actor: author.id, to: [PUBLIC], object }, author);
    fedi.serveFile('/peas.png', 'image/png', await sharp({ create: { width: 20, height: 20, channels: 3, background: '#33aa33' } }).png().toBuffer());

    const post = await postWith([{ path: '/peas.png', alt: 'peas' }]);
    const key = await keptCopy(post.media[0]!);
    expect((await deleteBy(bob, post.apId)).statusCode).toBe(202);
    expect(await t.app.db.selectFrom('posts').select('id').where('ap_id', '=', post.apId).execute()).toEqual([]);
    expect(await t.app.storage.head(key)).toBeNull();

    const gone = await fedi.actor('gone');
    const account = await remoteAccountFor(t.app.db, { id: gone.id, inbox: gone.inbox, sharedInbox: null, handle: gone.handle, url: null, bio: '' }, Date.now());
    await t.app.db.insertInto('follows').values({ follower_id: fan.id, following_id: account, created_at: Date.now() }).execute();
    fedi.serveFile('/corn.png', 'image/png', await sharp({ create: { width: 20, height: 20, channels: 3, background: '#aaaa33' } }).png().toBuffer());
    const theirs = await postWith([{ path: '/corn.png', alt: 'corn' }], gone);
    const theirKey = await keptCopy(theirs.media[0]!);
    expect((await deleteBy(gone, gone.id)).statusCode).toBe(202);
    expect(await t.app.storage.head(theirKey)).toBeNull();
  });
  it('removes the kept copy of a picture an edit drops from a remote post, once no post lists it', async () => {
    const square = (background: string) => sharp({ create: { width: 16, height: 16, channels: 3, background } }).png().toBuffer();
    fedi.serveFile('/figs.png', 'image/png', await square('#663366'));
    fedi.serveFile('/plums.png', 'image/png', await square('#442266'));
    const post = await postWith([
      { path: '/figs.png', alt: 'figs' },
      { path: '/plums.png', alt: 'plums' },
    ]);
    const [figs, plums] = await Promise.all(post.media.map((address) => keptCopy(address)));
    const edit = async (content: string, attachment: unknown[]) => {
      const object = { ...post.note, content, attachment };
      const update = { id: `${post.apId}/update/${randomUUID()}`, type: 'Update', actor: bob.id, to: [PUBLIC], object };
      expect((await deliverToInbox(t.app, '/ap/inbox', update, bob)).statusCode).toBe(202);
      return (await call(t.app, fan, { method: 'GET', url: `/api/post/${post.postId}` })).json() as { text: string; media: string[] };
    };

    expect(await edit('<p>only plums now</p>', [post.note.attachment[1]])).toMatchObject({ text: 'only plums now', media: [post.media[1]] });
    expect(await t.app.storage.head(figs!)).toBeNull();
    expect(await t.app.storage.head(plums!)).not.toBeNull();

    // Another post shows the plums too: the copy, kept under the address alone, is that post's as well.
    const other = await postWith([{ path: '/plums.png', alt: 'plums again' }]);
    expect(other.media).toEqual([post.media[1]]);
    expect(await edit('<p>no pictures</p>', [])).toMatchObject({ text: 'no pictures', media: [] });
    expect(await t.app.storage.head(plums!)).not.toBeNull();
    expect((await t.app.inject({ method: 'GET', url: other.media[0]! })).statusCode).toBe(200);
  });

  it('drops the copies fetched more than REMOTE_MEDIA_DAYS ago, and fetches one again when it is next read', async () => {
    fedi.serveFile('/corn.png', 'image/png', await sharp({ create: { width: 24, height: 24, channels: 3, background: '#eecc22' } }).png().toBuffer());
    fedi.serveFile('/rice.png', 'image/png', await sharp({ create: { width: 24, height: 24, channels: 3, background: '#eeeeee' } }).png().toBuffer());
    const post = await postWith([
      { path: '/corn.png', alt: 'corn' },
      { path: '/rice.png', alt: 'rice' },
    ]);
    const [corn, rice] = post.media as [string, string];
    const fetches = (path: string) => fedi.asked.filter((asked) => asked === path).length;
    const before = fetches('/corn.png');
    const oldKey = await keptCopy(corn);
    const freshKey = await keptCopy(rice);
    expect(fetches('/corn.png')).toBe(before + 1);
    const copies = () => t.app.db.selectFrom('remote_media_copies').selectAll().where('key', 'in', [oldKey, freshKey]).orderBy('key').execute();
    const [oldRow] = (await copies()).filter((row) => row.key === oldKey);
    expect(oldRow!.bytes).toBe((await t.app.storage.head(oldKey))!.size);

    // The corn was fetched eight days ago (REMOTE_MEDIA_DAYS is 7 by default); the rice just now.
    const now = Date.now();
    await t.app.db.updateTable('remote_media_copies').set({ fetched_at: now - 8 * DAY_MS }).where('key', '=', oldKey).execute();
    const info = vi.spyOn(t.app.log, 'info');
    try {
      await t.app.db.transaction().execute((trx) => maintenanceStep(MAINTENANCE_TASKS)(t.app, trx, { lastRunAt: null }, now));
      const run = info.mock.calls.find(([, message]) => message === 'old copies of remote pictures dropped');
      expect(run?.[0]).toMatchObject({ dropped: 1, bytesFreed: oldRow!.bytes });
    } finally {
      info.mockRestore();
    }
    expect(await t.app.storage.head(oldKey)).toBeNull();
    expect(await t.app.storage.head(freshKey)).not.toBeNull();
    expect((await copies()).map((row) => row.key)).toEqual([freshKey]);
    const scrape = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS}` } });
    expect(scrape.body).toMatch(/^kruh_remote_media_copies\{measure="copies"\} \d+$/m);

    // The next reader gets the picture again, fetched anew from its server through the guard.
    const again = await t.app.inject({ method: 'GET', url: corn });
    expect(again.statusCode).toBe(200);
    expect(again.headers['content-type']).toBe('image/webp');
    expect(fetches('/corn.png')).toBe(before + 2);
    expect(await t.app.storage.head(oldKey)).not.toBeNull();
    const [refetched] = (await copies()).filter((row) => row.key === oldKey);
    expect(refetched!.fetched_at).toBeGreaterThanOrEqual(now);
    // And keeps it: a later read asks its server nothing.
    expect((await t.app.inject({ method: 'GET', url: corn })).statusCode).toBe(200);
    expect(fetches('/corn.png')).toBe(before + 2);
  });
});
