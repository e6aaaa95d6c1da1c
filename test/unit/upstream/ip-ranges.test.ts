import { describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../../src/upstream/ip-ranges.js';

/** The edges of the SSRF table: the last address inside each refused range and the first outside it. */
describe('isPublicAddress at the range boundaries', () => {
  it.each([
    ['9.255.255.255', true],
    ['10.0.0.0', false],
    ['10.255.255.255', false],
    ['11.0.0.0', true],
    ['100.63.255.255', true],
    ['100.64.0.0', false],
    ['100.127.255.255', false],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.31.255.255', false],
    ['172.32.0.0', true],
    ['192.0.0.255', false],
    ['192.0.1.0', true],
    ['198.17.255.255', true],
    ['198.19.255.255', false],
    ['198.20.0.0', true],
    ['223.255.255.255', true],
    ['224.0.0.0', false],
  ])('IPv4 %s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  it.each([
    ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', false], // below global unicast
    ['2000::1', true],
    ['2001::1', false], // Teredo
    ['2001:1ff:ffff::1', false], // end of the IETF /23
    ['2001:200::1', true],
    ['2001:db8:ffff::1', false],
    ['2001:db9::1', true],
    ['2002:808:808::1', true], // 6to4 of 8.8.8.8
    ['2002:a00:1::1', false], // 6to4 of 10.0.0.1
    ['3ffe:ffff::1', true],
    ['3fff:fff::1', false], // documentation 3fff::/20
    ['3fff:1000::1', true],
    ['4000::1', false], // above global unicast
    ['64:ff9b::7f00:1', false], // NAT64 of 127.0.0.1
    ['64:ff9b:1::808:808', false], // local-use NAT64 (64:ff9b:1::/48) lies outside 2000::/3
    ['[::ffff:10.0.0.1]', false],
    ['::ffff:172.32.0.1', true],
  ])('IPv6 %s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });

  it('refuses what is not a plain address', () => {
    for (const s of ['', 'localhost', '0x7f.1', '2130706433', '127.1', '1.2.3.4.5', '::g', '[::1']) expect(isPublicAddress(s), s).toBe(false);
  });
});
