import OAuth2Server from '@node-oauth/oauth2-server';
import type { RevokeRequest, ServerMetadata, TokenReply, TokenRequest } from '#core/api/oauth';
import { CLIENT_SCOPES, DEFAULT_SCOPES, parseScopes, scopesWithin } from '#core/client-apps';
import type { ServerErrorKey } from '#core/errors';
import type { ClientAppsTable } from '../../db/schema.js';
import { AppError, tooMany } from '../../lib/app-error.js';
import { publishEvent } from '../../lib/events/domain-events.js';
import { newId } from '../../lib/ids.js';
import type { ServiceContext } from '../../lib/service-context.js';
import { findAccount } from '../auth/auth.service.js';
import { beginAttempt, forgiveAttempt, isLocked, loginKeys } from '../auth/login-lockout.js';
import { secretHash } from './apps.service.js';
import { findAppByClientId } from './clientapi.repository.js';
import { appRedirects, appScopes, digestMatches, newSecret } from './oauth.service.js';
import * as repo from './oauth.repository.js';
import './clientapi.events.js';

/**
 * The app's side of signing in: the token endpoint (an authorization code with its PKCE verifier, the
 * app's own credentials, or a refresh token) and revoking a token. The protocol's checks are the
 * OAuth server library's; what it keeps is the model below, on the database, storing only hashes.
 * Access tokens last until revoked: apps of the fediverse sign in once and never refresh.
 */

/** The grants an app may use. */
const GRANTS = ['authorization_code', 'client_credentials', 'refresh_token'];

/** Required by the library, though a token's own expiry is not kept (see saveToken). */
const LIBRARY_TOKEN_LIFETIME_S = 3600;

/** What the library carries as "the user": the account a token acts for, or none for an app's own token. */
interface TokenOwner {
  id: string | null;
  tokenVersion: number | null;
}

interface AppClient extends OAuth2Server.Client {
  app: ClientAppsTable;
}

const clientOf = (app: ClientAppsTable): AppClient => ({ id: app.id, grants: GRANTS, redirectUris: appRedirects(app), app });

/** The account's standing as a token needs it: gone or suspended is no owner at all. */
async function ownerOf(ctx: ServiceContext, userId: string): Promise<TokenOwner | null> {
  const user = await findAccount(ctx.db, userId);
  return user && !user.suspended_at ? { id: user.id, tokenVersion: user.token_version } : null;
}

/** Revokes the token, telling whoever keeps something of it (its push subscription); false when it already was. */
async function revokeTokenOf(ctx: ServiceContext, tokenId: string, now: number): Promise<boolean> {
  const revoked = await repo.revokeToken(ctx.db, tokenId, now);
  if (revoked) await publishEvent(ctx, 'client_token.revoked', { tokenIds: [tokenId] });
  return revoked;
}

