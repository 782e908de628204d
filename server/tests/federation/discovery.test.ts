import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGroup, createPost, createUser, type TestUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';
import { newId } from '../../src/lib/ids';
import { remoteAccountFor } from '../../src/modules/remote/remote-accounts';
import { loadConfig } from '../../src/config';
import { openSibling } from '../notifications/support';
import packageJson from '../../../package.json' with { type: 'json' };

/**
 * How another server finds the instance's people and groups: WebFinger, NodeInfo and the
 * ActivityPub actor documents, with their signing keys. Only what a visitor may see is found.
 */

const ORIGIN = 'https://kruh.example';
const AP = { accept: 'application/activity+json' };
const webDir = mkdtempSync(join(tmpdir(), 'kruh-web-'));
writeFileSync(join(webDir, 'index.html'), '<!doctype html><html><head><title>Kruh</title></head><body><div id="root"></div></body></html>');
afterAll(() => rmSync(webDir, { recursive: true, force: true }));

const finger = (app: ReturnType<typeof useTestApp>['app'], resource: string) =>
  app.inject({ method: 'GET', url: `/.well-known/webfinger?resource=${encodeURIComponent(resource)}` });

interface Actor {
  '@context': unknown;
  id: string;
  type: string;
  preferredUsername: string;
  summary?: string;
  url: string;
  inbox: string;
  outbox: string;
  followers: string;
  following: string;
  icon: { type: string; url: string };
  publicKey: { id: string; owner: string; publicKeyPem: string };
  assertionMethod: { id: string; type: string; publicKeyMultibase: string }[];
}

