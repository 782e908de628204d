import { readFileSync } from 'node:fs';
import { generateCryptoKeyPair, importJwk } from '@fedify/fedify';
import type { MakeKeyPair } from '../../src/modules/remote/actor-keys';

type Jwk = Parameters<typeof importJwk>[0];

/**
 * RSA-4096 pairs made once (by Fedify's generator, kept as JWK), handed out in turn to the actors
 * and fake servers of the tests: making one costs about a second of CPU, and the federation
 * tests need hundreds a run. A process hands out each pair once before any comes round again, so
 * the actors of a test file never share a key as long as it makes fewer than there are pairs
 * (the most any file takes is about a third of them). Ed25519 pairs cost next to nothing and are made.
 */
const RSA_PAIRS = JSON.parse(readFileSync(new URL('./test-keys.json', import.meta.url), 'utf8')) as Jwk[];
let next = 0;

/** The next RSA pair of the set, imported as a stored key is. */
export async function testRsaKeyPair(): Promise<Awaited<ReturnType<typeof generateCryptoKeyPair>>> {
  const privateJwk = RSA_PAIRS[next++ % RSA_PAIRS.length]!;
  const { kty, n, e, alg } = privateJwk as Record<string, string>;
  const [publicKey, privateKey] = await Promise.all([importJwk({ kty, n, e, alg } as Jwk, 'public'), importJwk(privateJwk, 'private')]);
  return { publicKey, privateKey };
}

/** How a test app makes its actors' keys: RSA from the set above. */
export const makeTestKeyPair: MakeKeyPair = (algorithm) => (algorithm === 'RSASSA-PKCS1-v1_5' ? testRsaKeyPair() : generateCryptoKeyPair(algorithm));
