import { describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../../../helpers/fixtures.js';
import { calendarReply, rateEntry, realRateBlock } from '../../../../helpers/calendar-payload.js';
import { parseCalendarRpc } from '../../../../../src/sources/metasearch/calendar/rpc.js';

const PAGE = 'google-hotels/travel-search-paris-budget.html';

const suite = fixtureSuite('metasearch calendar RPC entries (real rate blocks, see test/fixtures/README.md)', PAGE);
describe(suite.title, () => {
  it('keeps only the entries priced for the asked length of stay', () => {
    const block = realRateBlock(PAGE);
    const reply = calendarReply([rateEntry(block, '2027-03-10', 2, { total: 300 }), rateEntry(block, '2027-03-11', 3, { total: 420 })]);
    expect([...parseCalendarRpc(reply).keys()]).toEqual(['2027-03-10', '2027-03-11']);
    // a 3-night price is no answer for a 2-night stay: that check-in stays unpriced
    const asked = parseCalendarRpc(reply, 2);
    expect([...asked.keys()]).toEqual(['2027-03-10']);
    expect(asked.get('2027-03-10')).toMatchObject({ check_in: '2027-03-10', check_out: '2027-03-12', nights: 2, total_exact: 300 });
  });
});
