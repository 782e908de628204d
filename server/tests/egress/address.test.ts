import { describe, expect, it } from 'vitest';
import { addressRange, isPublicAddress } from '../../src/lib/egress/address';

/**
 * The outgoing-request guard's view of an address: only a public unicast one may be contacted.
 * Every form that reaches this machine, its network or a cloud's metadata service is something else.
 */

describe('egress: which addresses are public', () => {
  it.each([
    '8.8.8.8',
    '93.184.215.14',
    '1.1.1.1',
    // Next to private ranges, but outside them.
    '11.0.0.1',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '223.255.255.254',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200a',
    // A public IPv4 address written as IPv6: mapped, or behind the well-known NAT64 prefix.
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is public', (address) => {
    expect(addressRange(address)).toBe('public');
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['100.127.255.254', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['169.254.0.1', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'uniqueLocal'],
    ['fd00:ec2::254', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['fe80::1%eth0', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['100::1', 'discard'],
    ['2001:db8::1', 'reserved'],
    ['2002:7f00:1::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    // IPv4 inside IPv6: judged by the IPv4 address it carries.
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'linkLocal'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::a9fe:a9fe', 'linkLocal'],
    ['64:ff9b:1::a00:1', 'rfc6052'],
    // The old IPv4-compatible form is never a real peer.
    ['::7f00:1', 'ipv4Compatible'],
    ['::808:808', 'ipv4Compatible'],
  ])('%s is not public (%s)', (address, range) => {
    expect(addressRange(address)).toBe(range);
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['localhost', 'example.com', '', '2130706433', '0x7f000001', '127.1', '1.2.3.4.5', '[::1]'])(
    'takes only an address written plainly, not %j',
    (text) => {
      expect(addressRange(text)).toBe('invalid');
      expect(isPublicAddress(text)).toBe(false);
    },
  );
});
