import { afterEach, describe, expect, it, vi } from 'vitest';
import { CookieJar } from '../../../src/upstream/cookie-jar.js';

describe('CookieJar', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

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
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2030-01-01T00:00:00Z'));
    const jar = new CookieJar();
    const url = new URL('https://www.booking.com/hotel/fr/x.html');
    jar.storeFromHeaders(url, ['a=1; Path=/hotel; Max-Age=60', 'b=2; Path=/searchresults']);
    expect(jar.header(new URL('https://www.booking.com/hotel/gb/y.html'))).toBe('a=1');
    expect(jar.header(new URL('https://www.booking.com/hotels'))).toBeUndefined();
    vi.setSystemTime(new Date('2030-01-01T00:01:01Z'));
    expect(jar.header(url)).toBeUndefined();
    jar.storeFromHeaders(url, 'c=3; Path=/');
    jar.storeFromHeaders(url, 'c=; Path=/; Max-Age=0');
    expect(jar.header(url)).toBeUndefined();
  });

  it('refuses a cookie for a public suffix, from a reply or as our own', () => {
    const jar = new CookieJar();
    const bbc = new URL('https://www.bbc.co.uk/news');
    jar.storeFromHeaders(bbc, ['wide=1; Domain=co.uk; Path=/', 'wider=1; Domain=.uk; Path=/', 'own=1; Domain=bbc.co.uk; Path=/']);
    jar.set(bbc, { name: 'consent', value: 'yes', domain: '.co.uk' });
    expect(jar.header(bbc)).toBe('own=1');
    // another site under the same suffix sees none of them
    expect(jar.header(new URL('https://www.example.co.uk/'))).toBeUndefined();
    // a suffix of the private section too: one github.io site cannot set cookies for all of them
    const pages = new URL('https://alice.github.io/');
    jar.storeFromHeaders(pages, 'shared=1; Domain=github.io; Path=/');
    expect(jar.header(new URL('https://bob.github.io/'))).toBeUndefined();
  });

  it('sets our own consent cookies for the site and its subdomains, host-only on an address', () => {
    const jar = new CookieJar();
    jar.set(new URL('https://www.google.com/travel'), { name: 'SOCS', value: 'CAI', domain: '.google.com', maxAgeSeconds: 3600 });
    expect(jar.header(new URL('https://trends.google.com/'))).toBe('SOCS=CAI');
    const local = new URL('http://127.0.0.1:9999/metasearch/travel');
    jar.set(local, { name: 'CONSENT', value: 'YES+' });
    expect(jar.header(new URL('http://127.0.0.1:9999/other'))).toBe('CONSENT=YES+');
    expect(jar.header(new URL('http://127.0.0.2:9999/other'))).toBeUndefined();
  });
});
