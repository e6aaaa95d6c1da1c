import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseSmoobuKeys } from '../../../../src/config/engine-credentials.js';
import { parseSmoobuApartments, parseSmoobuAvailability, smoobu, smoobuSignedHeaders } from '../../../../src/sources/official/quote-smoobu.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { SMOOBU_APARTMENTS, SMOOBU_CUSTOMER_ID, SMOOBU_KEY, smoobuAvailability } from '../../../fixtures/official-more-engine-replies.js';

const STAY = engineStay({ propertyCode: SMOOBU_CUSTOMER_ID });
const KEYS = { smoobu: { [SMOOBU_CUSTOMER_ID]: SMOOBU_KEY } };
const NAMES = parseSmoobuApartments(JSON.stringify(SMOOBU_APARTMENTS));

describe('official smoobu quote (documented API replies)', () => {
  it('one offer per unit named: the stay price and currency it states for available units, refused units not bookable', () => {
    const offers = parseSmoobuAvailability(JSON.stringify(smoobuAvailability(2, 2)), NAMES);
    expect(offers.map((o) => [o.room_id, o.room_name, o.total, o.currency, o.bookable])).toEqual([
      ['1101', 'Apartment Sonnenblick', 220, 'EUR', true],
      ['1102', 'Studio Seeblick', 170, 'EUR', true],
      ['1103', 'Chalet Bergwiese', null, null, false],
    ]);
    expect(offers[0]).toMatchObject({ taxes: null, taxes_and_fees_included: null, booking_url: null, price_basis: 'stay_total_as_quoted' });
    // empty maps sent as [] by the backend read as empty
    expect(parseSmoobuAvailability(JSON.stringify({ availableApartments: [], prices: [], errorMessages: [] }), NAMES)).toEqual([]);
    expect(() => parseSmoobuAvailability(JSON.stringify({ prices: {} }), NAMES)).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseSmoobuApartments(JSON.stringify([]))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('signs as the vendor asks: base64 HMAC-SHA256 of method, path, query, timestamp, nonce, body hash and key', () => {
    const at = new Date('2027-03-01T10:00:00.123Z');
    const headers = smoobuSignedHeaders(SMOOBU_KEY, 'POST', '/booking/checkApartmentAvailability', '{"a":1}', at, 'nonce-1');
    const canonical = [
      'POST',
      '/booking/checkApartmentAvailability',
      '',
      '2027-03-01T10:00:00Z',
      'nonce-1',
      createHash('sha256').update('{"a":1}').digest('hex'),
      SMOOBU_KEY.apiKey,
    ].join('\n');
    expect(headers).toEqual({
      'X-API-Key': SMOOBU_KEY.apiKey,
      'X-Timestamp': '2027-03-01T10:00:00Z',
      'X-Nonce': 'nonce-1',
      'X-Signature': createHmac('sha256', SMOOBU_KEY.apiSecret).update(canonical).digest('base64'),
    });
    expect(JSON.stringify(headers)).not.toContain(SMOOBU_KEY.apiSecret);
  });

  it("needs the account's key: none set names the setting, another account is a 422, its own signs both requests", async () => {
    expect(smoobu.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_SMOOBU_KEYS');
    expect(smoobu.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(smoobu.quote({ ...STAY, propertyCode: '1' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: string; init: { method?: string; headers?: Record<string, string>; body?: string } }[] = [];
    const offers = await smoobu.quote(
      { ...STAY, children: 3 },
      async (url, init) => {
        sent.push({ url, init });
        return { status: 200, text: JSON.stringify(url.endsWith('/api/apartments') ? SMOOBU_APARTMENTS : smoobuAvailability(2, 5)) };
      },
      engineContext('http://replay.test/smoobu', KEYS),
    );
    expect(offers.map((o) => [o.room_name, o.total, o.bookable])).toEqual([
      ['Apartment Sonnenblick', 220, true],
      ['Studio Seeblick', null, false],
      ['Chalet Bergwiese', null, false],
    ]);
    expect(sent.map((s) => [s.url, s.init.method])).toEqual([
      ['http://replay.test/smoobu/api/apartments', 'GET'],
      ['http://replay.test/smoobu/booking/checkApartmentAvailability', 'POST'],
    ]);
    expect(JSON.parse(sent[1]!.init.body!)).toEqual({ arrivalDate: '2027-03-10', departureDate: '2027-03-12', apartments: [], customerId: 753953, guests: 5 });
    for (const s of sent) expect(s.init.headers).toMatchObject({ 'X-API-Key': SMOOBU_KEY.apiKey, 'X-Signature': expect.any(String) });
  });

  it('the setting: customerId=apiKey:apiSecret entries, a malformed one refused without echoing its secret', () => {
    expect(parseSmoobuKeys(` ${SMOOBU_CUSTOMER_ID}=${SMOOBU_KEY.apiKey}:${SMOOBU_KEY.apiSecret} `)).toEqual({ [SMOOBU_CUSTOMER_ID]: SMOOBU_KEY });
    expect(() => parseSmoobuKeys('753953=only-a-key-123')).toThrow(/^entry "753953=…" is not customerId=apiKey:apiSecret$/);
  });
});
