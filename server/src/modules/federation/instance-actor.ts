import type { Context } from '@fedify/fedify';
import { Application, Endpoints } from '@fedify/fedify/vocab';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { KEY_ALGORITHMS, keyPairsOf } from './actor-keys.js';
import { INSTANCE_ACTOR_ID, actorUrl } from './actor-path.js';
import type { Signer, SigningKey } from './document-loader.js';
import { actorKeys } from './federation.repository.js';

/**
 * The instance's own actor: an Application standing for the server, never a user. Its key signs
 * every document the instance reads from other servers, since servers in authorized-fetch mode
 * (GoToSocial by default, Mastodon with AUTHORIZED_FETCH) answer only a GET signed by an actor of
 * the asking server, and signing as a user would speak for someone who asked nothing. Named as
 * Mastodon names its own, `<host>@<host>`, so a server can find it by WebFinger too.
 */

/** The instance actor's name in WebFinger and its preferredUsername: the instance's host. */
const instanceName = (config: Config) => new URL(config.publicUrl).host;

/** Whether a WebFinger name is the instance actor's (a host matches in any case). */
export const isInstanceName = (config: Config, name: string) => name.toLowerCase() === instanceName(config).toLowerCase();

/** The instance actor's document: its key, the shared inbox, the app's front page. */
export async function instanceActor(ctx: Context<void>, config: Config): Promise<Application> {
  const keys = await ctx.getActorKeyPairs(INSTANCE_ACTOR_ID);
  return new Application({
    id: ctx.getActorUri(INSTANCE_ACTOR_ID),
    preferredUsername: instanceName(config),
    name: instanceName(config),
    url: new URL('/', config.publicUrl),
    inbox: ctx.getInboxUri(),
    endpoints: new Endpoints({ sharedInbox: ctx.getInboxUri() }),
    // Nobody follows a server's own actor; a Follow of it is never accepted.
    manuallyApprovesFollowers: true,
    publicKey: keys[0]?.cryptographicKey ?? null,
    assertionMethods: keys.map((key) => key.multikey),
  });
}

/** The instance actor's keys being made, per app, so they are made once however many fetches find them missing. */
const making = new WeakMap<FastifyInstance, Promise<unknown>>();

/**
 * Starts making the instance actor's keys unless they are there or being made (at start), without
 * waiting on it: an RSA key can take seconds to make on a busy machine, which neither the start nor
 * a fetch (a search within its deadline) should wait on.
 */
export function makeInstanceKeys(app: FastifyInstance): void {
  if (making.has(app)) return;
  making.set(
    app,
    keyPairsOf(app.db, INSTANCE_ACTOR_ID).catch((error: unknown) => {
      making.delete(app);
      app.log.warn({ err: error }, 'instance actor keys not made');
    }),
  );
}

/**
 * The instance actor's RSA key, the one HTTP Signatures take (Fedify publishes an actor's first key
 * as `#main-key`). Null while the keys are still being made, the first moments of a new instance:
 * a fetch then goes unsigned rather than waiting.
 */
async function instanceSigningKey(app: FastifyInstance): Promise<SigningKey | null> {
  if ((await actorKeys(app.db, INSTANCE_ACTOR_ID)).length < KEY_ALGORITHMS.length) {
    makeInstanceKeys(app);
    return null;
  }
  const [rsa] = await keyPairsOf(app.db, INSTANCE_ACTOR_ID);
  return rsa ? { keyId: new URL('#main-key', actorUrl(app.config.publicUrl, INSTANCE_ACTOR_ID)), privateKey: rsa.privateKey } : null;
}

/** Signs with the instance actor's key, read once per signer (a loader's lifetime) and again after a failure. */
export function instanceSigner(app: FastifyInstance): Signer {
  let key: Promise<SigningKey | null> | undefined;
  return () =>
    (key ??= instanceSigningKey(app).catch((error: unknown) => {
      key = undefined;
      throw error;
    }));
}
