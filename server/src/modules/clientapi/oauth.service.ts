import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { AuthorizationDecision, AuthorizationOutcome, AuthorizationPrompt, AuthorizationRequest, AuthorizedApps } from '#core/api/oauth';
import { DEFAULT_SCOPES, OUT_OF_BAND_REDIRECT, parseScopes, scopesWithin } from '#core/client-apps';
import type { ClientAppsTable } from '../../db/schema.js';
import { badRequest, notFound } from '../../lib/app-error.js';
import { publishEvent } from '../../lib/events/domain-events.js';
import type { ServiceContext } from '../../lib/service-context.js';
import type { UserRecord, Viewer } from '../../lib/viewer.js';
import { asAccountRecord, findAccount } from '../auth/auth.service.js';
import { secretHash } from './apps.service.js';
import { findAppByClientId } from './clientapi.repository.js';
import * as repo from './oauth.repository.js';
import './clientapi.events.js';
import { keptValue } from '../../lib/kept-values.js';

/**
 * The person's side of signing an app in: what the app asks (checked before anything is shown),
 * the approval that issues a code, and the account's list of apps let in. The codes and tokens are
 * random 256-bit strings handed out once and kept only as their SHA-256.
 */

/** How long a code may wait for its exchange: long enough to switch back to the app, no longer. */
export const CODE_LIFETIME_MS = 5 * 60 * 1000;

/** A new secret (a code, a token): 256 random bits, URL-safe. */
export const newSecret = (): string => randomBytes(32).toString('base64url');

/** Whether a presented secret hashes to the stored digest, compared in constant time. */
export function digestMatches(secret: string, digest: string): boolean {
  const given = Buffer.from(secretHash(secret), 'hex');
  const kept = Buffer.from(digest, 'hex');
  return given.length === kept.length && timingSafeEqual(given, kept);
}

/** The lists a registration keeps as JSON text. */
export const appScopes = (app: ClientAppsTable): string[] => JSON.parse(app.scopes) as string[];
export const appRedirects = (app: ClientAppsTable): string[] => JSON.parse(app.redirect_uris) as string[];

/** A PKCE challenge of S256: the base64url of a SHA-256, 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/u;

interface CheckedRequest {
  app: ClientAppsTable;
  scopes: string[];
  redirectUri: string;
  challenge: { code_challenge: string; code_challenge_method: 'S256' } | null;
}

/**
 * The request as an app's address carries it, checked whole before the person sees it: a known app,
 * a redirect address it registered (its only one when it names none), scopes within its
 * registration (`read` when it names none), a code answer, and PKCE by S256 only. A wrong request
 * is refused here, never sent back to an address that may not be the app's.
 */
export async function checkRequest(ctx: ServiceContext, request: AuthorizationRequest): Promise<CheckedRequest> {
  if (request.response_type !== undefined && request.response_type !== 'code') throw badRequest('response_type_unsupported');
  const app = await findAppByClientId(ctx.db, request.client_id);
  if (!app) throw badRequest('unknown_app');
  const redirects = appRedirects(app);
  const redirectUri = request.redirect_uri?.trim() || (redirects.length === 1 ? redirects[0]! : '');
  if (redirectUri === '') throw badRequest('oauth_request_invalid');
  if (!redirects.includes(redirectUri)) throw badRequest('redirect_not_registered');
  const asked = parseScopes(request.scope);
  const scopes = asked.length > 0 ? asked : [...DEFAULT_SCOPES];
  if (!scopesWithin(scopes, appScopes(app))) throw badRequest('invalid_scope');
  const method = request.code_challenge_method;
  if (request.code_challenge === undefined || request.code_challenge === '') {
    if (method !== undefined && method !== '') throw badRequest('oauth_request_invalid');
    return { app, scopes, redirectUri, challenge: null };
  }
  // The plain method would hand the secret over with the request itself.
  if (method !== 'S256') throw badRequest('pkce_method_unsupported');
  if (!S256_CHALLENGE.test(request.code_challenge)) throw badRequest('oauth_request_invalid');
  return { app, scopes, redirectUri, challenge: { code_challenge: request.code_challenge, code_challenge_method: 'S256' } };
}

/** GET /oauth/authorize: what the consent screen shows. */
export async function prompt(ctx: ServiceContext, _viewer: Viewer, request: AuthorizationRequest): Promise<AuthorizationPrompt> {
  const { app, scopes, redirectUri } = await checkRequest(ctx, request);
  return { app: { name: app.name, website: app.website }, scopes, redirectUri, outOfBand: redirectUri === OUT_OF_BAND_REDIRECT };
}

/** The app's address with the answer's fields added to its query (`code`, `error`, and `state` when the app sent one). */
function backToApp(redirectUri: string, fields: Record<string, string>, state: string | undefined): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(fields)) url.searchParams.set(name, value);
  if (state) url.searchParams.set('state', state);
  return url.toString();
}

/**
 * POST /oauth/authorize: the person's answer. Approved, a code is issued for the account, the app,
 * the redirect address and the scopes, bound to the PKCE challenge when there was one; it goes back
 * in the app's address, or is shown to copy when the app has none. Denied, the app is told
 * `access_denied`.
 */
