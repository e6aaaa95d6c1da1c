import { describe, expect, it } from 'vitest';
import { UpstreamContractChanged, UpstreamFailed } from '../../../../../src/domain/errors.js';
import { BOOKING_RPC, parseBookingResults } from '../../../../../src/sources/metasearch/flights/booking-rpc.js';
import { toCompatBookingOptions } from '../../../../../src/sources/metasearch/flights/parse-booking.js';
import { bookingResultsReply } from '../../../../replay/signed-sites.js';
import { RPC_REFUSED } from '../../../../fixtures/flights-rpc-payloads.js';

describe('GetBookingResults reply (browser path capture)', () => {
  it('reads the option rows of every frame with the row parser', () => {
    const options = parseBookingResults(bookingResultsReply());
    expect(options.map((o) => o.kind)).toEqual(['together', 'together', 'separate']);
    expect(toCompatBookingOptions(options)[0]).toMatchObject({ together: { book_with: 'Example Travel', price: 1987 } });
  });

  it('an empty option list is no seller (empty), a refusal is a 502, a reply without the list a contract change', () => {
    expect(parseBookingResults(bookingResultsReply([]))).toEqual([]);
    expect(() => parseBookingResults(RPC_REFUSED)).toThrow(UpstreamFailed);
    expect(() => parseBookingResults(RPC_REFUSED)).toThrow('RpcStatus13');
    const noList = `)]}'\n\n${JSON.stringify([['wrb.fr', null, JSON.stringify([[null], null]), null, null, null, 'generic']])}\n`;
    expect(() => parseBookingResults(noList)).toThrow(UpstreamContractChanged);
    expect(() => parseBookingResults('<html>')).toThrow(UpstreamContractChanged);
  });

  it('matches the front end RPC URL only', () => {
    expect(
      BOOKING_RPC.test('https://www.google.com/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetBookingResults?f.sid=1&rt=c'),
    ).toBe(true);
    expect(BOOKING_RPC.test('https://www.google.com/_/FlightsFrontendUi/data/travel.frontend.flights.FlightsFrontendService/GetBookingResultsV2')).toBe(false);
  });
});
