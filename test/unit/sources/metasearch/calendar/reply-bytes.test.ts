import { describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../../../helpers/fixtures.js';
import { calendarReply, rateEntry, realRateBlock } from '../../../../helpers/calendar-payload.js';
import { rpcPayload, rpcPayloadOfBytes } from '../../../../../src/sources/metasearch/batchexecute.js';
import { CALENDAR_RPC, parseCalendarReply, parseCalendarRpc } from '../../../../../src/sources/metasearch/calendar/rpc.js';

const PAGE = 'google-hotels/travel-search-paris-budget.html';

/** A reply of three real rate blocks (a "€" in their price texts); `totalTexts` replaces their total texts. */
function reply(totalTexts?: string[]): string {
  const block = realRateBlock(PAGE);
  const entries = ['2027-03-10', '2027-03-11', '2027-03-12'].map((d, i) => rateEntry(block, d, 1, { total: 1234 + i }));
  totalTexts?.forEach((t, i) => ((entries[i]![9] as unknown[])[0] = t));
  return calendarReply(entries);
}

const suite = fixtureSuite('calendar RPC replies read from their bytes (real rate blocks, see test/fixtures/README.md)', PAGE);
describe(suite.title, () => {
  it('reads the same values as decoding the reply as UTF-8 first', () => {
    // grouping by no-break and narrow no-break spaces (2 and 3 bytes), a 4-byte emoji, CJK
    const text = reply(['€1\u00a0234', '1\u202f235\u00a0€', '¥1,236 🏨 東京']);
    const bytes = Buffer.from(text, 'utf8');
    expect(bytes.some((b) => b >= 0x80)).toBe(true);
    expect(rpcPayloadOfBytes(bytes, CALENDAR_RPC)).toEqual(rpcPayload(text, CALENDAR_RPC));
    const rates = parseCalendarReply(bytes, 1);
    expect(rates).toEqual(parseCalendarRpc(text, 1));
    expect(rates.get('2027-03-10')).toMatchObject({ total_text: '€1\u00a0234', total: 1234 });
    expect(rates.get('2027-03-11')).toMatchObject({ total_text: '1\u202f235\u00a0€', total: 1235 });
    expect(rates.get('2027-03-12')?.total_text).toBe('¥1,236 🏨 東京');
  });

  it('a reply that escapes characters of U+0080-U+00FF is decoded as UTF-8 first, and reads the same', () => {
    // "é" escaped in the inner JSON (so "\\u00e9" in the frame), a raw "€" elsewhere
    const text = reply().replace('€', 'caf\\\\u00e9 €');
    expect(text).toContain('\\\\u00e9');
    const bytes = Buffer.from(text, 'utf8');
    const read = rpcPayloadOfBytes(bytes, CALENDAR_RPC);
    expect(read).toEqual(rpcPayload(text, CALENDAR_RPC));
    expect(JSON.stringify(read)).toContain('café €');
  });

  it('an ASCII reply, and a refusal, read the same', () => {
    const ascii = reply(['USD 100', 'USD 101', 'USD 102']).replaceAll('€', 'EUR ');
    expect(rpcPayloadOfBytes(Buffer.from(ascii), CALENDAR_RPC)).toEqual(rpcPayload(ascii, CALENDAR_RPC));
    const refused = `)]}'\n\n47\n[["wrb.fr",null,null,null,null,[13]]]\n`;
    expect(() => rpcPayloadOfBytes(Buffer.from(refused), CALENDAR_RPC)).toThrow('RpcStatus13');
  });
});
