import { lookup as systemLookup } from 'node:dns/promises';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { type LookupFunction, isIP } from 'node:net';
import { addressRange, isLoopbackAddress, isPublicAddress } from './address.js';

/**
 * The one way the server opens a connection to a URL it was handed (push endpoints today, link
 * previews and federated peers later). A URL passes when its scheme is https and every address its
 * host resolves to is public (address.ts); and the connection is made to an address this guard
 * resolved and passed itself, inside the connect, so a name whose DNS answer changes between a
 * check and the request (rebinding) still never reaches this machine or its network.
 */

export interface ResolvedAddress {
  address: string;
  family: number;
}
/** Every address a name has; the system's resolver unless tests answer for made-up names. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => systemLookup(hostname, { all: true, verbatim: true });

/** A URL the guard will not contact, and why. */
export class EgressRefused extends Error {
  readonly code = 'EGRESS_REFUSED';
  constructor(reason: string) {
    super(`outgoing request refused: ${reason}`);
    this.name = 'EgressRefused';
  }
}

export interface EgressRules {
  /**
   * Plain http to this machine's loopback addresses only (a local fake service in tests and
   * development); https never goes there, and plain http nowhere else.
   */
  allowLoopbackHttp: boolean;
}

export interface EgressRequest {
  method: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
  /** The whole exchange, connecting included, is given up after this long. */
  timeoutMs: number;
  /**
   * Opening the connection (the name's look-up, TCP and TLS) is given up after this long: a host
   * that does not even accept costs this, not the whole timeoutMs.
   */
  connectTimeoutMs?: number;
  /** Gives the exchange up early too: a deadline shared by several requests (a handle's look-up). */
  signal?: AbortSignal;
  /** Bytes of the answer kept at most; a longer answer fails the request. */
  maxResponseBytes?: number;
}

export interface EgressResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const MAX_RESPONSE_BYTES = 1024 * 1024;

type AddressTest = (address: string) => boolean;

interface Target {
  url: URL;
  host: string;
  allowed: AddressTest;
}

/** Ends the request if its connection is not open within `ms`. */
function limitConnect(sent: http.ClientRequest, ms: number, secure: boolean): void {
  sent.once('socket', (socket) => {
    // A kept-alive connection is open already.
    if (!socket.connecting) return;
    const timer = setTimeout(() => sent.destroy(new Error(`connect timeout: no connection within ${ms} ms`)), ms);
    socket.once(secure ? 'secureConnect' : 'connect', () => clearTimeout(timer));
    socket.once('close', () => clearTimeout(timer));
  });
}

export class Egress {
  /**
   * Own connection pools, never the global ones: a kept-alive connection is reused only for the
   * same host and port, and each of these was opened to an address the guard passed.
   */
  private readonly agents: { http: http.Agent; https: https.Agent };

  constructor(private readonly resolve: Resolver = systemResolver) {
    this.agents = {
      http: new http.Agent({ keepAlive: true, lookup: this.lookupFor(isLoopbackAddress) }),
      https: new https.Agent({ keepAlive: true, lookup: this.lookupFor(isPublicAddress) }),
    };
  }

  /**
   * Whether the URL may be contacted now, resolving its host: answers the parsed URL, or throws
   * EgressRefused (a name that does not resolve cannot be contacted either).
   */
  async check(raw: string, rules: EgressRules): Promise<URL> {
    const target = this.target(raw, rules);
    let addresses: ResolvedAddress[];
    try {
      addresses = await this.addressesOf(target.host);
    } catch (err) {
      if (err instanceof EgressRefused) throw err;
      throw new EgressRefused(`${target.host} does not resolve (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    this.vet(target.host, addresses, target.allowed);
    return target.url;
  }

  /** Sends the request through the guard; throws EgressRefused before any connection to a refused address. */
  request(raw: string, request: EgressRequest, rules: EgressRules): Promise<EgressResponse> {
    const target = this.target(raw, rules);
    const secure = target.url.protocol === 'https:';
    const max = request.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    return new Promise((resolve, reject) => {
      const timeout = AbortSignal.timeout(request.timeoutMs);
      const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
      const options = { method: request.method, headers: request.headers, signal };
      const sent = secure
        ? https.request(target.url, { ...options, agent: this.agents.https })
        : http.request(target.url, { ...options, agent: this.agents.http });
      sent.on('error', reject);
      if (request.connectTimeoutMs !== undefined) limitConnect(sent, request.connectTimeoutMs, secure);
      sent.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > max) sent.destroy(new Error(`answer over ${max} bytes`));
          else chunks.push(chunk);
        });
        response.on('error', reject);
        response.on('close', () => {
          if (response.complete) resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) });
          else reject(new Error('answer cut short'));
        });
      });
      sent.end(request.body);
    });
  }

  /** Closes the kept-alive connections (the app is closing). */
  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /** The URL's form and scheme, and its host when written as an address (a connection skips DNS for those). */
  private target(raw: string, rules: EgressRules): Target {
    let url: URL;
    try {
      // WHATWG parsing turns every odd way of writing an IPv4 host (0x7f000001, 2130706433, 0177.1)
      // into the plain one, so the address checks below see what a connection would use.
      url = new URL(raw);
    } catch {
      throw new EgressRefused('not a URL');
    }
    if (url.username || url.password) throw new EgressRefused('credentials in the URL');
    let allowed: AddressTest;
    if (url.protocol === 'https:') allowed = isPublicAddress;
    else if (url.protocol === 'http:' && rules.allowLoopbackHttp) allowed = isLoopbackAddress;
    else throw new EgressRefused(`scheme ${url.protocol}`);
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    if (!host) throw new EgressRefused('no host');
    if (isIP(host)) this.vet(host, [{ address: host, family: isIP(host) }], allowed);
    return { url, host, allowed };
  }

  private async addressesOf(host: string): Promise<ResolvedAddress[]> {
    return isIP(host) ? [{ address: host, family: isIP(host) }] : this.resolve(host);
  }

  /** Every address must pass: a name answering one public and one private address is refused. */
  private vet(host: string, addresses: ResolvedAddress[], allowed: AddressTest): void {
    if (!addresses.length) throw new EgressRefused(`${host} has no address`);
    const refused = addresses.find((a) => !allowed(a.address));
    if (refused) throw new EgressRefused(`${host} leads to ${refused.address} (${addressRange(refused.address)})`);
  }

  /**
   * The name lookup a connection makes: resolves, refuses unless every address passes, and hands
   * the connection those same addresses, so what is checked is what is used.
   */
  private lookupFor(allowed: AddressTest): LookupFunction {
    return (hostname, options, callback) => {
      const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
      this.addressesOf(hostname)
        .then((addresses) => {
          this.vet(hostname, addresses, allowed);
          const usable = family ? addresses.filter((a) => a.family === family) : addresses;
          if (!usable.length) throw Object.assign(new Error(`${hostname} has no IPv${family} address`), { code: 'ENOTFOUND' });
          return usable;
        })
        .then(
          (usable) => (options.all ? callback(null, usable) : callback(null, usable[0]!.address, usable[0]!.family)),
          (err: NodeJS.ErrnoException) => callback(err, options.all ? [] : '', 0),
        );
    };
  }
}
