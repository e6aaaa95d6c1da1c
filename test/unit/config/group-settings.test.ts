import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.js';
import { OPERATIONS, pointOfSale, servedMarkets } from '../../../src/sources/shared/group-graphql.js';

describe('GROUP_POS_CONTEXTS and GROUP_QUERY_HASHES', () => {
  it('default to nothing: only the public contexts are served', () => {
    const config = loadConfig({});
    expect(config.GROUP_POS_CONTEXTS).toEqual({});
    expect(servedMarkets('otatwo', config.GROUP_POS_CONTEXTS)).toEqual(['EU', 'GB', 'US']);
    expect(() => pointOfSale('otathree', 'CA', config.GROUP_POS_CONTEXTS)).toThrow(/market CA is not known; an operator can supply it in GROUP_POS_CONTEXTS/);
  });

  it('a configured context takes the market currency and may replace a built-in one', () => {
    const config = loadConfig({
      GROUP_POS_CONTEXTS: JSON.stringify({ otatwo: { NZ: { siteId: 11, eapid: 0, locale: 'en_NZ' }, US: { siteId: 2, tpid: 2, eapid: 5, locale: 'en_US' } } }),
    });
    expect(pointOfSale('otatwo', 'NZ', config.GROUP_POS_CONTEXTS)).toEqual({ siteId: 11, eapid: 0, locale: 'en_NZ', currency: 'NZD' });
    expect(pointOfSale('otatwo', 'US', config.GROUP_POS_CONTEXTS)).toMatchObject({ siteId: 2, eapid: 5, currency: 'USD' });
    expect(pointOfSale('otatwo', 'GB', config.GROUP_POS_CONTEXTS)).toMatchObject({ siteId: 3, currency: 'GBP' });
  });

  it('a context may name its own site; the trailing slash is dropped, other schemes are refused', () => {
    const config = loadConfig({
      GROUP_POS_CONTEXTS: JSON.stringify({ otatwo: { DE: { siteId: 6, eapid: 0, locale: 'de_DE', baseUrl: 'https://www.example.de/' } } }),
    });
    expect(pointOfSale('otatwo', 'DE', config.GROUP_POS_CONTEXTS)).toEqual({
      siteId: 6,
      eapid: 0,
      locale: 'de_DE',
      currency: 'EUR',
      baseUrl: 'https://www.example.de',
    });
    expect(() =>
      loadConfig({ GROUP_POS_CONTEXTS: JSON.stringify({ otatwo: { DE: { siteId: 6, eapid: 0, locale: 'de_DE', baseUrl: 'ftp://example.de' } } }) }),
    ).toThrow(/otatwo\.DE: baseUrl/);
  });

  it.each([
    ['not JSON', '{', /GROUP_POS_CONTEXTS/],
    ['an unknown brand', JSON.stringify({ otafive: {} }), /unknown brand otafive/],
    ['a market the brand does not sell', JSON.stringify({ otathree: { GB: { siteId: 1, eapid: 0, locale: 'en_GB' } } }), /otathree: unknown market GB/],
    ['a context without siteId', JSON.stringify({ otatwo: { CA: { eapid: 0, locale: 'en_CA' } } }), /otatwo\.CA: siteId/],
    ['a malformed locale', JSON.stringify({ otatwo: { CA: { siteId: 4, eapid: 0, locale: 'english' } } }), /locale/],
    ['an extra key', JSON.stringify({ otatwo: { CA: { siteId: 4, eapid: 0, locale: 'en_CA', currency: 'USD' } } }), /otatwo\.CA/],
  ])('refuses %s at start', (_what, value, message) => {
    expect(() => loadConfig({ GROUP_POS_CONTEXTS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ GROUP_POS_CONTEXTS: value })).toThrow(message);
  });

  it('hashes: known operation names and 64-hex values only', () => {
    const hash = 'c'.repeat(64);
    expect(loadConfig({ GROUP_QUERY_HASHES: JSON.stringify({ [OPERATIONS.ancillaryOffers.name]: hash }) }).GROUP_QUERY_HASHES).toEqual({
      [OPERATIONS.ancillaryOffers.name]: hash,
    });
    expect(() => loadConfig({ GROUP_QUERY_HASHES: JSON.stringify({ SomeQuery: hash }) })).toThrow(/unknown operation SomeQuery/);
    expect(() => loadConfig({ GROUP_QUERY_HASHES: JSON.stringify({ [OPERATIONS.roomsAndRates.name]: 'abc' }) })).toThrow(/not a 64-hex sha256/);
  });
});
