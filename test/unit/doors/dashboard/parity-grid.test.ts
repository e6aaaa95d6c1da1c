import { describe, expect, it } from 'vitest';
import type { RangeStay } from '../../../../src/domain/parity-range.js';
import { metasearchLine, officialLine, parityGrid, stayTint, verdictLine } from '../../../../src/doors/dashboard/parity-grid.js';

/** The parity page's grid (issue 42): each stay's words and tint, from the range's own stays. */
type Verdict = RangeStay['agencies'][number];
const none = { total: null, currency: null, amount: null, pct: null, reason: null, provenance: null };
const verdict = (source: string, outcome: Verdict['outcome'], v: Partial<Verdict> = {}): Verdict => ({ ...none, source, outcome, ...v });
const stay = (v: Partial<RangeStay>): RangeStay => ({
  date: '2027-05-07',
  los: 2,
  check_out: '2027-05-09',
  status: 'undercut',
  reason: null,
  basis: { price: 'all_in_total', currency: 'USD', nights: 2, adults: 2, rooms: 1 },
  official: { total: 400, currency: 'USD', provenance: null },
  metasearch: null,
  agencies: [],
  ...v,
});

describe('the parity grid', () => {
  const loss = verdict('otaone', 'loss', { total: 380, currency: 'USD', amount: 20, pct: 5 });
  const meet = verdict('otatwo', 'meet', { total: 398, currency: 'USD', amount: 2, pct: 0.5 });
  const win = verdict('rentalone', 'win', { total: 412.5, currency: 'USD', amount: -12.5, pct: -3.1 });
  const selling = verdict('otaone', 'selling_while_sold_out', { total: 1250, currency: 'EUR' });
  const left = verdict('otatwo', 'not_compared', { reason: 'another room count' });

  it('says each verdict as the agency’s price against the site’s (minus: the agency is cheaper)', () => {
    expect([loss, meet, win, selling, left].map(verdictLine)).toEqual([
      'otaone loss −20 (−5 %)',
      'otatwo meet −2 (−0.5 %)',
      'rentalone win +12.5 (+3.1 %)',
      'otaone sells at 1,250 EUR',
      'otatwo not compared',
    ]);
  });

  it('tints a stay by its worst verdict, and leaves a stay with nothing compared untinted', () => {
    expect(stayTint(stay({ agencies: [win, meet, loss] }))).toBe('h-p3');
    expect(stayTint(stay({ status: 'official_sold_out', official: null, agencies: [selling, left] }))).toBe('h-p2');
    expect(stayTint(stay({ agencies: [win, meet] }))).toBe('h-0');
    expect(stayTint(stay({ agencies: [win, left] }))).toBe('h-n2');
    expect(stayTint(stay({ status: 'pending', official: null, agencies: [left] }))).toBe('h-none');
  });

  it('states the site’s total, or sold out, or nothing; the metasearch’s price apart', () => {
    expect(officialLine(stay({}))).toBe('400 USD');
    expect(officialLine(stay({ status: 'official_sold_out', official: null }))).toBe('sold out');
    expect(officialLine(stay({ status: 'failed', official: null }))).toBe('—');
    expect(metasearchLine(stay({ metasearch: { total: 650, currency: 'EUR', provenance: null } }))).toBe('metasearch shows 650 EUR');
    expect(metasearchLine(stay({}))).toBe('metasearch: no price');
  });

  it('draws a dash for a length without a stay and names why a stay or agency was not compared (escaped)', () => {
    const out = parityGrid(
      [stay({ status: 'failed', official: null, reason: 'the comparison failed: <timeout>', agencies: [left] }), stay({ date: '2027-05-08', los: 3 })],
      [2, 3],
    ).toString();
    expect(out).toContain('title="the comparison failed: &lt;timeout&gt;\notatwo: another room count"');
    expect(out).toContain('<span>comparison failed</span>');
    // 2027-05-07 has no 3-night stay, 2027-05-08 no 2-night one
    expect(out.match(/<td class="h-none" data-label="[23] nights">—<\/td>/g)).toHaveLength(2);
  });
});
