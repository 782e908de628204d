import type { Context, Federation } from '@fedify/fedify';
import { Temporal } from '@js-temporal/polyfill';
import { Endpoints, Group, Image, Person } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import { appPaths } from '#core/app-paths';
import { avatarUrl } from '../../../policy/media-urls.js';
import { keyPairsOf } from '../../remote/actor-keys.js';
import { ACTOR_PATH, INSTANCE_ACTOR_ID } from '../../remote/actor-path.js';
import { type LocalActor, actorById, actorByName, remoteFollowersOf } from '../federation.repository.js';
import { escapeHtml } from '../html.js';
import { instanceActor, isInstanceName } from './instance-actor.js';

/**
 * The instance's local actors as other servers read them: a Person per public user, a Group per
 * public group and the instance's own Application, found by WebFinger under their names, with
 * their keys and their followers. An actor's address carries its id, not its name, so it stays the
 * same for other servers whatever the name; the readable page is the profile's or group's own
 * (`url`), where a browser asking for the actor's address is sent.
 */

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

/** Answers for the actors, their WebFinger names, keys, followers and following on the federation. */
export function dispatchActors(app: FastifyInstance, federation: Federation<void>): void {
  const absolute = (path: string) => new URL(path, app.config.publicUrl);

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
      identifier === INSTANCE_ACTOR_ID || (await actorById(app.db, identifier)) ? keyPairsOf(app, identifier) : [],
    );

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
}