/** The library's model, on the request's database: every secret looked up by its hash. */
function modelOf(ctx: ServiceContext, now: number) {
  return {
    async getClient(clientId: string, clientSecret: string | null) {
      const app = await findAppByClientId(ctx.db, clientId);
      if (!app) return null;
      // No secret: a public app proving itself with PKCE instead (the library allows only that).
      if (clientSecret !== null && clientSecret !== undefined && !digestMatches(clientSecret, app.secret_hash)) return null;
      return clientOf(app);
    },

    async getAuthorizationCode(code: string) {
      const row = await repo.findCode(ctx.db, secretHash(code));
      if (!row || row.used_at !== null) return null;
      const owner = await ownerOf(ctx, row.user_id);
      if (!owner) return null;
      return {
        authorizationCode: code,
        expiresAt: new Date(row.expires_at),
        redirectUri: row.redirect_uri,
        scope: JSON.parse(row.scopes) as string[],
        client: { id: row.app_id, grants: GRANTS },
        user: owner,
        ...(row.code_challenge ? { codeChallenge: row.code_challenge, codeChallengeMethod: row.code_challenge_method ?? 'S256' } : {}),
      };
    },

    async revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
      return repo.useCode(ctx.db, secretHash(code.authorizationCode), now);
    },

    // The app's own token acts for no account.
    async getUserFromClient(): Promise<TokenOwner> {
      return { id: null, tokenVersion: null };
    },

    /** Scopes within the app's registration; `read` when a request names none. */
    async validateScope(_user: TokenOwner, client: AppClient, scope?: string[]) {
      const asked = parseScopes((scope ?? []).join(' '));
      const scopes = asked.length > 0 ? asked : [...DEFAULT_SCOPES];
      return scopesWithin(scopes, appScopes(client.app)) ? scopes : false;
    },

    async generateAccessToken() {
      return newSecret();
    },
    async generateRefreshToken() {
      return newSecret();
    },

    async saveToken(token: OAuth2Server.Token, client: AppClient, user: TokenOwner) {
      const scopes = token.scope ?? [];
      await repo.insertToken(ctx.db, {
        id: newId(now),
        token_hash: secretHash(token.accessToken),
        // Only an account's token is refreshed; an app asks for its own token again instead.
        refresh_hash: user.id !== null && token.refreshToken ? secretHash(token.refreshToken) : null,
        app_id: client.id,
        user_id: user.id,
        token_version: user.tokenVersion,
        scopes: JSON.stringify(scopes),
        created_at: now,
        expires_at: null,
        revoked_at: null,
        last_used_at: null,
      });
      return { ...token, refreshToken: user.id !== null ? token.refreshToken : undefined, scope: scopes, client, user };
    },

    async getRefreshToken(refreshToken: string) {
      const row = await repo.findTokenByRefresh(ctx.db, secretHash(refreshToken));
      if (!row || row.revoked_at !== null || row.user_id === null) return null;
      const owner = await ownerOf(ctx, row.user_id);
      // A password change since the token was issued ends its refresh as well.
      if (!owner || owner.tokenVersion !== row.token_version) return null;
      return { refreshToken, scope: JSON.parse(row.scopes) as string[], client: { id: row.app_id, grants: GRANTS }, user: owner, tokenId: row.id };
    },

    /** Refreshing replaces the pair: the old access token stops with its refresh token. */
    async revokeToken(token: OAuth2Server.RefreshToken) {
      return revokeTokenOf(ctx, token.tokenId as string, now);
    },

    async getAccessToken() {
      // The adapter reads its bearer tokens itself (client-caller.ts); the library never asks here.
      return null;
    },
  };
}

const server = (ctx: ServiceContext, now: number) =>
  new OAuth2Server({
    model: modelOf(ctx, now),
    accessTokenLifetime: LIBRARY_TOKEN_LIFETIME_S,
    refreshTokenLifetime: LIBRARY_TOKEN_LIFETIME_S,
    allowEmptyState: true,
  });

/** The catalogue key of a refusal the library raised; anything else (its server errors) goes on as it is. */
export function refusalOf(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (!(err instanceof OAuth2Server.OAuthError)) throw err;
  const text = err.message;
  const grant = (): ServerErrorKey => (/code.verifier/iu.test(text) ? 'pkce_mismatch' : /refresh token/iu.test(text) ? 'refresh_token_invalid' : 'code_invalid');
  const request = (): ServerErrorKey => (/code_verifier/u.test(text) ? 'pkce_mismatch' : /redirect_uri/u.test(text) ? 'redirect_not_registered' : 'oauth_request_invalid');
  switch (err.name) {
    case 'invalid_client':
      return new AppError(401, 'unknown_app');
    case 'invalid_grant':
      return new AppError(400, grant());
    case 'invalid_request':
      return new AppError(400, request());
    case 'invalid_scope':
      return new AppError(400, 'invalid_scope');
    case 'unsupported_grant_type':
    case 'unauthorized_client':
      return new AppError(400, 'grant_type_unsupported');
    default:
      throw err;
  }
}

/** The OAuth error code each refusal is answered with, as clients read it. */
export const OAUTH_CODES: Partial<Record<ServerErrorKey, string>> = {
  unknown_app: 'invalid_client',
  code_invalid: 'invalid_grant',
  pkce_mismatch: 'invalid_grant',
  redirect_not_registered: 'invalid_grant',
  refresh_token_invalid: 'invalid_grant',
  invalid_scope: 'invalid_scope',
  grant_type_unsupported: 'unsupported_grant_type',
};

/** What the token endpoint is handed besides the body: who asks, for the abuse limits, and how. */
export interface TokenCall {
  authorization: string | undefined;
  ip: string;
}

