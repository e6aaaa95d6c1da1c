import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseWubookKeys } from '../../../../src/config/engine-credentials.js';
import {
  parseWubookPlanPrices,
  parseWubookRoomValues,
  parseWubookRooms,
  wubook,
  wubookOffers,
  wiredData,
} from '../../../../src/sources/official/quote-wubook.js';
import { parseXmlRpcResponse, xmlRpcCall } from '../../../../src/sources/official/xml-rpc.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { WUBOOK_LCODE, WUBOOK_TOKEN, wiredAnswer, wubookParityPrices, wubookRoomValues, wubookRooms } from '../../../fixtures/official-keyed-engine-replies.js';

const STAY = engineStay({ propertyCode: WUBOOK_LCODE });
const KEYS = { wubook: { [WUBOOK_LCODE]: WUBOOK_TOKEN } };

describe('official wubook quote (documented Wired API answers, XML-RPC)', () => {
  it('xml-rpc: a call body with typed params; a response read back with its types; a fault and text that is no response refused', () => {
    expect(xmlRpcCall('fetch_plan_prices', ['tok<&>', 1411547593, 0, '10/03/2027'])).toBe(
      '<?xml version="1.0"?><methodCall><methodName>fetch_plan_prices</methodName><params>' +
        '<param><value><string>tok&lt;&amp;&gt;</string></value></param><param><value><int>1411547593</int></value></param>' +
        '<param><value><int>0</int></value></param><param><value><string>10/03/2027</string></value></param></params></methodCall>',
    );
    expect(parseXmlRpcResponse(wiredAnswer({ a: [1, 2.5, 'x', true] }), 'test')).toEqual([0, { a: [1, 2.5, 'x', true] }]);
    // a value without a type element is a string
    expect(parseXmlRpcResponse('<methodResponse><params><param><value>plain</value></param></params></methodResponse>', 'test')).toBe('plain');
    const fault =
      '<?xml version="1.0"?><methodResponse><fault><value><struct><member><name>faultCode</name><value><int>1</int></value></member>' +
      '<member><name>faultString</name><value><string>secret echo</string></value></member></struct></value></fault></methodResponse>';
    expect(() => parseXmlRpcResponse(fault, 'test')).toThrow(expect.objectContaining({ status: 502, message: expect.not.stringContaining('secret') }));
    expect(() => parseXmlRpcResponse('{"json": true}', 'test')).toThrow(expect.objectContaining({ status: 502 }));
  });

  it('[code, data]: 0 is the data, another code the API refusing the call (502 naming the code)', () => {
    expect(wiredData(wiredAnswer([]), 'fetch_rooms')).toEqual([]);
    expect(() => wiredData(wiredAnswer('Invalid token', -100), 'fetch_rooms')).toThrow(
      expect.objectContaining({ status: 502, message: expect.stringContaining('-100') }),
    );
    const struct = '<methodResponse><params><param><value><struct></struct></value></param></params></methodResponse>';
    expect(() => wiredData(struct, 'fetch_rooms')).toThrow(expect.objectContaining({ status: 503 }));
  });

  it('rooms on the booking engine fitting the party, priced from the WuBook Parity when every night is open', () => {
    const rooms = parseWubookRooms(wiredAnswer(wubookRooms()));
    expect(rooms.map((r) => [r.id, r.occupancy, r.parent, r.onBookingEngine])).toEqual([
      ['77401', 2, null, true],
      ['77402', 4, null, true],
      ['77403', 2, '77401', true],
      ['77404', 2, null, false],
    ]);
    const values = parseWubookRoomValues(wiredAnswer(wubookRoomValues(2)));
    const prices = parseWubookPlanPrices(wiredAnswer(wubookParityPrices(2)));
    const offers = wubookOffers(rooms, values, prices, STAY);
    expect(offers.map((o) => [o.room_name, o.total, o.nightly, o.rooms_available, o.bookable, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Double Room', 184.5, [89.5, 95], 2, true, null, null],
      // a three-night minimum from the arrival day: listed, not priced
      ['Family Suite', null, null, 1, false, null, null],
      // the virtual room: its own price, its parent's availability
      ['Double Room with Breakfast', 215, [105, 110], 2, true, null, null],
    ]);
    expect(offers[0]!.booking_url).toBe(`https://wubook.net/wbkd/wbk/?lcode=${WUBOOK_LCODE}&dfrom=10/03/2027&nights=2`);
    // three guests: only the suite fits; a night without availability closes the double and its virtual room
    expect(wubookOffers(rooms, values, prices, { ...STAY, adults: 3 }).map((o) => o.room_name)).toEqual(['Family Suite']);
    const soldOut = wubookOffers(rooms, parseWubookRoomValues(wiredAnswer(wubookRoomValues(2, true))), prices, STAY);
    expect(soldOut.map((o) => [o.room_id, o.bookable, o.rooms_available])).toEqual([
      ['77401', false, 0],
      ['77402', false, 1],
      ['77403', false, 0],
    ]);
    // a night without a parity price is not priced
    expect(wubookOffers(rooms, values, new Map([['77401', [89.5]]]), STAY)[0]).toMatchObject({ total: null, bookable: false });
  });

  it("needs the property's token: none set names the setting, another lcode is a 422, its own goes to Wired with dd/mm/yyyy dates and dto the last night", async () => {
    expect(wubook.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_WUBOOK_KEYS');
    expect(wubook.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(wubook.quote({ ...STAY, propertyCode: '1234567890' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: string; body: string; expect?: string }[] = [];
    const call = async (url: string, init: { body?: string; expect?: string }) => {
      sent.push({ url, body: init.body ?? '', expect: init.expect });
      const method = /<methodName>(\w+)<\/methodName>/.exec(init.body ?? '')![1];
      const data = method === 'fetch_rooms' ? wubookRooms() : method === 'fetch_rooms_values' ? wubookRoomValues(2) : wubookParityPrices(2);
      return { status: 200, text: wiredAnswer(data) };
    };
    const offers = await wubook.quote(STAY, call, engineContext('http://replay.test/wubook', KEYS));
    expect(offers.filter((o) => o.bookable).map((o) => o.total)).toEqual([184.5, 215]);
    expect(sent.map((s) => [s.url, /<methodName>(\w+)/.exec(s.body)![1], s.expect])).toEqual([
      ['http://replay.test/wubook/xrws/', 'fetch_rooms', 'html'],
      ['http://replay.test/wubook/xrws/', 'fetch_rooms_values', 'html'],
      ['http://replay.test/wubook/xrws/', 'fetch_plan_prices', 'html'],
    ]);
    expect(sent[2]!.body).toBe(xmlRpcCall('fetch_plan_prices', [WUBOOK_TOKEN, Number(WUBOOK_LCODE), 0, '10/03/2027', '11/03/2027']));
  });

  it('the setting: lcode=token entries, a malformed one refused without echoing the token', () => {
    expect(parseWubookKeys(` ${WUBOOK_LCODE}=${WUBOOK_TOKEN} `)).toEqual({ [WUBOOK_LCODE]: WUBOOK_TOKEN });
    expect(() => parseWubookKeys('1411547593=short')).toThrow(/^entry "1411547593=…" is not lcode=token$/);
  });
});
