import { describe, expect, it } from 'vitest';
import { stayParity, type ParitySource } from '../../../src/domain/parity.js';
import { parityRange, type RangeStayInput } from '../../../src/domain/parity-range.js';

/** A source's all-in offer in USD (no provenance: the counting does not need it). */
const offer = (source: string, total: number | null, extra: Partial<NonNullable<ParitySource['offer']>> = {}): ParitySource => ({
  source,
  status: 'ok',
  error: null,
  offer: { available: total !== null, total, currency: 'USD', taxes_and_fees_included: true, rooms: 1, provenance: null, ...extra },
});

/** A stay as the range reads it: the comparison's own verdict over these sources. */
function stay(date: string, sources: ParitySource[]): RangeStayInput {
  const parity = stayParity(sources, { nights: 1, adults: 2 });
  return { date, los: 1, state: 'done', error: null, comparison: { check_out: date, parity, sources }, metasearch: null };
}

describe('parity over a range (counting the comparisons’ verdicts)', () => {
  it('a gap within the tolerance is a meet, beyond it a loss; equal is a meet at 0 % too', () => {
    const stays = [
      stay('2027-05-01', [offer('official', 100), offer('otaone', 99.5)]),
      stay('2027-05-02', [offer('official', 100), offer('otaone', 98.9)]),
      stay('2027-05-03', [offer('official', 100), offer('otaone', 100)]),
      stay('2027-05-04', [offer('official', 100), offer('otaone', 101.5)]),
    ];
    const r = parityRange(stays, ['otaone'], 1);
    expect(r.stays.map((s) => s.agencies[0]!.outcome)).toEqual(['meet', 'loss', 'meet', 'win']);
    expect(r.agencies[0]).toMatchObject({ win: 1, meet: 2, loss: 1, compared: 4, win_pct: 25, meet_pct: 50, loss_pct: 25 });
    expect(r.disparities.map((d) => [d.date, d.amount, d.pct])).toEqual([['2027-05-02', 1.1, 1.1]]);
    expect(parityRange(stays, ['otaone'], 0).disparities.map((d) => d.date)).toEqual(['2027-05-01', '2027-05-02']);
  });

  it('an agency left out of a comparison is not compared (with the reason); pending and failed stays count for nobody', () => {
    const stays: RangeStayInput[] = [
      stay('2027-05-01', [offer('official', 100), offer('otaone', 90, { rooms: 2 }), offer('otatwo', 95)]),
      { date: '2027-05-02', los: 1, state: 'pending', error: null, comparison: null, metasearch: null },
      { date: '2027-05-03', los: 1, state: 'failed', error: 'every source failed', comparison: null, metasearch: null },
    ];
    const r = parityRange(stays, ['otaone', 'otatwo'], 1);
    expect(r.stays[0]!.agencies.map((a) => [a.source, a.outcome, a.reason])).toEqual([
      ['otaone', 'not_compared', 'priced for 2 rooms, not 1'],
      ['otatwo', 'loss', null],
    ]);
    expect(r.stays.map((s) => s.status)).toEqual(['undercut', 'pending', 'failed']);
    expect(r.agencies).toMatchObject([
      { source: 'otaone', compared: 0, not_compared: 3, win_pct: null },
      { source: 'otatwo', loss: 1, compared: 1, not_compared: 2, loss_pct: 100 },
    ]);
  });

  it('an agency selling while the official site is sold out is flagged, not counted as a loss', () => {
    const r = parityRange([stay('2027-05-01', [offer('official', null), offer('otaone', 80)])], ['otaone'], 1);
    expect(r.stays[0]).toMatchObject({ status: 'official_sold_out', official: null });
    expect(r.selling_while_sold_out).toMatchObject([{ source: 'otaone', total: 80 }]);
    expect(r.agencies[0]).toMatchObject({ loss: 0, compared: 0, selling_while_sold_out: 1 });
    expect(r.disparities).toEqual([]);
  });
});
