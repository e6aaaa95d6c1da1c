import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseNewbookKeys } from '../../../../src/config/engine-credentials.js';
import { newbook, parseNewbookAvailability } from '../../../../src/sources/official/quote-newbook.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { NEWBOOK_INSTANCE, NEWBOOK_KEY, newbookAvailability } from '../../../fixtures/official-keyed-engine-replies.js';

const STAY = engineStay({ propertyCode: NEWBOOK_INSTANCE });
const KEYS = { newbook: { [NEWBOOK_INSTANCE]: NEWBOOK_KEY } };
const json = (v: unknown) => JSON.stringify(v);

describe('official newbook quote (the availability pricing reply public clients read)', () => {
  it('one offer per category and tariff: the stay total and nights of a successful tariff with a free site; the others listed, not sold', () => {
    const offers = parseNewbookAvailability(json(newbookAvailability('2027-03-10', 2)), STAY);
    expect(offers.map((o) => [o.room_id, o.room_name, o.rate_name, o.total, o.nightly, o.rooms_available, o.bookable])).toEqual([
      ['12', 'Airstream Suite', 'Best Available Rate', 300, [150, 150], 3, true],
      ['12', 'Airstream Suite', 'Members Rate', 270, [135, 135], 3, true],
      ['14', 'Canyon Cabin', 'Best Available Rate', null, null, 0, false],
      ['15', 'Glamping Tent', 'Best Available Rate', null, null, 2, false],
    ]);
    expect(offers[0]).toMatchObject({
      currency: null,
      taxes: null,
      taxes_and_fees_included: null,
      upstream_rate_id: 'BAR',
      price_basis: 'stay_total_as_quoted',
    });
    // nothing for the stay; a refusal is a 502 naming the engine (its message not echoed); another shape a changed contract
    expect(parseNewbookAvailability(json({ success: 'true', data: [], message: '' }), STAY)).toEqual([]);
    expect(() => parseNewbookAvailability(json({ success: 'false', message: 'Invalid API key' }), STAY)).toThrow(
      expect.objectContaining({ status: 502, detail: 'NewbookError' }),
    );
    expect(() => parseNewbookAvailability(json({ data: {} }), STAY)).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("needs the property's key: none set names the setting, another instance is a 422, its own is sent as documented", async () => {
    expect(newbook.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_NEWBOOK_KEYS');
    expect(newbook.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(newbook.quote({ ...STAY, propertyCode: 'other' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: string; init: { method?: string; headers?: Record<string, string>; body?: string } }[] = [];
    const offers = await newbook.quote(
      { ...STAY, propertyCode: 'The_Outpost', children: 1 },
      async (url, init) => {
        sent.push({ url, init });
        return { status: 200, text: json(newbookAvailability('2027-03-10', 2)) };
      },
      engineContext('http://replay.test/newbook', KEYS),
    );
    expect(offers.filter((o) => o.bookable)).toHaveLength(2);
    expect(sent.map((s) => [s.url, s.init.method])).toEqual([['http://replay.test/newbook/rest/bookings_availability_pricing', 'POST']]);
    expect(JSON.parse(sent[0]!.init.body!)).toEqual({
      region: 'us',
      api_key: NEWBOOK_KEY.apiKey,
      period_from: '2027-03-10 14:00:00',
      period_to: '2027-03-12 10:00:00',
      adults: 2,
      children: 1,
      infants: 0,
      daily_mode: 'true',
    });
    expect(sent[0]!.init.headers).toMatchObject({
      authorization: `Basic ${Buffer.from(`${NEWBOOK_KEY.username}:${NEWBOOK_KEY.password}`).toString('base64')}`,
    });
  });

  it('the setting: instance=region:username:password:apiKey entries, a malformed one refused without echoing its secrets', () => {
    const entry = `${NEWBOOK_INSTANCE}=us:${NEWBOOK_KEY.username}:${NEWBOOK_KEY.password}:${NEWBOOK_KEY.apiKey}`;
    expect(parseNewbookKeys(` ${entry} `)).toEqual({ [NEWBOOK_INSTANCE]: NEWBOOK_KEY });
    expect(() => parseNewbookKeys('the_outpost=us:only-a-user')).toThrow(/^entry "the_outpost=…" is not instance=region:username:password:apiKey$/);
  });
});
