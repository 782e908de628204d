import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDueJobs } from '../../src/lib/jobs/worker';
import { type FakeActor, type FakeFediverse, PUBLIC, deliverToInbox, startFakeFediverse } from '../helpers/fake-fediverse';
import { type TestUser, call, createPost, createUser } from '../helpers/fixtures';
import { useTestApp } from '../helpers/test-app';

/**
 * The names remote actors give themselves are shown beside this instance's own people, in every
 * list and notification, so they keep the rules names keep here: an actor whose name hides or
 * turns text around, or holds an `@` or a space, is not stored, whether it writes to an inbox or is
 * searched for. Its bio loses such characters. And one name on one server is one account: when two
 * actors of a server claim it, the server's WebFinger says whose it is.
 */

const ORIGIN = 'https://kruh.example';
const INBOX = '/ap/inbox';

describe('remote actors’ names', () => {
  const t = useTestApp({ FEDERATION: 'true', FEDERATION_ALLOW_HTTP: 'true', PUBLIC_URL: ORIGIN });
  let fedi: FakeFediverse;
  let alice: TestUser;

  beforeAll(async () => {
    fedi = await startFakeFediverse();
    alice = await createUser(t.app, { username: 'alice' });
  });
  afterAll(async () => {
    await fedi.close();
  });

  const localPost = (id: string) => `${ORIGIN}/ap/posts/${id}`;
  /** A reply by the actor to a new post of Alice's, delivered; the post and the reply's id. */
  async function replyFrom(actor: FakeActor) {
    const post = await createPost(t.app, alice, { text: 'what do you grow?' });
    const note = { id: `${actor.id}/notes/${randomUUID()}`, type: 'Note', attributedTo: actor.id, to: [PUBLIC], content: '<p>beans</p>', inReplyTo: localPost(post.id) };
    const create = { id: `${actor.id}/activities/${randomUUID()}`, type: 'Create', actor: actor.id, to: [PUBLIC], object: note };
    expect((await deliverToInbox(t.app, INBOX, create, actor)).statusCode).toBe(202);
    return { post: post.id, note: note.id };
  }
  /** Serves the actor's document with these fields changed. */
  async function reshape(actor: FakeActor, changes: Record<string, unknown>) {
    const document = (await (await fetch(actor.id)).json()) as Record<string, unknown>;
    fedi.serve(new URL(actor.id).pathname, { ...document, ...changes });
  }
  const accountOfActor = async (actorId: string) =>
    (await t.app.db.selectFrom('remote_actors').innerJoin('users', 'users.id', 'remote_actors.user_id').select(['users.id', 'users.username', 'users.bio', 'remote_actors.handle']).where('remote_actors.id', '=', actorId).executeTakeFirst()) ?? null;
  const commentAuthor = async (apId: string) => (await t.app.db.selectFrom('comments').select('author_id').where('ap_id', '=', apId).executeTakeFirst())?.author_id ?? null;
  const notificationsOf = async (userId: string) => {
    await runDueJobs(t.app);
    return t.app.db.selectFrom('notifications').select(['type', 'actor_id']).where('user_id', '=', userId).execute();
  };
  const names = async (query: string) => {
    const res = await call(t.app, alice, { method: 'GET', url: `/api/search/for/users?query=${encodeURIComponent(query)}` });
    expect(res.statusCode).toBe(200);
    return (res.json() as { userList: Array<{ username: string }> }).userList.map((u) => u.username);
  };

  describe('the rules of names', () => {
    it('refuses an actor whose name turns text around or hides, writing to an inbox: not stored, its reply dropped, nobody told', async () => {
      const before = await notificationsOf(alice.id);
      for (const [path, name] of [
        ['reversed', 'admin\u202E@host \u200B'],
        ['override', 'adm\u202Ein'],
        ['wide', '\uFF41dmin'],
      ] as const) {
        const actor = await fedi.actor(path);
        await reshape(actor, { preferredUsername: name });
        const { note } = await replyFrom(actor);
        expect(await accountOfActor(actor.id), name).toBeNull();
        expect(await commentAuthor(note), name).toBeNull();
      }
      const stored = await t.app.db.selectFrom('users').select('username').where('username', 'like', `%@${fedi.host}`).execute();
      expect(stored).toEqual([]);
      expect(await notificationsOf(alice.id)).toEqual(before);
    });

    it('refuses such an actor’s Follow too', async () => {
      const actor = await fedi.actor('follower');
      await reshape(actor, { preferredUsername: 'fol\u2066lower' });
      const follow = { id: `${actor.id}/follows/${randomUUID()}`, type: 'Follow', actor: actor.id, object: `${ORIGIN}/ap/actors/${alice.id}` };
      expect((await deliverToInbox(t.app, `/ap/actors/${alice.id}/inbox`, follow, actor)).statusCode).toBe(202);
      expect(await t.app.db.selectFrom('remote_actors').select('id').where('id', '=', actor.id).execute()).toEqual([]);
    });

    it('finds nobody for a handle whose actor names itself against the rules, and stores nothing', async () => {
      const actor = await fedi.actor('sneaky');
      await reshape(actor, { preferredUsername: 'sne\u202Eaky' });
      expect(await names(`@sneaky@${fedi.host}`)).toEqual([]);
      expect(await accountOfActor(actor.id)).toBeNull();
    });

    it('takes a name as a Mastodon or Lemmy server gives it, and keeps a bio without what hides or turns text around', async () => {
      const actor = await fedi.actor('Zoe_van-Dyk.2', { summary: '<p>I grow \u202Ebeans\u202C and \u2067peas\u200B\u2069 🧑\u200D🌾</p>' });
      const { note } = await replyFrom(actor);
      const account = await accountOfActor(actor.id);
      expect(account).toMatchObject({ username: `Zoe_van-Dyk.2@${fedi.host}`, bio: 'I grow beans and peas 🧑\u200D🌾' });
      expect(await commentAuthor(note)).toBe(account!.id);
      expect(await names(`@zoe_van-dyk.2@${fedi.host}`)).toEqual([`Zoe_van-Dyk.2@${fedi.host}`]);
    });
  });

  describe('two actors of one server claiming one name', () => {
    it('gives the name to the actor the server’s WebFinger names; the other keeps its account under a name of its own', async () => {
      // The impostor comes first and takes the name.
      const impostor = await fedi.actor('people-bob');
      await reshape(impostor, { preferredUsername: 'bob' });
      const first = await replyFrom(impostor);
      const squatted = await accountOfActor(impostor.id);
      expect(squatted?.username).toBe(`bob@${fedi.host}`);

      // Then the one WebFinger names for acct:bob.
      const bob = await fedi.actor('bob');
      const second = await replyFrom(bob);
      const real = await accountOfActor(bob.id);
      expect(real).toMatchObject({ username: `bob@${fedi.host}`, handle: `@bob@${fedi.host}` });
      expect(await commentAuthor(second.note)).toBe(real!.id);

      const aside = await accountOfActor(impostor.id);
      expect(aside?.id).toBe(squatted!.id);
      expect(aside?.username).toMatch(new RegExp(`^bob~[0-9a-f]{8}@${fedi.host.replace(/\./g, '\\.')}$`));
      expect(aside?.handle).toBe(`@${aside!.username}`);
      // What it wrote stays its own.
      expect(await commentAuthor(first.note)).toBe(squatted!.id);

      // Writing again, it keeps the name it was given; the name stays Bob's.
      const third = await replyFrom(impostor);
      expect(await commentAuthor(third.note)).toBe(squatted!.id);
      expect((await accountOfActor(impostor.id))?.username).toBe(aside!.username);
      expect((await accountOfActor(bob.id))?.username).toBe(`bob@${fedi.host}`);
      expect(await names(`@bob@${fedi.host}`)).toEqual([`bob@${fedi.host}`]);
    });

    it('refuses a new actor claiming a name the server’s WebFinger gives another', async () => {
      const another = await fedi.actor('users-bob-again');
      await reshape(another, { preferredUsername: 'BOB' });
      const { note } = await replyFrom(another);
      expect(await accountOfActor(another.id)).toBeNull();
      expect(await commentAuthor(note)).toBeNull();
      expect(fedi.asked).toContain(`/.well-known/webfinger?resource=${encodeURIComponent(`acct:bob@${fedi.host}`)}`);
    });
  });
});
