import { type Context, type Federation, createFederation } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { Accept, Announce, Create, Delete, Endpoints, Follow, Group, Image, Like, Note, Person, Reject, Undo, Update } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Post } from '#core/api/posts';
import { profilesApi } from '#core/api/profiles';
import { appPaths } from '#core/app-paths';
import packageJson from '../../../../package.json' with { type: 'json' };
import { avatarUrl } from '../../policy/media-urls.js';
import { keyPairsOf } from '../remote/actor-keys.js';
import { DatabaseKvStore, KEY_CACHE_PREFIX } from './kv-store.js';
import { ACTOR_PATH, INSTANCE_ACTOR_ID } from '../remote/actor-path.js';
import { instanceActor, isInstanceName } from './instance-actor.js';
import { guardedLoader } from '../remote/remote-refresh.js';
import { escapeHtml } from './html.js';
import { knownContextLoader } from '../remote/document-loader.js';
import { chargeSenders } from './inbound/inbox-guard.js';
import { acceptFollow } from './inbound/follows.js';
import { onAnnounce } from './inbound/announce.js';
import { onLike } from './inbound/likes.js';
import { onCreate } from './inbound/store-note.js';
import { onUndo } from './inbound/undo.js';
import { onDelete, onUpdate } from './inbound/update-delete.js';
import { followAccepted, followRejected } from './inbound/follow-replies.js';
import { readAsVisitor } from '../syndication/visitor-read.js';
import { type LocalActor, actorById, actorByName, remoteFollowersOf, usageCounts, visiblePostCount } from './federation.repository.js';
import { NOTE_PATH, type NoteAddresses, createOf, noteOf, remoteMentionsOf } from './post-note.js';
import { communitiesOfPost } from '../remote/remote-communities.js';
import { postAsVisitor } from './visitor-reads.js';

/**
 * The instance's ActivityPub side, built on Fedify: WebFinger, NodeInfo, and an actor per public
 * user (Person) and public group (Group). An actor's address carries its id, not its name, so it
 * stays the same for other servers whatever the name; the readable page is the profile's or
 * group's own (`url`), where a browser asking for the actor's address is sent.
 */

export { ACTOR_PATH, actorUrl } from '../remote/actor-path.js';
export const SHARED_INBOX_PATH = '/ap/inbox';
export const NODEINFO_PATH = '/nodeinfo/2.1';

/** How many activities a page of an outbox holds. */
export const OUTBOX_PAGE = 20;

export const SOFTWARE = { name: 'kruh', version: packageJson.version } as const;

/** A bio or description as the HTML an actor's summary is read as, line breaks kept. */
const summaryOf = (text: string) => (text.trim() ? escapeHtml(text).replace(/\r?\n/g, '<br>') : null);

/** The app's page of an actor: its profile or its group. */
export const pageOf = (actor: LocalActor) => (actor.kind === 'user' ? appPaths.user(actor.name) : appPaths.group(actor.name));

/**
 * A handle's name as written in an `acct:` URI, where characters a name may hold (a space) are
 * percent-encoded.
 */
