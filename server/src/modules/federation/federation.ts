import { type Context, type Federation, MemoryKvStore, createFederation } from '@fedify/fedify';
import { Endpoints, Group, Image, Person } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { appPaths } from '#core/app-paths';
import packageJson from '../../../../package.json' with { type: 'json' };
import { avatarUrl } from '../media/media-urls.js';
import { keyPairsOf } from './actor-keys.js';
import { egressDocumentLoader } from './document-loader.js';
import { type LocalActor, actorById, actorByName, usageCounts } from './federation.repository.js';

/**
 * The instance's ActivityPub side, built on Fedify: WebFinger, NodeInfo, and an actor per public
 * user (Person) and public group (Group). An actor's address carries its id, not its name, so it
 * stays the same for other servers whatever the name; the readable page is the profile's or
 * group's own (`url`), where a browser asking for the actor's address is sent.
 */

/** Where the actors and their collections live; one pattern for users and groups (ids never collide). */
export const ACTOR_PATH = '/ap/actors/{identifier}';
export const SHARED_INBOX_PATH = '/ap/inbox';
export const NODEINFO_PATH = '/nodeinfo/2.1';

/** The address of the actor of a user's or group's id (what ACTOR_PATH makes of it). */
export const actorUrl = (origin: string, id: string) => new URL(ACTOR_PATH.replace('{identifier}', encodeURIComponent(id)), origin).href;

export const SOFTWARE = { name: 'kruh', version: packageJson.version } as const;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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

export function buildFederation(app: FastifyInstance): Federation<void> {
  const origin = app.config.publicUrl;
  const absolute = (path: string) => new URL(path, origin);
  const federation = createFederation<void>({
    kv: new MemoryKvStore(),
    origin,
    documentLoaderFactory: () => egressDocumentLoader(app.egress, `Kruh/${SOFTWARE.version} (+${origin})`),
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
      publicKey: keys[0]?.cryptographicKey ?? null,
      assertionMethods: keys.map((key) => key.multikey),
    };
    return actor.kind === 'user' ? new Person(values) : new Group(values);
  }

  federation
    .setActorDispatcher(ACTOR_PATH, async (ctx, identifier) => {
      const actor = await actorById(app.db, identifier);
      return actor ? actorDocument(ctx, actor) : null;
    })
    .mapHandle(async (_ctx, handle) => {
      const name = handleName(handle);
      return name ? ((await actorByName(app.db, name))?.id ?? null) : null;
    })
    .setKeyPairsDispatcher(async (_ctx, identifier) => ((await actorById(app.db, identifier)) ? keyPairsOf(app.db, identifier) : []));

  // Nothing is delivered or received yet: the collections are there, valid and empty.
  const empty = async (_ctx: unknown, identifier: string) => ((await actorById(app.db, identifier)) ? { items: [] } : null);
  federation.setOutboxDispatcher(`${ACTOR_PATH}/outbox`, empty).setCounter(() => 0);
  federation.setFollowersDispatcher(`${ACTOR_PATH}/followers`, empty).setCounter(() => 0);
  federation.setFollowingDispatcher(`${ACTOR_PATH}/following`, empty).setCounter(() => 0);
  federation.setInboxListeners(`${ACTOR_PATH}/inbox`, SHARED_INBOX_PATH);

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
