import { exportJwk, generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { Executor } from '../../db/schema.js';
import { type StoredKey, actorKeys, addActorKey } from './actor-keys.repository.js';

type KeyPair = Awaited<ReturnType<typeof generateCryptoKeyPair>>;
type Jwk = Parameters<typeof importJwk>[0];

/** Makes a new key pair of one algorithm: Fedify's generator, unless the app was built with another (tests hand out keys made beforehand). */
export type MakeKeyPair = (algorithm: (typeof KEY_ALGORITHMS)[number]) => Promise<KeyPair>;

/** A new pair: RSA of 4096 bits (about a second of CPU) or Ed25519. */
export const generateKeyPair: MakeKeyPair = (algorithm) => generateCryptoKeyPair(algorithm);

declare module 'fastify' {
  interface FastifyInstance {
    makeKeyPair: MakeKeyPair;
  }
}

/** What keeps an actor's keys: the app's database, and how it makes a missing pair. */
export interface KeyKeeper {
  db: Executor;
  makeKeyPair: MakeKeyPair;
}

/**
 * RSA first: Mastodon and most servers verify HTTP Signatures with the first key (publicKey);
 * Ed25519 is for object proofs (assertionMethod) and newer signature schemes.
 */
export const KEY_ALGORITHMS = ['RSASSA-PKCS1-v1_5', 'Ed25519'] as const;

/**
 * The pairs being made in this process, by database and actor: a post's deliveries all start at
 * once, and each making its own RSA pair before the first is stored costs the machine seconds of
 * CPU for keys the database then throws away.
 */
const making = new WeakMap<Executor, Map<string, Promise<void>>>();

async function makeMissing({ db, makeKeyPair }: KeyKeeper, actorId: string, stored: StoredKey[]): Promise<void> {
  const missing = KEY_ALGORITHMS.filter((algorithm) => !stored.some((key) => key.algorithm === algorithm));
  for (const algorithm of missing) {
    const pair = await makeKeyPair(algorithm);
    const [publicKey, privateKey] = await Promise.all([exportJwk(pair.publicKey), exportJwk(pair.privateKey)]);
    await addActorKey(db, actorId, { algorithm, public_key: JSON.stringify(publicKey), private_key: JSON.stringify(privateKey) }, Date.now());
  }
}

/**
 * An actor's key pairs, made and stored the first time they are asked for. Two processes asking at
 * once may both make a pair; the first stored wins and both read it back, so the instance never
 * shows two different keys for one actor. Within a process, callers asking at once wait for one pair.
 */
export async function keyPairsOf(keeper: KeyKeeper, actorId: string): Promise<KeyPair[]> {
  const { db } = keeper;
  let stored = await actorKeys(db, actorId);
  if (KEY_ALGORITHMS.some((algorithm) => !stored.some((key) => key.algorithm === algorithm))) {
    let ofDb = making.get(db);
    if (!ofDb) making.set(db, (ofDb = new Map()));
    const pending = ofDb;
    let made = pending.get(actorId);
    if (!made) {
      made = makeMissing(keeper, actorId, stored).finally(() => pending.delete(actorId));
      pending.set(actorId, made);
    }
    await made;
    stored = await actorKeys(db, actorId);
  }
  return Promise.all(
    KEY_ALGORITHMS.map(async (algorithm) => {
      const key = stored.find((row) => row.algorithm === algorithm);
      if (!key) throw new Error(`federation key ${algorithm} of ${actorId} was not stored`);
      const [publicKey, privateKey] = await Promise.all([importJwk(JSON.parse(key.public_key) as Jwk, 'public'), importJwk(JSON.parse(key.private_key) as Jwk, 'private')]);
      return { publicKey, privateKey };
    }),
  );
}
