import net from 'node:net';

/**
 * Which addresses a fetch of an arbitrary website may reach: globally routable unicast only.
 * Everything private, loopback, link-local, shared, multicast, documentation or reserved is refused,
 * and IPv6 forms that embed an IPv4 address (mapped, NAT64, 6to4) are judged by that address.
 */
const V4_BLOCKED: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];

function v4ToInt(ip: string): number {
  return ip.split('.').reduce((acc, part) => acc * 256 + Number(part), 0);
}

const V4_RANGES = V4_BLOCKED.map(([base, bits]) => {
  const size = 2 ** (32 - bits);
  const start = v4ToInt(base);
  return [start, start + size - 1] as const;
});

function isPublicV4(ip: string): boolean {
  const n = v4ToInt(ip);
  return !V4_RANGES.some(([lo, hi]) => n >= lo && n <= hi);
}

/** Eight 16-bit groups of an IPv6 address (zone id dropped, embedded dotted IPv4 expanded). */
export function parseIpv6(input: string): number[] | null {
  let ip = input.replace(/^\[|\]$/g, '').split('%')[0];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (dotted) {
    if (!net.isIPv4(dotted[1])) return null;
    const n = v4ToInt(dotted[1]);
    ip = ip.slice(0, -dotted[1].length) + `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const halves = ip.split('::');
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(':') : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  const out = groups.map((g) => (/^[0-9a-f]{1,4}$/i.test(g) ? parseInt(g, 16) : NaN));
  return out.some(Number.isNaN) ? null : out;
}

function embeddedV4(hi: number, lo: number): string {
  return [hi >>> 8, hi & 255, lo >>> 8, lo & 255].join('.');
}

function isPublicV6(ip: string): boolean {
  const g = parseIpv6(ip);
  if (!g) return false;
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(5) && g[5] === 0xffff) return isPublicV4(embeddedV4(g[6], g[7])); // IPv4-mapped
  if (zeros(6)) return false; // unspecified, loopback, deprecated IPv4-compatible
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return isPublicV4(embeddedV4(g[6], g[7])); // NAT64
  if (g[0] === 0x2002) return isPublicV4(embeddedV4(g[1], g[2])); // 6to4
  if ((g[0] & 0xe000) !== 0x2000) return false; // outside global unicast 2000::/3 (ULA, link-local, multicast …)
  if (g[0] === 0x2001 && g[1] < 0x200) return false; // IETF protocol assignments incl. Teredo, ORCHID
  if (g[0] === 0x2001 && g[1] === 0x0db8) return false; // documentation
  if (g[0] === 0x3fff && g[1] < 0x1000) return false; // documentation (3fff::/20)
  return true;
}

/** True only for a globally routable unicast IPv4 or IPv6 address; false for anything else, including non-IPs. */
export function isPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[|\]$/g, '');
  const kind = net.isIP(bare.split('%')[0]);
  if (kind === 4) return isPublicV4(bare);
  if (kind === 6) return isPublicV6(bare);
  return false;
}