export async function decide(ctx: ServiceContext, viewer: Viewer, decision: AuthorizationDecision, now: number = Date.now()): Promise<AuthorizationOutcome> {
  const { app, scopes, redirectUri, challenge } = await checkRequest(ctx, decision);
  const outOfBand = redirectUri === OUT_OF_BAND_REDIRECT;
  if (!decision.approve) {
    return { redirect: outOfBand ? null : backToApp(redirectUri, { error: 'access_denied' }, decision.state), code: null };
  }
  const code = newSecret();
  await repo.deleteExpiredCodes(ctx.db, now);
  await repo.insertCode(ctx.db, {
    code_hash: secretHash(code),
    app_id: app.id,
    user_id: viewer.id,
    redirect_uri: redirectUri,
    scopes: JSON.stringify(scopes),
    code_challenge: challenge?.code_challenge ?? null,
    code_challenge_method: challenge?.code_challenge_method ?? null,
    created_at: now,
    expires_at: now + CODE_LIFETIME_MS,
    used_at: null,
  });
  return outOfBand ? { redirect: null, code } : { redirect: backToApp(redirectUri, { code }, decision.state), code: null };
}

/**
 * GET /oauth/authorizations: the apps holding a token in force for the account, one entry each:
 * every scope its tokens carry, when it was first let in and when it last called.
 */
export async function authorizations(ctx: ServiceContext, viewer: Viewer, now: number = Date.now()): Promise<AuthorizedApps> {
  const rows = await repo.liveTokensOf(ctx.db, viewer.id, now);
  const apps = new Map<string, AuthorizedApps['apps'][number]>();
  for (const row of rows) {
    const scopes = JSON.parse(row.scopes) as string[];
    const seen = apps.get(row.app_id);
    if (!seen) {
      apps.set(row.app_id, { id: row.app_id, name: row.name, website: row.website, scopes, authorizedAt: row.created_at, lastUsedAt: row.last_used_at });
      continue;
    }
    seen.scopes = [...new Set([...seen.scopes, ...scopes])];
    seen.authorizedAt = Math.min(seen.authorizedAt, row.created_at);
    if (row.last_used_at !== null) seen.lastUsedAt = Math.max(seen.lastUsedAt ?? 0, row.last_used_at);
  }
  return { apps: [...apps.values()].sort((a, b) => b.authorizedAt - a.authorizedAt || a.id.localeCompare(b.id)) };
}

/** DELETE /oauth/authorizations/:id: the app's tokens and codes for the account stop working. */
export async function revokeAuthorization(ctx: ServiceContext, viewer: Viewer, appId: string, now: number = Date.now()): Promise<void> {
  const revoked = await repo.revokeAppForUser(ctx.db, viewer.id, appId, now);
  if (revoked.length === 0) throw notFound('authorization_not_found');
  await publishEvent(ctx, 'client_token.revoked', { tokenIds: revoked });
}

/** How often a token's last use is written down: the list of apps shows a day, not a second. */
const LAST_USE_EVERY_MS = 60 * 60 * 1000;

/** Who a bearer token stands for: an account (null for an app's own token) with the scopes granted. */
export interface TokenHolder {
  viewer: Viewer | null;
  scopes: string[];
  /** The token's row, which what an app keeps per token (its push subscription) names. */
  tokenId: string;
  /** The app the token was issued to. */
  appId: string;
}

/**
 * The holder of the token's row, given the account it names (undefined when that is gone), or null
 * when it is no token in force.
 */
function holderWith(row: repo.TokenRow | undefined, user: UserRecord | undefined, now: number): TokenHolder | null {
  if (!row || row.revoked_at !== null || (row.expires_at !== null && row.expires_at <= now)) return null;
  let viewer: Viewer | null = null;
  if (row.user_id !== null) {
    if (!user || user.suspended_at || user.token_version !== row.token_version) return null;
    viewer = { id: user.id, username: user.username, user };
  }
  return { viewer, scopes: JSON.parse(row.scopes) as string[], tokenId: row.id, appId: row.app_id };
}

/** holderWith of a token's row, its account read here. */
async function holderOf(ctx: ServiceContext, row: repo.TokenRow | undefined, now: number): Promise<TokenHolder | null> {
  return holderWith(row, row?.user_id ? await findAccount(ctx.db, row.user_id) : undefined, now);
}

/** Digests of tokens lately presented, at most a thousand: an app calls again and again with one token, and hashing it on every call cost as much as reading its row. */
const recentDigests = new Map<string, string>();

const tokenDigest = (token: string): string => keptValue(recentDigests, token, 1_000, () => secretHash(token));

/**
 * The holder of an access token, or null when it is no token in force: unknown, revoked, expired,
 * of an account suspended or gone, or issued before the account's password last changed.
 */
export async function tokenHolder(ctx: ServiceContext, token: string, now: number = Date.now()): Promise<TokenHolder | null> {
  const found = await repo.findTokenWithAccount(ctx.db, tokenDigest(token));
  const row = found?.token;
  const holder = holderWith(row, asAccountRecord(found?.account), now);
  if (holder && row && (row.last_used_at === null || Number(row.last_used_at) < now - LAST_USE_EVERY_MS)) await repo.touchToken(ctx.db, row.id, now, LAST_USE_EVERY_MS);
  return holder;
}

/**
 * Whether the token of this row is still in force, as tokenHolder decides, without counting it as
 * used: the server asks before it pushes on the token's behalf, the app made no call.
 */
export async function tokenInForce(ctx: ServiceContext, tokenId: string, now: number = Date.now()): Promise<boolean> {
  return (await holderOf(ctx, await repo.findTokenById(ctx.db, tokenId), now)) !== null;
}
