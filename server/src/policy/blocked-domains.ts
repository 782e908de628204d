import type { Executor } from '../db/schema.js';
import { hostOf, normalizeHost } from '../lib/hosts.js';

/**
 * Whether an address is on a blocked domain: read by everything that reaches another server (the
 * document loader, lookups, pictures, deliveries), so it depends on nothing but the block list.
 * Hosts are compared as normalizeHost spells them, as the block list and remote actors store them.
 */

export { hostOf };

/** The host and every parent domain of it with two labels or more: what a block of any of them covers. */
export function domainsCovering(host: string): string[] {
  const labels = (normalizeHost(host) ?? host.toLowerCase()).split('.');
  const domains: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) domains.push(labels.slice(i).join('.'));
  return domains;
}

/** Whether the host is on a blocked domain (the domain itself or a subdomain of it). */
export async function isHostBlocked(db: Executor, host: string): Promise<boolean> {
  const domains = domainsCovering(host);
  if (domains.length === 0) return false;
  const row = await db.selectFrom('federation_domain_blocks').select('domain').where('domain', 'in', domains).executeTakeFirst();
  return row !== undefined;
}

/** Whether the URL's host is on a blocked domain; an address that is no URL is refused as blocked. */
export async function isUrlBlocked(db: Executor, url: string): Promise<boolean> {
  const host = hostOf(url);
  return host === null || (await isHostBlocked(db, host));
}
