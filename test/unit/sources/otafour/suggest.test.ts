import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged } from '../../../../src/domain/errors.js';
import { parseOtafourSuggest, suggestQuery } from '../../../../src/sources/otafour/suggest.js';
import { OTAFOUR_SUGGEST } from '../../../fixtures/otafour-payloads.js';

describe('otafour suggestions', () => {
  it('keeps hotel entries only, id from the result URL or IsHotel, city id as region', () => {
    const hits = parseOtafourSuggest(OTAFOUR_SUGGEST);
    expect(hits).toEqual([
      {
        position: 1,
        property_id: '2454174',
        name: 'Example Riverside Hotel',
        full_name: 'Example Riverside Hotel, Da Nang, Vietnam',
        type: 'hotel',
        region_id: '16440',
        latitude: null,
        longitude: null,
      },
      {
        position: 2,
        property_id: '88123',
        name: 'Riverside Suites Da Nang',
        full_name: 'Riverside Suites Da Nang',
        type: 'hotel',
        region_id: '16440',
        latitude: 16.06,
        longitude: 108.22,
      },
    ]);
  });

  it('reads the older SuggestionList key; a duplicate id is listed once', () => {
    const item = OTAFOUR_SUGGEST.ViewModelList[1];
    expect(parseOtafourSuggest({ SuggestionList: [item, item] }).map((h) => h.property_id)).toEqual(['2454174']);
  });

  it('a reply without the list is a contract change; an empty list is no result', () => {
    expect(() => parseOtafourSuggest({ Message: 'moved' })).toThrow(UpstreamContractChanged);
    expect(parseOtafourSuggest({ ViewModelList: [] })).toEqual([]);
  });

  it('sends the text as searchText with the public clients’ flags', () => {
    expect(suggestQuery('Riverside Da Nang')).toMatchObject({ searchText: 'Riverside Da Nang', origin: 'US', isHotelLandSearch: 'true' });
  });
});
