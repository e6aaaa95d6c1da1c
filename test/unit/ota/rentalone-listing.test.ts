import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged } from '../../../src/platform/errors.js';
import { parseRentaloneListingPage } from '../../../src/sources/rentalone/listing-page.js';

describe('rentalone listing id → property id', () => {
  const page = (state: string) => `<html><head><script>window.__STATE__=${state};</script></head></html>`;

  it('takes the page state’s expediaPropertyId first, also from a link parameter', () => {
    expect(parseRentaloneListingPage(page('{"expediaPropertyId":"84082205","propertyId":"1"}'), '321456ha', 'https://site.test/84082299')).toBe('84082205');
    expect(parseRentaloneListingPage('<a href="/search?selected=1&expediaPropertyId=92474172">x</a>', '321456ha', 'https://site.test/321456ha')).toBe('92474172');
  });

  it('then the numeric page the listing redirected to, under any base path', () => {
    expect(parseRentaloneListingPage(page('{"pinnedPropertyId":"5"}'), '321456ha', 'https://site.test/84082205')).toBe('84082205');
    expect(parseRentaloneListingPage('<html></html>', '321456ha', 'http://127.0.0.1:9/rentalone/84082205/')).toBe('84082205');
  });

  it('a page that stayed on the listing falls back to the state keys; nothing at all is a contract change', () => {
    expect(parseRentaloneListingPage(page('{"pinnedPropertyId":"5550001"}'), '788798', 'https://site.test/788798')).toBe('5550001');
    expect(parseRentaloneListingPage(page('{"propertyId":"5550002"}'), '321456ha', 'https://site.test/321456ha')).toBe('5550002');
    expect(() => parseRentaloneListingPage('<html></html>', '788798', 'https://site.test/788798')).toThrow(UpstreamContractChanged);
  });
});
