import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged } from '../../../../src/domain/errors.js';
import { parseRentaloneListingPage } from '../../../../src/sources/rentalone/listing-page.js';

describe('rentalone listing id → property id', () => {
  const page = (state: string) => `<html><head><script>window.__STATE__=${state};</script></head></html>`;

  it('takes the page state’s expediaPropertyId first, also from a link parameter', () => {
    expect(parseRentaloneListingPage(page('{"expediaPropertyId":"84082205","propertyId":"1"}'))).toBe('84082205');
    expect(parseRentaloneListingPage('<a href="/search?selected=1&expediaPropertyId=92474172">x</a>')).toBe('92474172');
  });

  it('then pinnedPropertyId, then propertyId; nothing at all is a contract change', () => {
    expect(parseRentaloneListingPage(page('{"propertyId":"5550002","pinnedPropertyId":"5550001"}'))).toBe('5550001');
    expect(parseRentaloneListingPage(page('{"propertyId":"5550002"}'))).toBe('5550002');
    expect(() => parseRentaloneListingPage('<html><a href="/788798">listing</a></html>')).toThrow(UpstreamContractChanged);
  });
});
