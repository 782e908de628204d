import {
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { PasskeyLoginBody, Session } from '#core/api/auth';
import { LIMITS } from '#core/limits';
import type { PasskeyItem, RegisterBody } from '#core/api/passkeys';
import type { AuthenticationOptionsReply, RegistrationOptionsReply } from '#core/api/webauthn';
import type { Executor } from '../../db/schema.js';
import type { Viewer } from '../../plugins/auth.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import { takeSlot } from '../../lib/rate-limit.js';
import type { ServiceContext } from '../../lib/service-context.js';
import { admitUser, findAccount } from '../auth/auth.service.js';
import { toPasskeyItem, transportsOf } from './passkeys.mapper.js';
import {
  type ChallengeRow,
  deleteExpiredChallenges,
  deleteUserPasskey,
  findPasskeyByCredentialId,
  insertChallenge,
  insertPasskey,
  listUserPasskeys,
  markPasskeyUsed,
  takeChallenge,
} from './passkeys.repository.js';

/** How long a challenge may be answered: enough to touch a key or unlock a phone, not to keep. */
export const CHALLENGE_MS = 5 * 60 * 1000;
const RP_NAME = 'Kruh';

/** The page a passkey is made or used on: its origin, and its host as the relying party id. */
export interface RelyingParty {
  origin: string;
  rpId: string;
}

function originOf(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

/**
 * The page asking: the configured public origin, or the origin this server was reached at when
 * the page says it is that one (the app opened at localhost or 127.0.0.1 in development and
 * tests). Any other Origin is not believed, and the public origin is used: the browser then
 * refuses a page elsewhere, since a passkey is bound to its site.
 */
export function relyingPartyOf(app: FastifyInstance, request: Pick<FastifyRequest, 'headers' | 'protocol' | 'host'>): RelyingParty {
  const configured = originOf(app.config.publicUrl) ?? app.config.publicUrl;
  const asked = typeof request.headers.origin === 'string' ? originOf(request.headers.origin) : null;
  const own = originOf(`${request.protocol}://${request.host}`);
  const origin = asked && (asked === configured || asked === own) ? asked : configured;
  return { origin, rpId: new URL(origin).hostname };
}

const base64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64url');
const fromBase64url = (text: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(text, 'base64url'));
/** The WebAuthn user handle of an account: its id's bytes, the same for each of its passkeys. */
const userHandleOf = (userId: string): Uint8Array<ArrayBuffer> => new Uint8Array(Buffer.from(userId, 'utf8'));

/**
 * Keeps a challenge for the answer to name, on the route's transaction. Each is a row anyone may
 * ask for (signing in needs no account), so the asker, an address or an account, gets a limited
 * number an hour.
 */
async function storeChallenge({ app, db }: ServiceContext, asker: string, row: Omit<ChallengeRow, 'id' | 'expires_at'>): Promise<string> {
  const now = Date.now();
  const id = newId(now);
  await takeSlot(db, { key: `passkey:${asker}`, max: app.config.rates.passkeyChallengesPerHour, windowMs: app.config.rates.windowMs }, 'passkey_limit', now);
  await deleteExpiredChallenges(db, now);
  await insertChallenge(db, { ...row, id, expires_at: now + CHALLENGE_MS });
  return id;
}

/**
 * The challenge an answer names, taken out whatever the answer turns out to be, so it is used
 * once. Unknown (used already), too old, or made for another purpose or account: passkey_expired.
 */
async function useChallenge(ctx: ServiceContext, id: string, purpose: ChallengeRow['purpose'], userId: string | null): Promise<ChallengeRow> {
  const challenge = await takeChallenge(ctx.db, id);
  if (!challenge || challenge.purpose !== purpose || challenge.user_id !== userId || Number(challenge.expires_at) <= Date.now()) {
    throw badRequest('passkey_expired');
  }
  return challenge;
}

/** POST /passkeys/register/options: creation options for the caller, leaving out its passkeys. */
/** What the browser's answer is checked against: the challenge it was given, for this site, with the user verified. */
interface Expected {
  expectedChallenge: string;
  expectedOrigin: string;
  expectedRPID: string;
  requireUserVerification: true;
}

/** Runs a check of the browser's answer; a failure, thrown or reported, is one refusal. */
async function verified<V extends { verified: boolean }>(
  challenge: ChallengeRow,
  check: (expected: Expected) => Promise<V>,
): Promise<V & { verified: true }> {
  let verification: V;
  try {
    verification = await check({
      expectedChallenge: challenge.challenge,
      expectedOrigin: challenge.origin,
      expectedRPID: challenge.rp_id,
      requireUserVerification: true,
    });
  } catch {
    throw badRequest('passkey_failed');
  }
  if (!verification.verified) throw badRequest('passkey_failed');
  return verification as V & { verified: true };
}

export async function registrationOptions(ctx: ServiceContext, viewer: Viewer, rp: RelyingParty): Promise<RegistrationOptionsReply> {
  const existing = await listUserPasskeys(ctx.db, viewer.id);
  const options = await generateRegistrationOptions({
    rpName: RP_NAME,
    rpID: rp.rpId,
    userName: viewer.username,
    userDisplayName: viewer.username,
    userID: userHandleOf(viewer.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    // Discoverable, so signing in needs no name first; verified, since it stands in for a password.
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  const challengeId = await storeChallenge(ctx, `user:${viewer.id}`, { purpose: 'register', user_id: viewer.id, challenge: options.challenge, origin: rp.origin, rp_id: rp.rpId });
  return { challengeId, options };
}

/**
 * POST /passkeys/register: checks the authenticator's answer and keeps its public key. Not in a
 * transaction: the challenge is used up even when the answer is refused.
 */
export async function register(ctx: ServiceContext, viewer: Viewer, body: RegisterBody): Promise<PasskeyItem> {
  const db = ctx.db;
  const name = body.name?.trim() || null;
  // Checked before the challenge is taken: a name too long costs the user no new dialog.
  if (name && name.length > LIMITS.passkeyNameMax) throw badRequest('passkey_failed');
  const challenge = await useChallenge(ctx, body.challengeId, 'register', viewer.id);
  const verification = await verified(challenge, (expected) =>
    verifyRegistrationResponse({ response: body.response as RegistrationResponseJSON, ...expected }),
  );
  const { credential } = verification.registrationInfo;
  // Already registered (to this account or another): the authenticator made no new key.
  if (await findPasskeyByCredentialId(db, credential.id)) throw badRequest('passkey_failed');
  const row = {
    id: newId(),
    user_id: viewer.id,
    credential_id: credential.id,
    public_key: base64url(credential.publicKey),
    counter: credential.counter,
    transports: JSON.stringify(credential.transports ?? body.response.response.transports ?? []),
    name,
    created_at: Date.now(),
    last_used_at: null,
  };
  try {
    await insertPasskey(db, row);
  } catch (err) {
    // Two answers with the same new key raced past the check above.
    if (await findPasskeyByCredentialId(db, credential.id)) throw badRequest('passkey_failed');
    throw err;
  }
  return toPasskeyItem(row);
}

/** The user's passkeys as their list shows them (also the data export). */
export async function passkeysOf(db: Executor, userId: string): Promise<PasskeyItem[]> {
  return (await listUserPasskeys(db, userId)).map(toPasskeyItem);
}

/** GET /passkeys: the caller's passkeys. */
export async function list(ctx: ServiceContext, viewer: Viewer): Promise<PasskeyItem[]> {
  return passkeysOf(ctx.db, viewer.id);
}

/** DELETE /passkeys/:id: one of the caller's own; another's is as unknown as a missing one. */
export async function remove(ctx: ServiceContext, viewer: Viewer, id: string): Promise<void> {
  if (!(await deleteUserPasskey(ctx.db, viewer.id, id))) throw notFound('passkey_not_found');
}

/** POST /auth/passkey/options: request options naming no passkey, the authenticator offers its own. */
export async function loginOptions(ctx: ServiceContext, input: { rp: RelyingParty; ip: string }): Promise<AuthenticationOptionsReply> {
  const { rp, ip } = input;
  const options = await generateAuthenticationOptions({
    rpID: rp.rpId,
    allowCredentials: [],
    userVerification: 'required',
    timeout: CHALLENGE_MS,
  });
  const challengeId = await storeChallenge(ctx, `address:${ip}`, { purpose: 'login', user_id: null, challenge: options.challenge, origin: rp.origin, rp_id: rp.rpId });
  return { challengeId, options };
}

/**
 * POST /auth/passkey: checks the signature with the stored key, keeps the authenticator's new
 * counter (a lower or equal one means a copied key, and is refused), then signs the owner in as
 * a password would. Not in a transaction: the challenge is used up even when the answer is refused.
 */
export async function login(ctx: ServiceContext, body: PasskeyLoginBody): Promise<Session> {
  const db = ctx.db;
  const challenge = await useChallenge(ctx, body.challengeId, 'login', null);
  const passkey = await findPasskeyByCredentialId(db, body.response.id);
  if (!passkey) throw badRequest('passkey_not_found');
  // The authenticator names the account it made the key for: it must be the key's owner.
  const handle = body.response.response.userHandle;
  if (handle && handle !== base64url(userHandleOf(passkey.user_id))) throw badRequest('passkey_failed');
  const verification = await verified(challenge, (expected) =>
    verifyAuthenticationResponse({
      response: body.response as AuthenticationResponseJSON,
      ...expected,
      credential: {
        id: passkey.credential_id,
        publicKey: fromBase64url(passkey.public_key),
        counter: Number(passkey.counter),
        transports: transportsOf(passkey),
      },
    }),
  );
  await markPasskeyUsed(db, passkey.id, verification.authenticationInfo.newCounter, Date.now());
  const user = await findAccount(db, passkey.user_id);
  if (!user) throw badRequest('passkey_not_found');
  return admitUser(ctx, user);
}