function handleName(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/**
 * A post the fediverse may read: what a visitor reads of it (visitor-reads.ts), by an author whose
 * actor is public (a Note's author must be an actor another server can fetch).
 */
export async function visiblePost(app: FastifyInstance, id: string): Promise<Post | null> {
  const post = await postAsVisitor(app, id);
  return post && (await actorById(app.db, post.author.pfp))?.kind === 'user' ? post : null;
}

/**
 * What Fedify reads other servers with: through the outgoing-request guard, and never from a
 * blocked domain, so a document there (a key, an actor, an object an activity names) is not even
 * read; each GET signed by the instance actor, as servers in authorized-fetch mode require.
 */
export const documentLoaderOf = (app: FastifyInstance) => guardedLoader(app);

export function buildFederation(app: FastifyInstance): Federation<void> {
  const origin = app.config.publicUrl;
  const absolute = (path: string) => new URL(path, origin);
  const federation = createFederation<void>({
    kv: new DatabaseKvStore(app.db),
    // Named here so the store gives the keys it caches their lifetime (kv-store.ts).
    kvPrefixes: { publicKey: KEY_CACHE_PREFIX },
    origin,
    documentLoaderFactory: () => documentLoaderOf(app),
    // Fedify reads with this one what is fetched on a local actor's behalf (a signer's key at a
    // personal inbox), signed with that actor's key; its own would use the global fetch.
    authenticatedDocumentLoaderFactory: (identity) => guardedLoader(app, undefined, async () => identity),
    // JSON-LD contexts are never fetched, only the known ones read (see knownContextLoader).
    contextLoaderFactory: () => knownContextLoader,
  });

  async function actorDocument(ctx: Context<void>, actor: LocalActor) {
    const keys = await ctx.getActorKeyPairs(actor.id);
    const values = {
      id: ctx.getActorUri(actor.id),
      preferredUsername: actor.name,
      name: actor.name,
      summary: summaryOf(actor.about),
      icon: new Image({ url: absolute(avatarUrl(actor.kind === 'user' ? 'pfp' : 'gp', actor.id, actor.pictureVersion)), mediaType: 'image/jpeg' }),
      url: absolute(pageOf(actor)),
      inbox: ctx.getInboxUri(actor.id),
      outbox: ctx.getOutboxUri(actor.id),
      followers: ctx.getFollowersUri(actor.id),
      following: ctx.getFollowingUri(actor.id),
      endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
      manuallyApprovesFollowers: false,
      // Mastodon reads a missing `discoverable` or `indexable` as no: said outright, as each chose.
      discoverable: actor.discoverable,
      indexable: actor.kind === 'user' ? actor.indexable : null,
      published: Temporal.Instant.fromEpochMilliseconds(actor.since),
      publicKey: keys[0]?.cryptographicKey ?? null,
      assertionMethods: keys.map((key) => key.multikey),
    };
    return actor.kind === 'user' ? new Person(values) : new Group(values);
  }

  federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      if (identifier === INSTANCE_ACTOR_ID) return instanceActor(ctx, app.config);
      const actor = await actorById(app.db, identifier);
      return actor ? actorDocument(ctx, actor) : null;
    })
    .mapHandle(async (_ctx, handle) => {
      if (isInstanceName(app.config, handle)) return INSTANCE_ACTOR_ID;
      const name = handleName(handle);
      return name ? ((await actorByName(app.db, name))?.id ?? null) : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) =>
      identifier === INSTANCE_ACTOR_ID || (await actorById(app.db, identifier)) ? keyPairsOf(app.db, identifier) : [],
    );

  async function addressesOf(ctx: Context<void>, post: Post): Promise<NoteAddresses> {
    const author = post.author.pfp;
    return {
      origin,
      note: ctx.getObjectUri(Note, { id: post._id }),
      author: ctx.getActorUri(author),
      followers: ctx.getFollowersUri(author),
      actor: (id) => ctx.getActorUri(id),
      remoteMentions: await remoteMentionsOf(app.db, post),
      communities: await communitiesOfPost(app.db, post._id),
    };
  }

  // A post is read as a visitor reads it from the API, so the fediverse never sees more than a
  // visitor could: a private group's post, a suspended author's or a deleted one is not there.
  federation.setObjectDispatcher(Note, NOTE_PATH, async (ctx, { id }) => {
    const post = await visiblePost(app, id);
    return post ? noteOf(post, await addressesOf(ctx, post)) : null;
  });

  // A user's outbox is their posts a visitor may read, newest first, a page of the profile's list
  // per page of the collection. A group's stays empty: its posts are its members'.
  federation
    .setOutboxDispatcher(`${ACTOR_PATH}/outbox`, async (ctx, identifier, cursor) => {
      const actor = await actorById(app.db, identifier);
      if (!actor) return null;
      if (actor.kind === 'group' || cursor === null) return { items: [] };
      const page = Number(cursor);
      if (!Number.isInteger(page) || page < 1) return null;
      const list = await readAsVisitor(app, profilesApi.posts, { username: actor.name }, { page, limit: OUTBOX_PAGE, sort: 'newest' });
      if (!list) return null;
      const items = await Promise.all(
        list.posts.map(async (post) => {
          const at = await addressesOf(ctx, post);
          return createOf(noteOf(post, at), post, at);
        }),
      );
      return { items, nextCursor: list.hasMore ? String(page + 1) : null, prevCursor: page > 1 ? String(page - 1) : null };
    })
    .setCounter(async (_ctx, identifier) => {
      const actor = await actorById(app.db, identifier);
      return actor?.kind === 'user' ? visiblePostCount(app.db, actor.id) : 0;
    })
    // Only a user's outbox is paged; an unknown actor's falls through to the dispatcher's 404.
    .setFirstCursor(async (_ctx, identifier) => ((await actorById(app.db, identifier))?.kind === 'user' ? '1' : null));

  // The followers are the remote actors whose Follow was accepted; nothing is followed yet.
  federation
    .setFollowersDispatcher(`${ACTOR_PATH}/followers`, async (_ctx, identifier) => {
      if (!(await actorById(app.db, identifier))) return null;
      const followers = await remoteFollowersOf(app.db, identifier);
      return {
        items: followers.map((follower) => ({
          id: new URL(follower.id),
          inboxId: new URL(follower.inbox),
          endpoints: { sharedInbox: follower.shared_inbox ? new URL(follower.shared_inbox) : null },
        })),
      };
    })
    .setCounter(async (_ctx, identifier) => ((await actorById(app.db, identifier)) ? (await remoteFollowersOf(app.db, identifier)).length : 0));
  federation
    .setFollowingDispatcher(`${ACTOR_PATH}/following`, async (_ctx, identifier) => ((await actorById(app.db, identifier)) ? { items: [] } : null))
    .setCounter(() => 0);
  // A sender's server is charged for each activity once Fedify has verified who sent it.
  chargeSenders(app, federation.setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH))
    .on(Follow, (ctx, follow) => acceptFollow(app, ctx, follow))
    .on(Undo, (ctx, undo) => onUndo(app, ctx, undo))
    .on(Create, (ctx, create) => onCreate(app, ctx, create))
    .on(Update, (ctx, update) => onUpdate(app, ctx, update))
    .on(Delete, (ctx, activity) => onDelete(app, ctx, activity))
    .on(Like, (ctx, like) => onLike(app, ctx, like))
    .on(Announce, (ctx, announce) => onAnnounce(app, ctx, announce))
    .on(Accept, (ctx, accept) => followAccepted(app, ctx, accept))
    .on(Reject, (ctx, reject) => followRejected(app, ctx, reject));

  federation.setNodeInfoDispatcher(NODEINFO_PATH, async () => {
    const usage = await usageCounts(app.db);
    return {
      software: { name: SOFTWARE.name, version: SOFTWARE.version },
      protocols: ['activitypub'],
      openRegistrations: true,
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: usage.comments },
    };
  });

  return federation;
}
