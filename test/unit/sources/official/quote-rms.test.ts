import { describe, expect, it } from 'vitest';
import { NO_CREDENTIALS, parseRmsKeys } from '../../../../src/config/engine-credentials.js';
import { parseRmsAgentRates, parseRmsCategories, parseRmsRateGrid, parseRmsToken, rmsCloud } from '../../../../src/sources/official/quote-rms.js';
import { engineContext, engineStay } from '../../../helpers/engine-stay.js';
import { RMS_KEY, RMS_LINK_ID, RMS_TOKEN, rmsAgentRates, rmsAuthToken, rmsCategories, rmsRateGrid } from '../../../fixtures/official-keyed-engine-replies.js';

const STAY = engineStay({ propertyCode: RMS_LINK_ID });
const KEYS = { rms: { [RMS_LINK_ID]: RMS_KEY } };
const json = (v: unknown) => JSON.stringify(v);

describe('official rms cloud quote (documented REST API replies)', () => {
  it('token, agent rates and categories as documented; a reply of another shape is a changed contract', () => {
    expect(parseRmsToken(json(rmsAuthToken()))).toBe(RMS_TOKEN);
    expect(parseRmsAgentRates(json(rmsAgentRates()))).toEqual({ rateIds: [1416, 1420], propertyIds: [1] });
    expect(parseRmsCategories(json(rmsCategories()))).toEqual([4, 6]);
    expect(() => parseRmsToken(json({ expiryDate: 'x' }))).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseRmsAgentRates(json({ rates: [] }))).toThrow(expect.objectContaining({ status: 503 }));
    expect(() => parseRmsRateGrid('<html>', STAY)).toThrow(expect.objectContaining({ status: 502 }));
  });

  it('rates grid: one offer per category and rate, priced from the nightly rates when every night is open', () => {
    const offers = parseRmsRateGrid(json(rmsRateGrid('2027-03-10', 2)), STAY);
    expect(offers.map((o) => [o.room_name, o.rate_name, o.total, o.nightly, o.rooms_available, o.bookable, o.currency, o.taxes_and_fees_included])).toEqual([
      ['Deluxe Queen', 'Best Available Rate', 370, [180, 190], 5, true, null, null],
      // three nights asked on arrival: listed, not priced
      ['Deluxe Queen', 'Stay 3 Save', null, null, 5, false, null, null],
      // no free area the second night
      ['Family Cabin', 'Best Available Rate', null, null, 0, false, null, null],
    ]);
    // a night missing from the breakdown: not priced
    expect(parseRmsRateGrid(json(rmsRateGrid('2027-03-10', 1)), STAY)[0]).toMatchObject({ total: null, bookable: false, rooms_available: null });
  });

  it('needs the credentials: none set names the setting, another link id is a 422; a token asked for this quote only, sent as authtoken', async () => {
    expect(rmsCloud.unavailable?.(NO_CREDENTIALS)).toContain('OFFICIAL_RMS_KEYS');
    expect(rmsCloud.unavailable?.({ ...NO_CREDENTIALS, ...KEYS })).toBeNull();
    const never = () => Promise.reject(new Error('no request expected'));
    await expect(rmsCloud.quote({ ...STAY, propertyCode: '4417' }, never, engineContext('http://x.test', KEYS))).rejects.toMatchObject({ status: 422 });
    const sent: { url: string; init: { method?: string; headers?: Record<string, string>; body?: string } }[] = [];
    const call = async (url: string, init: { method?: string; headers?: Record<string, string>; body?: string }) => {
      sent.push({ url, init });
      if (url.endsWith('/authToken')) return { status: 200, text: json(rmsAuthToken()) };
      if (url.includes('/agents/')) return { status: 200, text: json(rmsAgentRates()) };
      if (url.includes('/categories')) return { status: 200, text: json(rmsCategories()) };
      return { status: 200, text: json(rmsRateGrid('2027-03-10', 2)) };
    };
    const offers = await rmsCloud.quote({ ...STAY, propertyCode: RMS_LINK_ID.toUpperCase(), children: 1 }, call, engineContext('http://replay.test/rms', KEYS));
    expect(offers.filter((o) => o.bookable).map((o) => o.total)).toEqual([370]);
    expect(sent.map((s) => [s.url, s.init.method])).toEqual([
      ['http://replay.test/rms/authToken', 'POST'],
      ['http://replay.test/rms/agents/90/rates', 'GET'],
      ['http://replay.test/rms/categories?propertyId=1&modelType=lite', 'GET'],
      ['http://replay.test/rms/rates/grid', 'POST'],
    ]);
    expect(JSON.parse(sent[0]!.init.body!)).toEqual({
      agentId: 1015,
      agentPassword: 'rms-agent-pass-01',
      clientId: 11281,
      clientPassword: 'rms-client-pass-01',
      useTrainingDatabase: false,
      moduleType: ['distribution'],
    });
    for (const s of sent.slice(1)) expect(s.init.headers).toMatchObject({ authtoken: RMS_TOKEN });
    expect(JSON.parse(sent[3]!.init.body!)).toEqual({
      arrival: '2027-03-10',
      departure: '2027-03-12',
      adults: 2,
      children: 1,
      infants: 0,
      agentId: 90,
      categoryIds: [4, 6],
      rateIds: [1416, 1420],
      includeEstimatedRates: false,
      includeZeroRates: false,
    });
  });

  it('the setting: linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId, a malformed one refused without echoing secrets', () => {
    expect(parseRmsKeys(`0C8B2754C6C8240A=1015:rms-agent-pass-01:distribution:11281:rms-client-pass-01:90`)).toEqual({ [RMS_LINK_ID]: RMS_KEY });
    expect(() => parseRmsKeys('4417=1015:secret')).toThrow(
      /^entry "4417=…" is not linkId=agentId:agentPassword:moduleType:clientId:clientPassword:onlineAgentId$/,
    );
  });
});
