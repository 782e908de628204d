import { type Context, type Federation, createFederation } from '@fedify/fedify';
import { Accept, Announce, Create, Delete, Follow, Like, Note, Reject, Undo, Update } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Post } from '#core/api/posts';
import { profilesApi } from '#core/api/profiles';
import packageJson from '../../../../package.json' with { type: 'json' };
import { DatabaseKvStore, KEY_CACHE_PREFIX } from './kv-store.js';
import { ACTOR_PATH } from '../remote/actor-path.js';
import { guardedLoader } from '../remote/remote-refresh.js';
import { knownContextLoader } from '../remote/document-loader.js';
import { dispatchActors } from './actors/actor-dispatchers.js';
import { chargeSenders } from './inbound/inbox-guard.js';
import { acceptFollow } from './inbound/follows.js';
import { onAnnounce } from './inbound/announce.js';
import { onLike } from './inbound/likes.js';
import { onCreate } from './inbound/store-note.js';
import { onUndo } from './inbound/undo.js';
import { onDelete, onUpdate } from './inbound/update-delete.js';
import { followAccepted, followRejected } from './inbound/follow-replies.js';
import { readAsVisitor } from '../syndication/visitor-read.js';
import { registrationSettings } from '../auth/registration.service.js';
import { actorById, usageCounts, visiblePostCount } from './federation.repository.js';
import { NOTE_PATH, type NoteAddresses, createOf, noteOf, remoteMentionsOf } from './outbound/post-note.js';
import { communitiesOfPost } from '../remote/remote-communities.js';
import { postAsVisitor } from './visitor-reads.js';
import { instanceSettings } from '../instance/instance.service.js';
import { contextOf } from '../../lib/service-context.js';

/**
 * The instance's ActivityPub side, built on Fedify: the local actors (actors/), their posts as
 * Notes and their outboxes, the inbox listeners (inbound/) and NodeInfo.
 */

export { ACTOR_PATH, actorUrl } from '../remote/actor-path.js';
export const SHARED_INBOX_PATH = '/ap/inbox';
export const NODEINFO_PATH = '/nodeinfo/2.1';

/** How many activities a page of an outbox holds. */
export const OUTBOX_PAGE = 20;

export const SOFTWARE = { name: 'kruh', version: packageJson.version } as const;

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

  dispatchActors(app, federation);

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
    const [usage, registration, instance] = await Promise.all([usageCounts(app.db), registrationSettings(app.db, app.config), instanceSettings(contextOf(app))]);
    return {
      software: { name: SOFTWARE.name, version: SOFTWARE.version },
      protocols: ['activitypub'],
      // Only open sign-ups are open: one by approval or invitation is not, and the mode says which it is.
      openRegistrations: registration.mode === 'open',
      usage: { users: { total: usage.users }, localPosts: usage.posts, localComments: usage.comments },
      // The names other servers' directories read: nodeName and nodeDescription as most servers give them.
      metadata: {
        registrationMode: registration.mode,
        nodeName: instance.name,
        nodeDescription: instance.description,
        nodeAbout: instance.about,
        rules: instance.rules,
        maintainer: { email: instance.contact },
      },
    };
  });

  return federation;
}
