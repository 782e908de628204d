import { type DocumentLoader, FetchError, preloadedContexts, signRequest } from '@fedify/fedify';
import { FEDERATION_FETCH_TIMEOUT_MS } from '../../config.js';
import type { Egress } from '../../lib/egress/egress.js';
import { FEDERATION_EGRESS, type FederationRules } from '../../lib/egress/federation-rules.js';
import { importsContext } from './context-imports.js';
import { LITEPUB_CONTEXT, isLitepubContext } from './litepub-context.js';

const ACCEPT = 'application/activity+json, application/ld+json; profile="https://www.w3.org/ns/activitystreams"';
const MAX_BYTES = 1024 * 1024;
/**
 * Redirects followed for one document: a server that moved says so once or twice (http to https,
 * an old address to a new one); each hop more is the sender's time spent at the instance's cost.
 */
export const MAX_REDIRECTS = 3;

/** How a remote JSON document is asked for: what it is to be, and who asks. */
export interface RemoteJsonRequest {
  accept: string;
  userAgent: string;
  rules: FederationRules;
  /** Addresses never to be read (a blocked domain's), each hop checked. */
  refused?: (url: string) => Promise<boolean>;
  /** Gives the reading up early, every hop included (a deadline shared by several documents). */
  signal?: AbortSignal;
  /** The local actor's key each hop's GET is signed with; unsigned without one (WebFinger), or when it answers none. */
  signer?: Signer;
}

/** A local actor's key that signs GETs: the key's id (the address it is published at) and its private half. */
export interface SigningKey {
  keyId: URL;
  privateKey: Parameters<typeof signRequest>[1];
}
export type Signer = () => Promise<SigningKey | null>;

/**
 * The headers that sign a GET of the URL with the key: HTTP Signatures (the draft every fediverse
 * server checks) over the request line, host, date and what is accepted, as Mastodon signs its own.
 * Servers in authorized-fetch mode answer only such GETs.
 */
async function signatureHeaders(url: string, accept: string, key: SigningKey): Promise<Record<string, string>> {
  const signed = await signRequest(new Request(url, { headers: { Accept: accept } }), key.privateKey, key.keyId);
  return Object.fromEntries(['host', 'date', 'signature'].map((name) => [name, signed.headers.get(name) ?? '']));
}

/**
 * A remote server's JSON document, through the app's outgoing-request guard instead of the global
 * fetch: every hop of a redirect is checked again, so a remote server can never lead the instance
 * to its own network. One deadline covers all the hops, so a server answering each slowly holds
 * the request (an inbox's, waiting on a signer's key) no longer than one. Fails with Fedify's
 * FetchError on any answer that is not JSON, or that imports a JSON-LD context (context-imports.ts).
 */
export async function fetchRemoteJson(egress: Egress, url: string, how: RemoteJsonRequest): Promise<{ document: unknown; documentUrl: string }> {
  const timeoutMs = how.rules.documentTimeoutMs ?? FEDERATION_FETCH_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const signal = how.signal ? AbortSignal.any([deadline, how.signal]) : deadline;
  let current = url;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    if (await how.refused?.(current)) throw new FetchError(current, 'blocked domain');
    signal.throwIfAborted();
    // Each hop signed for its own address: a signature names the host and path it was made for.
    const key = how.signer ? await how.signer() : null;
    const signature = key ? await signatureHeaders(current, how.accept, key) : {};
    const response = await egress.request(
      current,
      { method: 'GET', headers: { Accept: how.accept, 'User-Agent': how.userAgent, ...signature }, timeoutMs, maxResponseBytes: MAX_BYTES, signal },
      how.rules,
    );
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      current = new URL(location, current).href;
      continue;
    }
    // The status goes with the error: a 404 or 410 says the document is gone (see `isGone`).
    if (response.status < 200 || response.status >= 300) throw new FetchError(current, `HTTP ${response.status}`, response.status >= 400 && response.status <= 599 ? new Response(null, { status: response.status }) : undefined);
    let document: unknown;
    try {
      document = JSON.parse(response.body.toString('utf8')) as unknown;
    } catch {
      throw new FetchError(current, 'not JSON');
    }
    if (importsContext(document)) throw new FetchError(current, 'imports a JSON-LD context');
    return { document, documentUrl: current };
  }
  throw new FetchError(url, 'too many redirects');
}

/** Whether a fetch failed because the server no longer has the document. */
export const isGone = (error: unknown) => error instanceof FetchError && (error.response?.status === 404 || error.response?.status === 410);

/** A context that defines no terms: what one the instance has no copy of is read as. */
const EMPTY_CONTEXT = { '@context': {} };

/** What a JSON-LD context named by address says: Fedify's copy of a common one, the instance's own of LitePub's, else nothing. */
function contextNamed(url: string): unknown {
  if (Object.hasOwn(preloadedContexts, url)) return preloadedContexts[url];
  return isLitepubContext(url) ? LITEPUB_CONTEXT : EMPTY_CONTEXT;
}

/**
 * Where JSON-LD contexts come from: the instance's copies only, never the network. A context is
 * named by whoever wrote the document, so fetching it would have the instance request what and
 * where a sender chooses, before anything about them is verified. One it has no copy of is read as
 * empty: the terms of the standard contexts named beside it (as every server names them) keep their
 * meaning, and only its own terms are left out of what is read.
 */
export const knownContextLoader: DocumentLoader = async (url) => ({ contextUrl: null, document: contextNamed(url), documentUrl: url });

/**
 * Fedify's loader of remote JSON-LD (actors, keys, objects), through the guard (fetchRemoteJson).
 * The common contexts are answered from Fedify's copies without a request.
 */
export function egressDocumentLoader(
  egress: Egress,
  userAgent: string,
  rules: FederationRules = FEDERATION_EGRESS,
  /** Addresses never to be read (a blocked domain's), each hop checked. */
  refused: (url: string) => Promise<boolean> = async () => false,
  /** Every document this loader reads is given up once it aborts. */
  signal?: AbortSignal,
  /** Signs each GET (see RemoteJsonRequest). */
  signer?: Signer,
): DocumentLoader {
  return async (url) => {
    if (url in preloadedContexts) return { contextUrl: null, document: preloadedContexts[url], documentUrl: url };
    return { contextUrl: null, ...(await fetchRemoteJson(egress, url, { accept: ACCEPT, userAgent, rules, refused, signal, signer })) };
  };
}
