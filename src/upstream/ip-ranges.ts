import net from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses a fetch of an arbitrary website may reach: globally routable unicast only.
 * Everything private, loopback, link-local, shared, multicast, documentation or reserved is refused,
 * and IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 * Parsing and matching are ipaddr.js's; the table is ours, from the IANA special-purpose registries,
 * so that a reader can check it line by line. safe-fetch.ts applies it to every DNS answer at
 * connect time (and to a literal address in the URL before that).
 */
const BLOCKED_V4 = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (cloud metadata)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.31.196.0/24', // AS112
  '192.52.193.0/24', // AMT
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '192.175.48.0/24', // AS112
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved and broadcast
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

/** Global unicast space; everything outside it (ULA, link-local, multicast, ::1, ::) is refused. */
const V6_GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');
const BLOCKED_V6 = [
  '2001::/23', // IETF protocol assignments, Teredo and ORCHID included
  '2001:db8::/32', // documentation
  '3fff::/20', // documentation
].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));
/** Prefixes that carry an IPv4 address: NAT64 in the last 32 bits, 6to4 in bits 16 to 47. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
const SIX_TO_FOUR = ipaddr.IPv6.parseCIDR('2002::/16');

function v4Of(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >>> 8, hi & 255, lo >>> 8, lo & 255]);
}

function isPublicV4(addr: ipaddr.IPv4): boolean {
  return !BLOCKED_V4.some((range) => addr.match(range));
}

function isPublicV6(addr: ipaddr.IPv6): boolean {
  const p = addr.parts;
  if (addr.isIPv4MappedAddress()) return isPublicV4(addr.toIPv4Address());
  if (addr.match(NAT64)) return isPublicV4(v4Of(p[6], p[7]));
  if (addr.match(SIX_TO_FOUR)) return isPublicV4(v4Of(p[1], p[2]));
  return addr.match(V6_GLOBAL_UNICAST) && !BLOCKED_V6.some((range) => addr.match(range));
}

/** True only for a globally routable unicast IPv4 or IPv6 address; false for anything else, including non-IPs. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '').split('%')[0];
  // net.isIP first: ipaddr.js would also read the legacy forms (0x7f.1, 2130706433) that the URL
  // parser has already normalised, and anything that is not a plain address is refused here
  const kind = net.isIP(bare);
  if (kind === 4) return isPublicV4(ipaddr.IPv4.parse(bare));
  if (kind === 6) return isPublicV6(ipaddr.IPv6.parse(bare));
  return false;
}
