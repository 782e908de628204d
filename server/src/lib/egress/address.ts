import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the server may open a connection to on a stranger's word (a push endpoint, later
 * a link to preview or a federated peer): public unicast ones only. Everything that reaches this
 * machine, its private network, a cloud's metadata service (169.254.169.254, fd00:ec2::254) or a
 * group of hosts is refused, as Mastodon's private-address check does. ipaddr.js knows the special
 * ranges of both families; what it calls 'unicast' is the public rest.
 */

/**
 * The range an address falls in: 'public', the name of a special range ('loopback', 'private',
 * 'linkLocal', 'uniqueLocal', 'multicast', ...), or 'invalid' when the text is not an address in
 * its plain form (a host name, or a number form such as 0x7f000001 that only URL parsing turns
 * into an address).
 */
export function addressRange(address: string): string {
  if (!isIP(address)) return 'invalid';
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv4') return v4Range(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  // An IPv4 address carried in IPv6 (mapped, or behind the well-known NAT64 prefix) leads to that
  // IPv4 address, so it is judged as one: ::ffff:127.0.0.1 is loopback, 64:ff9b::8.8.8.8 public.
  const carried = carriedV4(v6);
  if (carried) return v4Range(carried);
  const range = v6.range();
  if (range !== 'unicast') return range;
  // ::a.b.c.d, the IPv4-compatible form long deprecated: no peer has such an address.
  return v6.match(V4_COMPATIBLE) ? 'ipv4Compatible' : 'public';
}

export const isPublicAddress = (address: string): boolean => addressRange(address) === 'public';
export const isLoopbackAddress = (address: string): boolean => addressRange(address) === 'loopback';

function v4Range(address: ipaddr.IPv4): string {
  const range = address.range();
  return range === 'unicast' ? 'public' : range;
}

const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const V4_COMPATIBLE = ipaddr.parseCIDR('::/96');

function carriedV4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  if (address.match(NAT64)) return ipaddr.fromByteArray(address.toByteArray().slice(12)) as ipaddr.IPv4;
  return null;
}
