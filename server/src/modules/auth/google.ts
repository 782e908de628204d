import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { type JWTPayload, createRemoteJWKSet, jwtVerify } from 'jose';
import { LIMITS } from '#core/limits';
import { validateUsername } from '#core/validation';
import { badRequest } from '../../lib/app-error.js';

const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

export interface GoogleIdentity {
  sub: string;
  /** The address, only when Google vouches for it (email_verified). */
  email: string | null;
  name: string | null;
}

type KeySet = ReturnType<typeof createRemoteJWKSet>;
// One key set per app: jose caches Google's keys in it and refetches only on an unknown key id.
const keySets = new WeakMap<FastifyInstance, KeySet>();

function keySet(app: FastifyInstance): KeySet {
  let keys = keySets.get(app);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(app.config.googleJwksUrl));
    keySets.set(app, keys);
  }
  return keys;
}

/** Checks a Google ID token (signature, audience, issuer, expiry); any failure is google_failed. */
export async function verifyGoogleToken(app: FastifyInstance, token: string): Promise<GoogleIdentity> {
  const audience = app.config.googleClientId;
  if (!audience || !token) throw badRequest('google_failed');
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, keySet(app), { audience, issuer: GOOGLE_ISSUERS, algorithms: ['RS256'] }));
  } catch (err) {
    app.log.info({ err }, 'Google token refused');
    throw badRequest('google_failed');
  }
  if (typeof payload.sub !== 'string' || payload.sub === '') throw badRequest('google_failed');
  const email = typeof payload.email === 'string' && payload.email_verified === true ? payload.email.trim().toLowerCase() : null;
  const name = typeof payload.name === 'string' ? payload.name : null;
  return { sub: payload.sub, email, name };
}

/** Room left for a numeric suffix when the plain name is taken. */
const SUFFIX_ROOM = 5;

/**
 * A valid username from the Google profile: the name (or the address's local part) reduced to
 * letters, digits, '.', '_' and '-', padded to the minimum length and cut to leave room for a
 * suffix. A name that still breaks a rule (profanity) falls back to "user".
 */
export function usernameBase(identity: Pick<GoogleIdentity, 'name' | 'email'>): string {
  const raw = identity.name?.trim() || identity.email?.split('@')[0] || '';
  let base = [...raw.normalize('NFKC').replace(/[^\p{L}\p{N}._-]+/gu, '')].slice(0, LIMITS.usernameMax - SUFFIX_ROOM).join('');
  if ([...base].length < LIMITS.usernameMin) base = `${base}user`;
  return validateUsername(base) === null ? base : 'user';
}

/** Names to try in order: the base, then the base with random digits. */
export function usernameCandidates(base: string, count = 8): string[] {
  const names = [base];
  for (let i = 0; i < count; i++) names.push(`${base}${randomBytes(3).readUIntBE(0, 3) % 10_000}`);
  names.push(`user${randomBytes(6).toString('hex')}`);
  return names;
}
