import { domainToASCII } from 'node:url';

/**
 * A host has many spellings (`EVIL.example.`, `bücher.example`, `xn--bcher-kva.example`), and a
 * remote server picks whichever it likes for its addresses. Every host is stored, and compared
 * with a domain block, in the one spelling normalizeHost gives, so no spelling slips past a block
 * and one server's accounts share one host in their names.
 */

/**
 * A host in its one spelling: lower case, without the final dot of a fully qualified name, an
 * international name in its ASCII (punycode) form; a port is no part of it. Null for what is not a
 * host.
 */
export function normalizeHost(host: string): string | null {
  const bare = host.trim().replace(/\.+$/, '');
  // An IPv6 literal is no name: it has no dot to drop nor letter to encode.
  if (bare.startsWith('[')) return bare.toLowerCase();
  return domainToASCII(bare) || null;
}

/** The host of a URL or IRI, normalised, without its port; null when it is not one. */
export function hostOf(iri: string): string | null {
  try {
    return normalizeHost(new URL(iri).hostname);
  } catch {
    return null;
  }
}

/** The host of a URL with its port when it names one: what a handle (`@name@host`) carries. */
export function hostWithPortOf(url: URL): string {
  const host = normalizeHost(url.hostname) ?? url.hostname;
  return url.port ? `${host}:${url.port}` : host;
}

/** A handle, `@name@host`, with its host normalised (its port kept); as it was when it is none. */
export function normalizeHandle(handle: string): string {
  const at = handle.indexOf('@', 1);
  if (!handle.startsWith('@') || at < 0) return handle;
  try {
    return `${handle.slice(0, at)}@${hostWithPortOf(new URL(`https://${handle.slice(at + 1)}`))}`;
  } catch {
    return handle;
  }
}
