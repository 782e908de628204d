import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { isLoopbackAddress } from '../../lib/egress/address.js';
import { federationRules, userAgentOf } from '../../lib/egress/federation-rules.js';
import { isUrlBlocked } from '../../policy/blocked-domains.js';
import { fetchRemoteJson } from './document-loader.js';

/**
 * Asking a server who one of its handles is (WebFinger): what a search for a handle starts with,
 * and what settles which of two actors claiming one name on a server holds it. Through the
 * outgoing-request guard, never of a blocked domain.
 */

export interface Handle {
  name: string;
  /** The server's host, its port included when it names one. */
  host: string;
}

const JRD_ACCEPT = 'application/jrd+json, application/json';
const ACTIVITY_TYPES = new Set(['application/activity+json', 'application/ld+json; profile="https://www.w3.org/ns/activitystreams"']);

/**
 * The scheme a server is asked over: https, or plain http for this machine when the instance
 * allows it (FEDERATION_ALLOW_HTTP, tests with a fake remote server); the guard decides the rest.
 */
function schemeOf(config: Config, host: string): 'http' | 'https' {
  const hostname = new URL(`https://${host}`).hostname.replace(/^\[|\]$/g, '');
  const local = hostname === 'localhost' || isLoopbackAddress(hostname);
  return config.federationAllowHttp && local ? 'http' : 'https';
}

/** The actor's address the handle's server names (its `self` link of an ActivityPub type). */
export async function webFinger(app: FastifyInstance, handle: Handle, signal: AbortSignal): Promise<string | null> {
  const resource = `acct:${handle.name}@${handle.host}`;
  const url = `${schemeOf(app.config, handle.host)}://${handle.host}/.well-known/webfinger?resource=${encodeURIComponent(resource)}`;
  const { document } = await fetchRemoteJson(app.egress, url, {
    accept: JRD_ACCEPT,
    userAgent: userAgentOf(app.config),
    rules: federationRules(app.config),
    refused: (address) => isUrlBlocked(app.db, address),
    signal,
  });
  const links = (document as { links?: unknown }).links;
  if (!Array.isArray(links)) return null;
  for (const link of links as Array<{ rel?: unknown; type?: unknown; href?: unknown }>) {
    if (link.rel === 'self' && typeof link.type === 'string' && ACTIVITY_TYPES.has(link.type) && typeof link.href === 'string') return link.href;
  }
  return null;
}