describe('federation discovery', () => {
  const t = useTestApp({ FEDERATION: 'true', PUBLIC_URL: ORIGIN, WEB_DIR: webDir });
  let alice: TestUser;
  let suspended: TestUser;
  let garden: { id: string; name: string };
  let secret: { id: string; name: string };

  beforeAll(async () => {
    alice = await createUser(t.app, { username: 'alice' });
    await t.app.db.updateTable('users').set({ bio: 'Grows <beans>\nand peas' }).where('id', '=', alice.id).execute();
    suspended = await createUser(t.app, { username: 'gone' });
    await t.app.db.updateTable('users').set({ suspended_at: Date.now() }).where('id', '=', suspended.id).execute();
    garden = await createGroup(t.app, alice, { name: 'garden' });
    secret = await createGroup(t.app, alice, { name: 'hideout', isPrivate: true });
    const open = await createPost(t.app, alice, { text: 'public' });
    await createPost(t.app, alice, { text: 'in the garden', groupIds: [garden.id] });
    const closed = await createPost(t.app, alice, { text: 'members only', groupIds: [secret.id] });
    for (const post of [open, closed]) {
      await t.app.db
        .insertInto('comments')
        .values({ id: newId(), post_id: post.id, parent_comment_id: null, author_id: alice.id, text: 'a comment', search_text: 'a comment', created_at: Date.now() })
        .execute();
    }
    await createPost(t.app, suspended, { text: 'hidden with its author' });
  });

  async function actorOf(resource: string): Promise<Actor> {
    const jrd = (await finger(t.app, resource)).json() as { links: { rel: string; href: string }[] };
    const self = jrd.links.find((link) => link.rel === 'self')!.href;
    const res = await t.app.inject({ method: 'GET', url: new URL(self).pathname, headers: AP });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/activity\+json/);
    return res.json() as Actor;
  }

  it('finds a user by acct: and links the actor and the profile page', async () => {
    const res = await finger(t.app, 'acct:alice@kruh.example');
    expect(res.statusCode).toBe(200);
    const jrd = res.json() as { subject: string; links: { rel: string; type?: string; href: string }[] };
    expect(jrd.subject).toBe('acct:alice@kruh.example');
    expect(jrd.links).toContainEqual({ rel: 'self', type: 'application/activity+json', href: `${ORIGIN}/ap/actors/${alice.id}` });
    expect(jrd.links).toContainEqual({ rel: 'http://webfinger.net/rel/profile-page', href: `${ORIGIN}/u/alice` });
  });

  it('finds a public group by its name, in any case', async () => {
    const res = await finger(t.app, 'acct:Garden@kruh.example');
    expect(res.statusCode).toBe(200);
    const jrd = res.json() as { links: { rel: string; href: string }[] };
    expect(jrd.links.find((link) => link.rel === 'self')?.href).toBe(`${ORIGIN}/ap/actors/${garden.id}`);
  });

  it('never names a private group, a suspended user, an unknown name or another host', async () => {
    for (const resource of ['acct:hideout@kruh.example', 'acct:gone@kruh.example', 'acct:nobody@kruh.example', 'acct:alice@elsewhere.example']) {
      expect((await finger(t.app, resource)).statusCode, resource).toBe(404);
    }
    for (const id of [secret.id, suspended.id]) {
      expect((await t.app.inject({ method: 'GET', url: `/ap/actors/${id}`, headers: AP })).statusCode).toBe(404);
      expect((await t.app.inject({ method: 'GET', url: `/ap/actors/${id}/outbox`, headers: AP })).statusCode).toBe(404);
    }
  });

  it("serves a user's Person with its page, picture, collections and keys", async () => {
    const person = await actorOf('acct:alice@kruh.example');
    expect(person).toMatchObject({
      id: `${ORIGIN}/ap/actors/${alice.id}`,
      type: 'Person',
      preferredUsername: 'alice',
      summary: 'Grows &#60;beans&#62;<br>and peas',
      url: `${ORIGIN}/u/alice`,
      inbox: `${ORIGIN}/ap/actors/${alice.id}/inbox`,
      outbox: `${ORIGIN}/ap/actors/${alice.id}/outbox`,
      followers: `${ORIGIN}/ap/actors/${alice.id}/followers`,
      following: `${ORIGIN}/ap/actors/${alice.id}/following`,
    });
    expect(person.icon.url).toMatch(new RegExp(`^${ORIGIN}/media/pfp/${alice.id}\\.jpeg`));
    expect(person.publicKey.owner).toBe(person.id);
    expect(person.publicKey.publicKeyPem).toMatch(/^-----BEGIN PUBLIC KEY-----/);
    expect(person.assertionMethod.map((key) => key.type)).toEqual(['Multikey', 'Multikey']);
    // Her public post and the public group's are in her outbox; nothing follows or is followed yet.
    for (const [name, totalItems] of [['outbox', 2], ['followers', 0], ['following', 0]] as const) {
      const res = await t.app.inject({ method: 'GET', url: new URL(person[name]).pathname, headers: AP });
      expect(res.statusCode, name).toBe(200);
      expect(res.json(), name).toMatchObject({ type: 'OrderedCollection', totalItems });
    }
  });

  it("serves a public group's Group", async () => {
    const group = await actorOf('acct:garden@kruh.example');
    expect(group).toMatchObject({ id: `${ORIGIN}/ap/actors/${garden.id}`, type: 'Group', preferredUsername: 'garden', url: `${ORIGIN}/g/garden` });
    expect(group.icon.url).toMatch(new RegExp(`^${ORIGIN}/media/gp/${garden.id}\\.jpeg`));
  });

  it('answers the JSON-LD media type with the ActivityStreams profile too', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/ap/actors/${alice.id}`,
      headers: { accept: 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"' },
    });
    expect(res.statusCode).toBe(200);
    expect((res.json() as Actor).type).toBe('Person');
  });

  it("sends a browser from the actor's address to the app's page", async () => {
    const browser = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
    const res = await t.app.inject({ method: 'GET', url: `/ap/actors/${alice.id}`, headers: browser });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`${ORIGIN}/u/alice`);
    const page = await t.app.inject({ method: 'GET', url: new URL(res.headers.location as string).pathname, headers: { ...browser, 'accept-encoding': 'identity' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect((await t.app.inject({ method: 'GET', url: `/ap/actors/${garden.id}`, headers: browser })).headers.location).toBe(`${ORIGIN}/g/garden`);
    expect((await t.app.inject({ method: 'GET', url: `/ap/actors/${secret.id}`, headers: browser })).statusCode).toBe(404);
  });

  it("answers a fediverse server asking for a profile's or group's page with the actor's address", async () => {
    const ask = (url: string, accept: string) => t.app.inject({ method: 'GET', url, headers: { accept, 'accept-encoding': 'identity' } });
    const mastodon = 'application/activity+json, application/ld+json';
    expect((await ask('/u/alice', mastodon)).headers.location).toBe(`${ORIGIN}/ap/actors/${alice.id}`);
    expect((await ask('/u/Alice', mastodon)).statusCode).toBe(302);
    expect((await ask('/g/garden', mastodon)).headers.location).toBe(`${ORIGIN}/ap/actors/${garden.id}`);
    for (const url of ['/g/hideout', '/u/gone', '/u/nobody', '/u/garden', '/g/alice']) expect((await ask(url, mastodon)).statusCode, url).toBe(404);
    const page = await ask('/u/alice', 'text/html,application/xhtml+xml,*/*;q=0.8');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<div id="root">');
    expect((await ask('/u/alice', 'text/html, application/activity+json;q=0.5')).statusCode).toBe(200);
  });

  it('keeps each actor\'s keys in the database: the same on every request and in another process', async () => {
    const first = await actorOf('acct:alice@kruh.example');
    const again = await actorOf('acct:alice@kruh.example');
    expect(again.publicKey).toEqual(first.publicKey);
    expect(again.assertionMethod).toEqual(first.assertionMethod);
    const sibling = await openSibling(t);
    try {
      const res = await sibling.inject({ method: 'GET', url: `/ap/actors/${alice.id}`, headers: AP });
      expect((res.json() as Actor).publicKey).toEqual(first.publicKey);
      expect((res.json() as Actor).assertionMethod).toEqual(first.assertionMethod);
    } finally {
      await sibling.close();
    }
    const stored = await t.app.db.selectFrom('federation_keys').select('algorithm').where('actor_id', '=', alice.id).orderBy('algorithm').execute();
    expect(stored.map((row) => row.algorithm)).toEqual(['Ed25519', 'RSASSA-PKCS1-v1_5']);
  });

  it('takes no unsigned activity in an inbox', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/ap/actors/${alice.id}/inbox`,
      headers: { 'content-type': 'application/activity+json' },
      payload: JSON.stringify({ '@context': 'https://www.w3.org/ns/activitystreams', type: 'Follow', actor: 'https://remote.example/u/bob', object: `${ORIGIN}/ap/actors/${alice.id}` }),
    });
    expect(res.statusCode).toBe(401);
  });

  it('describes the instance with NodeInfo 2.1, counting only what a visitor may read', async () => {
    const index = await t.app.inject({ method: 'GET', url: '/.well-known/nodeinfo' });
    expect(index.statusCode).toBe(200);
    expect((index.json() as { links: unknown[] }).links).toEqual([
      expect.objectContaining({ rel: 'http://nodeinfo.diaspora.software/ns/schema/2.1', href: `${ORIGIN}/nodeinfo/2.1` }),
    ]);
    const res = await t.app.inject({ method: 'GET', url: '/nodeinfo/2.1' });
    expect(res.statusCode).toBe(200);
    const info = res.json() as {
      version: string;
      software: { name: string; version: string };
      protocols: string[];
      usage: { users: { total: number }; localPosts: number; localComments: number };
    };
    expect(info.version).toBe('2.1');
    expect(info.software).toMatchObject({ name: 'kruh', version: packageJson.version });
    expect(info.protocols).toEqual(['activitypub']);
    // alice only (the suspended account is not counted); her public post and the public group's.
    expect(info.usage.users.total).toBe(1);
    expect(info.usage.localPosts).toBe(2);
    expect(info.usage.localComments).toBe(1);
  });

  it("counts in NodeInfo's local posts and comments only what local people wrote, not what remote accounts did", async () => {
    const usage = async () => ((await t.app.inject({ method: 'GET', url: '/nodeinfo/2.1' })).json() as { usage: { localPosts: number; localComments: number } }).usage;
    const before = await usage();
    const remote = await remoteAccountFor(
      t.app.db,
      { id: 'https://remote.example/users/rita', inbox: 'https://remote.example/users/rita/inbox', sharedInbox: null, handle: '@rita@remote.example', url: null, bio: '' },
      Date.now(),
    );
    const remotePost = await createPost(t.app, { id: remote } as TestUser, { text: 'from afar' });
    await t.app.db.updateTable('posts').set({ ap_id: 'https://remote.example/notes/1' }).where('id', '=', remotePost.id).execute();
    const alicePost = (await t.app.db.selectFrom('posts').select('id').where('author_id', '=', alice.id).executeTakeFirstOrThrow()).id;
    await t.app.db
      .insertInto('comments')
      .values({ id: newId(), post_id: alicePost, parent_comment_id: null, author_id: remote, text: 'a reply from afar', search_text: 'a reply from afar', created_at: Date.now(), ap_id: 'https://remote.example/notes/2' })
      .execute();
    expect(await usage()).toMatchObject({ localPosts: before.localPosts, localComments: before.localComments });

    await createPost(t.app, alice, { text: 'one more from here' });
    expect(await usage()).toMatchObject({ localPosts: before.localPosts + 1, localComments: before.localComments });
  });
});

describe('federation turned off', () => {
  const t = useTestApp({ FEDERATION: 'false', PUBLIC_URL: ORIGIN, WEB_DIR: webDir });

  it('answers none of its paths, and the app never takes them for screens', async () => {
    const alice = await createUser(t.app, { username: 'alice' });
    for (const url of ['/.well-known/webfinger?resource=acct%3Aalice%40kruh.example', '/.well-known/nodeinfo', '/nodeinfo/2.1', `/ap/actors/${alice.id}`]) {
      for (const accept of [AP.accept, 'text/html']) {
        expect((await t.app.inject({ method: 'GET', url, headers: { accept } })).statusCode, `${url} ${accept}`).toBe(404);
      }
    }
  });
});

describe('FEDERATION, whether the instance federates', () => {
  const load = (env: Record<string, string>) => loadConfig({ JWT_SECRET: 'x'.repeat(32), ...env });

  it('is off unless turned on, and takes only true or false', () => {
    expect(load({}).federation).toBe(false);
    expect(load({ FEDERATION: 'true' }).federation).toBe(true);
    expect(() => load({ FEDERATION: 'yes' })).toThrow('FEDERATION must be true or false, got "yes"');
  });
});
