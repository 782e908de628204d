import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../../lib/app-error.js';
import { hostOf, isHostBlocked } from '../../policy/blocked-domains.js';
import { keyIdOf } from './inbound/inbox-guard.js';

/**
 * What a GET of the instance's federation documents (actors, posts, collections, WebFinger) passes
 * first: one signed by a key on a blocked domain is refused (403), as that domain's deliveries are.
 * An unsigned GET of what is public is still answered, since the instance does not require signed
 * fetches; so the refusal keeps a blocked server from reading as itself, the same rule the inbox
 * applies. The key's host is read unverified, which can only make a forger refused.
 */
export async function guardFetch(app: FastifyInstance, request: FastifyRequest): Promise<void> {
  const keyId = keyIdOf(request);
  const host = keyId ? hostOf(keyId) : null;
  if (host && (await isHostBlocked(app.db, host))) throw forbidden('remote_blocked');
}
