import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';

export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * What an id taken from a proxy may be: visible ASCII, 1 to 128 characters. It goes into every log
 * line and back out in a header, so nothing that could break either (spaces, control characters,
 * a megabyte of text) is taken.
 */
const ACCEPTED_ID = /^[\x21-\x7e]{1,128}$/;

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** TRUST_PROXY's addresses (each an address or a CIDR range); an entry that is neither matches nothing. */
function parseRanges(list: string): Range[] {
  const ranges: Range[] = [];
  for (const entry of list.split(',').map((part) => part.trim())) {
    if (ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.process(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    }
  }
  return ranges;
}

function fromRanges(ranges: Range[], peer: string | undefined): boolean {
  if (!peer || !ipaddr.isValid(peer)) return false;
  const address = ipaddr.process(peer);
  return ranges.some(([range, bits]) => address.kind() === range.kind() && address.match(range, bits));
}

/**
 * Fastify's genReqId: a random UUID, so ids are unique across every process of a deployment, or
 * the id the proxy in front already gave the request (its X-Request-Id), so the proxy's log lines
 * and ours can be matched. The header is taken only from a proxy the app trusts (TRUST_PROXY: any
 * peer when `true`, else a peer at one of its addresses), since anyone else could use it to make
 * their requests look like someone else's in the logs.
 */
export function requestIdGenerator(trustProxy: boolean | string): (request: IncomingMessage) => string {
  const ranges = typeof trustProxy === 'string' ? parseRanges(trustProxy) : [];
  const trusted = (request: IncomingMessage) => trustProxy === true || fromRanges(ranges, request.socket?.remoteAddress);
  return (request) => {
    const offered = request.headers[REQUEST_ID_HEADER];
    if (typeof offered === 'string' && ACCEPTED_ID.test(offered) && trusted(request)) return offered;
    return randomUUID();
  };
}
