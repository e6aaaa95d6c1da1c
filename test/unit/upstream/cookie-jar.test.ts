import { describe, expect, it } from 'vitest';
import { CookieJar } from '../../../src/upstream/cookie-jar.js';

describe('CookieJar', () => {
  it('scopes host-only and domain cookies', () => {
    const jar = new CookieJar();
    jar.storeFromHeaders(new URL('https://www.google.com/travel/search'), [
      'NID=511=abc; expires=Sat, 01-Jan-2099 00:00:00 GMT; path=/; domain=.google.com; Secure; HttpOnly',
      'host_only=1; Path=/',
      'evil=1; Domain=.example.com',
    ]);
    expect(jar.header(new URL('https://www.google.com/search'))).toBe('NID=511=abc; host_only=1');
    expect(jar.header(new URL('https://trends.google.com/trends'))).toBe('NID=511=abc');
    expect(jar.header(new URL('http://trends.google.com/trends'))).toBeUndefined(); // Secure
    expect(jar.header(new URL('https://www.example.com/'))).toBeUndefined();
  });

  it('honours paths, Max-Age and deletion', () => {
    let now = 1_000_000;
    const jar = new CookieJar(() => now);
    const url = new URL('https://www.booking.com/hotel/fr/x.html');
    jar.storeFromHeaders(url, ['a=1; Path=/hotel; Max-Age=60', 'b=2; Path=/searchresults']);
    expect(jar.header(new URL('https://www.booking.com/hotel/gb/y.html'))).toBe('a=1');
    expect(jar.header(new URL('https://www.booking.com/hotels'))).toBeUndefined();
    now += 61_000;
    expect(jar.header(url)).toBeUndefined();
    jar.storeFromHeaders(url, 'c=3; Path=/');
    jar.storeFromHeaders(url, 'c=; Path=/; Max-Age=0');
    expect(jar.header(url)).toBeUndefined();
  });
});