/**
 * A request the token endpoint or revocation handles, counted as a failed login of the app from its
 * address until it succeeds: whoever guesses codes, secrets or tokens is stopped as a password
 * guesser is (login_timeout), and a success takes its count back.
 */
async function underLockout<T>(ctx: ServiceContext, clientId: string, ip: string, run: () => Promise<T>): Promise<T> {
  const keys = loginKeys(`app:${clientId}`, ip);
  const attempt = await beginAttempt(ctx.db, keys);
  if (!attempt) throw tooMany('login_timeout');
  let result: T;
  try {
    result = await run();
  } catch (err) {
    const refusal = refusalOf(err);
    const locked = await Promise.all(keys.map((key) => isLocked(ctx.db, key)));
    throw locked.includes(true) ? tooMany('login_timeout') : refusal;
  }
  await forgiveAttempt(ctx.db, attempt);
  return result;
}

/** The id and secret of HTTP Basic credentials (split at the first colon, as the library reads them). */
function basicCredentials(authorization: string | undefined): { id: string; secret: string } | null {
  const basic = /^Basic\s+(.+)$/iu.exec(authorization ?? '')?.[1];
  if (!basic) return null;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? null : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
}

/** The client id the request names, in its body or its HTTP Basic credentials. */
const clientIdOf = (body: { client_id?: string | undefined }, authorization: string | undefined): string =>
  body.client_id || basicCredentials(authorization)?.id || '';

/** The library's request for a body already read (JSON or a form: it takes a form only). */
function libraryRequest(body: Record<string, string | undefined>, authorization: string | undefined): OAuth2Server.Request {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '1' };
  if (authorization) headers.authorization = authorization;
  const fields = Object.fromEntries(Object.entries(body).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return new OAuth2Server.Request({ method: 'POST', headers, query: {}, body: fields });
}

/** POST /oauth/token: a new token for a grant the library has checked, as apps read it. */
export async function issueToken(ctx: ServiceContext, body: TokenRequest, call: TokenCall, now: number = Date.now()): Promise<TokenReply> {
  const clientId = clientIdOf(body, call.authorization);
  const token = await underLockout(ctx, clientId, call.ip, () =>
    server(ctx, now).token(libraryRequest(body, call.authorization), new OAuth2Server.Response()),
  );
  return {
    access_token: token.accessToken,
    token_type: 'Bearer',
    scope: (token.scope ?? []).join(' '),
    created_at: Math.floor(now / 1000),
    ...(token.refreshToken ? { refresh_token: token.refreshToken } : {}),
  };
}

/**
 * POST /oauth/revoke: the app (its id and secret) revokes one of its tokens, named by the access or
 * the refresh token. A token unknown, already revoked or another app's is answered alike, so the
 * call tells nothing about tokens that are not the caller's.
 */
export async function revokeByApp(ctx: ServiceContext, body: RevokeRequest, call: TokenCall, now: number = Date.now()): Promise<Record<string, never>> {
  const clientId = clientIdOf(body, call.authorization);
  await underLockout(ctx, clientId, call.ip, async () => {
    const model = modelOf(ctx, now);
    const secret = body.client_secret || basicCredentials(call.authorization)?.secret;
    if (!clientId || !secret) throw new AppError(400, 'oauth_request_invalid');
    const client = await model.getClient(clientId, secret);
    if (!client) throw new AppError(401, 'unknown_app');
    if (!body.token) throw new AppError(400, 'oauth_request_invalid');
    const digest = secretHash(body.token);
    const row = (await repo.findToken(ctx.db, digest)) ?? (await repo.findTokenByRefresh(ctx.db, digest));
    if (row && row.app_id === client.id) await revokeTokenOf(ctx, row.id, now);
  });
  return {};
}

/** GET /.well-known/oauth-authorization-server: how to sign in here, read by newer apps first. */
export function serverMetadata(publicUrl: string): ServerMetadata {
  const origin = publicUrl.replace(/\/$/u, '');
  return {
    issuer: `${origin}/`,
    authorization_endpoint: `${origin}/oauth/authorize`,
    token_endpoint: `${origin}/oauth/token`,
    revocation_endpoint: `${origin}/oauth/revoke`,
    app_registration_endpoint: `${origin}/api/v1/apps`,
    scopes_supported: [...CLIENT_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: [...GRANTS],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
  };
}
