import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SignJWT, jwtVerify } from 'jose';
import { AppError } from '../lib/app-error.js';
import type { Executor, UserRow } from '../db/schema.js';
import { type TokenClaims, VerifiedTokens } from '../lib/verified-tokens.js';
import type { UserRecord, Viewer } from '../lib/viewer.js';

export type { Viewer };

declare module 'fastify' {
  interface FastifyInstance {
    signToken(user: Pick<UserRow, 'id' | 'token_version'>): Promise<string>;
    /** The user a raw token belongs to (for clients that cannot send headers, e.g. EventSource). */
    viewerFromToken(token: string): Promise<Viewer>;
  }
  interface FastifyRequest {
    /** The caller, or null for a visitor. A present but bad token is an error (invalid_token). */
    viewer(): Promise<Viewer | null>;
    /** The caller; no token answers no_token, a bad one invalid_token. */
    requireViewer(): Promise<Viewer>;
    viewerCache?: Promise<Viewer | null>;
  }
}

const ALG = 'HS256';
const TOKEN_TTL = '30d';

/** The token of an `Authorization: Bearer ...` header, or undefined. */
export function bearer(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(.+)$/i.exec(header);
  const token = match?.[1]?.trim();
  // The web app's logged-out state may send "Bearer null" from an empty storage slot.
  return token && token !== 'null' && token !== 'undefined' ? token : undefined;
}

/** Whether the request carries a session token at all: one without is a visitor's. */
export const hasBearer = (request: FastifyRequest): boolean => bearer(request) !== undefined;

/**
 * Bearer JWTs carrying the user id and the user's token_version. Changing the password bumps the
 * version in the database, so every earlier token stops working on every server process.
 */
export interface AuthPluginOptions {
  /** The account a token names: the auth module's read, handed in by the app since plugins sit below the modules. */
  findAccount(db: Executor, id: string): Promise<UserRecord | undefined>;
}

export const authPlugin = fp(
  async (app: FastifyInstance, { findAccount }: AuthPluginOptions) => {
    const secret = new TextEncoder().encode(app.config.jwtSecret);

    app.decorate('signToken', async (user: Pick<UserRow, 'id' | 'token_version'>) =>
      new SignJWT({ ver: user.token_version })
        .setProtectedHeader({ alg: ALG })
        .setSubject(user.id)
        .setIssuedAt()
        .setExpirationTime(TOKEN_TTL)
        .sign(secret),
    );

    async function resolve(request: FastifyRequest): Promise<Viewer | null> {
      const token = bearer(request);
      return token ? viewerFromToken(token) : null;
    }

    const verified = new VerifiedTokens();

    /** The token's claims once its signature and expiry hold; the signature is checked once per token. */
    async function claimsOf(token: string): Promise<TokenClaims> {
      const known = verified.get(token);
      if (known) return known;
      const { payload } = await jwtVerify(token, secret, { algorithms: [ALG] });
      const claims = { sub: payload.sub, ver: payload.ver, exp: payload.exp };
      verified.set(token, claims);
      return claims;
    }

    async function viewerFromToken(token: string): Promise<Viewer> {
      let sub: string | undefined;
      let ver: unknown;
      try {
        ({ sub, ver } = await claimsOf(token));
      } catch {
        throw new AppError(401, 'invalid_token');
      }
      if (!sub) throw new AppError(401, 'invalid_token');
      const user = await findAccount(app.db, sub);
      // Suspending an account also bumps its token version; the check here holds for any token signed meanwhile.
      if (!user || user.token_version !== ver || user.suspended_at) throw new AppError(401, 'invalid_token');
      return { id: user.id, username: user.username, user };
    }
    app.decorate('viewerFromToken', viewerFromToken);

    app.decorateRequest('viewer', function (this: FastifyRequest) {
      this.viewerCache ??= resolve(this);
      return this.viewerCache;
    });
    app.decorateRequest('requireViewer', async function (this: FastifyRequest) {
      const viewer = await this.viewer();
      if (!viewer) throw new AppError(401, 'no_token');
      return viewer;
    });
  },
  { name: 'auth', dependencies: ['database'] },
);
