import type { FastifyInstance } from 'fastify';
import { KEY_ALGORITHMS, keyPairsOf } from './actor-keys.js';
import { actorKeys } from './actor-keys.repository.js';
import { INSTANCE_ACTOR_ID, actorUrl } from './actor-path.js';
import type { Signer, SigningKey } from './document-loader.js';

/**
 * The instance actor's key, which signs every document the instance reads from other servers (why,
 * and the actor's own document, in federation's instance-actor.ts).
 */

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
    keyPairsOf(app, INSTANCE_ACTOR_ID).catch((error: unknown) => {
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
  const [rsa] = await keyPairsOf(app, INSTANCE_ACTOR_ID);
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
