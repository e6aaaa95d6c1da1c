import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS } from '../../../../src/config/engine-credentials.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { mews, parseMewsAvailability, parseMewsConfiguration } from '../../../../src/sources/official/quote-mews.js';
import { MEWS_CONFIGURATION, MEWS_CONFIGURATION_ID, MEWS_ENTERPRISE_ID, mewsAvailability } from '../../../fixtures/official-engine-replies.js';

const STAY = engineStay({ propertyCode: MEWS_CONFIGURATION_ID, bookingUrl: `https://app.mews.com/distributor/${MEWS_CONFIGURATION_ID}` });
const json = (v: unknown) => JSON.stringify(v);

describe('official mews quote (documented Booking Engine API replies)', () => {
  it('the configuration names the enterprise (hotel) id and room categories; none is a 404', () => {
    const config = parseMewsConfiguration(json(MEWS_CONFIGURATION), MEWS_CONFIGURATION_ID);
    expect(config.hotelId).toBe(MEWS_ENTERPRISE_ID);
    expect(() => parseMewsConfiguration(json({ Configurations: [] }), MEWS_CONFIGURATION_ID)).toThrow(expect.objectContaining({ status: 404 }));
  });

  it("one offer per category and rate for the asked party: the gross total in the amount's currency, taxes summed, rooms left", () => {
    const config = parseMewsConfiguration(json(MEWS_CONFIGURATION), MEWS_CONFIGURATION_ID);
    const offers = parseMewsAvailability(json(mewsAvailability()), config, STAY);
    expect(offers.map((o) => [o.room_name, o.rate_name, o.total, o.taxes, o.currency, o.rooms_available, o.bookable])).toEqual([
      ['Double Castleroom', 'Flexible', 218, 18, 'EUR', 5, true],
      ['Double Castleroom', 'Saver', 196.2, 16.2, 'EUR', 5, true],
      ['Tower Suite', 'Flexible', 420, 34.68, 'EUR', 0, false],
    ]);
    expect(offers[0]).toMatchObject({
      price_basis: 'stay_total_gross_as_quoted',
      booking_url: `https://app.mews.com/distributor/${MEWS_CONFIGURATION_ID}?mewsStart=2027-03-10&mewsEnd=2027-03-12&mewsAdultCount=2&mewsChildCount=0&mewsRoom=295d96e7-8501-4cbd-b78d-8bf590bf6db9&mewsRoute=rates`,
    });
    expect(parseMewsAvailability(json(mewsAvailability()), config, { ...STAY, language: 'nl' })[0]!.room_name).toBe('Tweepersoons Kasteelkamer');
    // a party the reply has no occupancy for gets no offer (never the price of another party)
    expect(parseMewsAvailability(json(mewsAvailability()), config, { ...STAY, adults: 3 })).toEqual([]);
    expect(() => parseMewsAvailability(json({ Rates: [] }), config, STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('needs a registered client; with one, asks the configuration then the availability with it', async () => {
    expect(mews.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_MEWS_CLIENT');
    expect(mews.unavailable?.({ ...NO_CREDENTIALS, mewsClient: 'Example 1.0' })).toBeNull();
    const bodies: Record<string, unknown>[] = [];
    const offers = await mews.quote(
      STAY,
      async (url, init) => {
        bodies.push(JSON.parse(init.body as string));
        return { status: 200, text: json(url.endsWith('/configuration/get') ? MEWS_CONFIGURATION : mewsAvailability()) };
      },
      engineContext('http://replay.test/mews', { mewsClient: 'Example 1.0' }),
    );
    expect(offers).toHaveLength(3);
    expect(bodies).toEqual([
      { Client: 'Example 1.0', Ids: [MEWS_CONFIGURATION_ID], PrimaryId: MEWS_CONFIGURATION_ID },
      {
        Client: 'Example 1.0',
        ConfigurationId: MEWS_CONFIGURATION_ID,
        HotelId: MEWS_ENTERPRISE_ID,
        StartUtc: '2027-03-10T00:00:00Z',
        EndUtc: '2027-03-12T00:00:00Z',
        AdultCount: 2,
        ChildCount: 0,
        CurrencyCode: 'EUR',
      },
    ]);
  });
});
