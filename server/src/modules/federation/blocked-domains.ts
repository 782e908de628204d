import type { Executor } from '../../db/schema.js';
import { anyBlocked } from './boundaries.repository.js';

/**
 * Whether an address is on a blocked domain: read by everything that reaches another server (the
 * document loader, lookups, pictures, deliveries), so it depends on nothing but the block list.
 */

/** The host and every parent domain of it with two labels or more: what a block of any of them covers. */
export function domainsCovering(host: string): string[] {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  const domains: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) domains.push(labels.slice(i).join('.'));
  return domains;
}

/** The host of a URL or IRI, lower case; null when it is not one. */
export function hostOf(iri: string): string | null {
  try {
    return new URL(iri).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

/** Whether the host is on a blocked domain (the domain itself or a subdomain of it). */
export function isHostBlocked(db: Executor, host: string): Promise<boolean> {
  return anyBlocked(db, domainsCovering(host));
}

/** Whether the URL's host is on a blocked domain; an address that is no URL is refused as blocked. */
export async function isUrlBlocked(db: Executor, url: string): Promise<boolean> {
  const host = hostOf(url);
  return host === null || (await isHostBlocked(db, host));
}
