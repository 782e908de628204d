import { createHash, randomBytes } from 'node:crypto';
import type { ClientApplication, NewClientApp, VerifiedApplication } from '#core/api/client';
import { DEFAULT_SCOPES, parseRedirectUris, parseScopes, validateClientApp } from '#core/client-apps';
import { AppError } from '../../lib/app-error.js';
import { newId } from '../../lib/ids.js';
import type { ServiceContext } from '../../lib/service-context.js';
import * as repo from './clientapi.repository.js';

/**
 * Apps registering for the client API. Anyone may register one, as on any server of the kind:
 * an app is only a name and where to send its user back; what it may do comes later, from the
 * person who approves it. The secret is answered once and kept only as its hash.
 */

const credential = () => randomBytes(32).toString('base64url');

/** The SHA-256 of a client secret, as stored; a secret is compared by it. */
export const secretHash = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** POST /v1/apps: checks the registration, stores it, answers it with its credentials. */
export async function registerApp(ctx: ServiceContext, body: NewClientApp, now: number = Date.now()): Promise<ClientApplication> {
  const scopes = parseScopes(body.scopes);
  const input = {
    name: (body.client_name ?? '').trim(),
    redirectUris: parseRedirectUris(body.redirect_uris),
    scopes: scopes.length > 0 ? scopes : [...DEFAULT_SCOPES],
    website: body.website?.trim() || null,
  };
  const broken = validateClientApp(input);
  // Unprocessable, as apps expect of a registration they got wrong.
  if (broken) throw new AppError(422, broken);
  const id = newId(now);
  const clientId = credential();
  const clientSecret = credential();
  await repo.insertApp(ctx.db, {
    id,
    client_id: clientId,
    secret_hash: secretHash(clientSecret),
    name: input.name,
    website: input.website,
    redirect_uris: JSON.stringify(input.redirectUris),
    scopes: JSON.stringify(input.scopes),
    created_at: now,
  });
  return {
    id,
    name: input.name,
    website: input.website,
    scopes: input.scopes,
    redirect_uri: input.redirectUris.join('\n'),
    redirect_uris: input.redirectUris,
    client_id: clientId,
    client_secret: clientSecret,
    client_secret_expires_at: 0,
  };
}

/** GET /v1/apps/verify_credentials: the registration of the app whose token calls, without its secret. */
export async function verifiedApp(ctx: ServiceContext, appId: string): Promise<VerifiedApplication> {
  const app = await repo.findAppById(ctx.db, appId);
  // A token outlives no app: its app is gone only when the token is too.
  if (!app) throw new AppError(401, 'invalid_token');
  const redirectUris = JSON.parse(app.redirect_uris) as string[];
  return { id: app.id, name: app.name, website: app.website, scopes: JSON.parse(app.scopes) as string[], redirect_uri: redirectUris.join('\n'), redirect_uris: redirectUris };
}
