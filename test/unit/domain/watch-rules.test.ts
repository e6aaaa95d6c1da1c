import { describe, expect, it } from 'vitest';
import { stayParity, type ParitySource } from '../../../src/domain/parity.js';
import { diff, evaluate, type Rule } from '../../../src/domain/watch-rules.js';
import { derivedUuid, nextSlot, retryDelayMs } from '../../../src/domain/watch-schedule.js';
import { observe, type Observation, type ObservedItem } from '../../../src/domain/watch-observation.js';

const item = (key: string, total: number | null, currency = 'USD'): ObservedItem => ({
  key,
  total,
  currency: total === null ? null : currency,
  available: total !== null,
  provenance: null,
});
const obs = (items: ObservedItem[], extra: Partial<Observation> = {}): Observation => ({ currency: 'USD', cheapest: null, items, parity: null, ...extra });
const run = (rule: Rule, prev: Observation | null, cur: Observation, op: 'calendar' | 'offers' | 'compare' = 'calendar') =>
  evaluate(rule, op, prev, cur, diff(prev, cur));

describe('watch rules', () => {
  it('below fires when a night enters the range, the first check included, and not again while it stays there', () => {
    const first = obs([item('2027-05-01', 99), item('2027-05-02', 120)]);
    expect(run({ type: 'below', price: 100 }, null, first)).toMatchObject({ fired: true, reason: '1 night now below 100 USD' });
    expect(run({ type: 'below', price: 100 }, first, first).fired).toBe(false);
    const more = obs([item('2027-05-01', 98), item('2027-05-02', 95)]);
    const v = run({ type: 'below', price: 100 }, first, more);
    expect(v.matched.map((m) => [m.key, m.before?.total, m.after?.total, m.delta])).toEqual([['2027-05-02', 120, 95, -25]]);
    // a price in another currency is not under a price in the target's
    expect(run({ type: 'below', price: 100 }, null, obs([item('x', 50, 'EUR')])).fired).toBe(false);
  });

  it('drop_pct and any_change compare with the previous check; a first check never fires them', () => {
    const a = obs([item('n1', 200), item('n2', 100)]);
    const b = obs([item('n1', 170), item('n2', 100), item('n3', 90)]);
    expect(run({ type: 'drop_pct', pct: 10 }, null, a).fired).toBe(false);
    expect(run({ type: 'any_change' }, null, a).fired).toBe(false);
    expect(run({ type: 'drop_pct', pct: 10 }, a, b)).toMatchObject({ fired: true, matched: [{ key: 'n1', delta: -30, delta_pct: -15 }] });
    expect(run({ type: 'drop_pct', pct: 20 }, a, b).fired).toBe(false);
    expect(run({ type: 'any_change' }, a, b)).toMatchObject({ fired: true, reason: '2 nights changed since the previous check' });
  });

  it('available: nights that become bookable (calendar); the stay becoming bookable (offers, compare)', () => {
    expect(run({ type: 'available' }, obs([item('n1', null)]), obs([item('n1', 80)]))).toMatchObject({ fired: true, reason: '1 night became bookable' });
    expect(run({ type: 'available' }, null, obs([]), 'offers').fired).toBe(false);
    const stay = run({ type: 'available' }, obs([]), obs([item('otaone', 300), item('otatwo', 320)]), 'offers');
    expect(stay).toMatchObject({ fired: true, reason: 'the stay became bookable (2 sellers)' });
    expect(run({ type: 'available' }, obs([item('otaone', 310)]), obs([item('otaone', 300)]), 'offers').fired).toBe(false);
  });

  it('compare: below counts the official site priced in the currency the hotel states (defect 1: only drop_pct counted it)', () => {
    const answer = (officialTotal: number) => ({
      comparison_currency: 'USD',
      offers: [
        { source: 'official', total: officialTotal, currency: 'USD' },
        { source: 'otatwo', total: 520, currency: 'USD' },
      ],
      sources: [
        { source: 'official', status: 'ok', offer: { available: true, total: officialTotal, currency: null, provenance: null } },
        { source: 'otatwo', status: 'ok', offer: { available: true, total: 520, currency: 'USD', provenance: null } },
      ],
    });
    const before = observe('compare', answer(480));
    const after = observe('compare', answer(440));
    expect(after.items.find((i) => i.key === 'official')).toMatchObject({ total: 440, currency: 'USD' });
    expect(after.cheapest).toMatchObject({ key: 'official', total: 440 });
    const below = run({ type: 'below', price: 450 }, before, after, 'compare');
    expect(below).toMatchObject({ fired: true, reason: '1 source now below 450 USD' });
    expect(below.matched.map((m) => [m.key, m.before?.total, m.after?.total])).toEqual([['official', 480, 440]]);
    // drop_pct and below now agree on which prices a compare watch sees
    expect(run({ type: 'drop_pct', pct: 5 }, before, after, 'compare').matched.map((m) => m.key)).toEqual(['official']);
  });

  it('a compare source a check could not read is neither a change nor gone', () => {
    const a = obs([item('otatwo', 500), item('rentalone', 450)]);
    const b = obs([item('otatwo', 500)], { unknown: ['rentalone'] });
    expect(diff(a, b)).toEqual([]);
    expect(run({ type: 'any_change' }, a, b, 'compare').fired).toBe(false);
  });
});

describe('parity', () => {
  const official = (total: number | null, currency: string | null, basis = 'stay_total_gross_as_quoted'): ParitySource => ({
    source: 'official',
    status: 'ok',
    error: null,
    offer: { available: total !== null, total, currency, taxes_and_fees_included: null, provenance: { price_basis: basis } as never },
  });
  const agency = (source: string, total: number, currency = 'USD', allIn: boolean | null = true): ParitySource => ({
    source,
    status: 'ok',
    error: null,
    offer: { available: true, total, currency, taxes_and_fees_included: allIn, provenance: null },
  });
  const stay = { nights: 3, adults: 2 };

  it('undercut: which agencies, by how much, cheapest first; ties are the official site’s', () => {
    const p = stayParity([official(300, 'USD'), agency('otatwo', 280), agency('otathree', 300), agency('rentalone', 250.5)], stay);
    expect(p).toMatchObject({ status: 'undercut', basis: { currency: 'USD', nights: 3, adults: 2 }, cheapest_agency: { source: 'rentalone' } });
    expect(p.undercuts.map((u) => [u.source, u.amount, u.pct])).toEqual([
      ['rentalone', 49.5, 16.5],
      ['otatwo', 20, 6.7],
    ]);
    expect(stayParity([official(300, 'USD'), agency('otatwo', 300)], stay).status).toBe('official_cheapest');
  });

  it('not comparable, with the reason, when the basis cannot be established', () => {
    expect(stayParity([agency('otatwo', 280)], stay).reason).toMatch(/not among the sources/);
    expect(stayParity([official(300, null), agency('otatwo', 280)], stay).reason).toMatch(/does not state its currency/);
    expect(stayParity([official(300, null), agency('otatwo', 280)], stay, { currency: 'USD' }).status).toBe('undercut');
    expect(stayParity([official(300, 'USD', 'stay_total_as_quoted'), agency('otatwo', 280)], stay).reason).toMatch(/whether its total includes taxes/);
    expect(stayParity([official(300, 'USD', 'stay_total_as_quoted'), agency('otatwo', 280)], stay, { taxes_included: true }).status).toBe('undercut');
    const p = stayParity([official(300, 'USD'), agency('otatwo', 280, 'EUR'), agency('otaone', 200, 'USD', null)], stay);
    expect(p.status).toBe('not_comparable');
    expect(p.excluded).toEqual([
      { source: 'otatwo', reason: 'priced in EUR, not USD' },
      { source: 'otaone', reason: 'does not state whether its total includes taxes and fees' },
    ]);
  });
});

describe('parity basis (defect 3)', () => {
  const quote = (source: string, total: number | null, extra: Partial<NonNullable<ParitySource['offer']>> = {}): ParitySource => ({
    source,
    status: 'ok',
    error: null,
    offer: { available: total !== null, total, currency: 'USD', taxes_and_fees_included: true, provenance: null, ...extra },
  });
  const stay = { nights: 2, adults: 2 };

  it('rooms: a total for two rooms is not compared with a one-room quote', () => {
    const p = stayParity([quote('official', 400, { rooms: 1 }), quote('otatwo', 700, { rooms: 2 }), quote('otathree', 390)], stay);
    expect(p).toMatchObject({ status: 'undercut', basis: { rooms: 1 }, cheapest_agency: { source: 'otathree' } });
    expect(p.excluded).toEqual([{ source: 'otatwo', reason: 'priced for 2 rooms, not 1' }]);
  });

  it("a stated taxes_included contradicting the engine's statement is warned about", () => {
    const p = stayParity([quote('official', 400), quote('otatwo', 420)], stay, { taxes_included: false });
    expect(p.status).toBe('official_cheapest');
    expect(p.warnings).toEqual([
      "you state taxes_included: false, but the booking engine states its total includes taxes and fees: the engine's statement is used",
    ]);
    expect(stayParity([quote('official', 400), quote('otatwo', 420)], stay, { taxes_included: true }).warnings).toEqual([]);
  });

  it('an agency selling while the official site is sold out is flagged', () => {
    const p = stayParity([quote('official', null), quote('otatwo', 700), quote('otathree', 650), quote('rentalone', null)], stay);
    expect(p).toMatchObject({ status: 'official_sold_out', basis: null, undercuts: [] });
    expect(p.selling_while_sold_out.map((s) => [s.source, s.total])).toEqual([
      ['otathree', 650],
      ['otatwo', 700],
    ]);
    expect(stayParity([quote('official', null), quote('otatwo', null)], stay).reason).toBe(
      'the official site offers nothing for this stay (nor does any agency)',
    );
  });
});

describe('undercut changes (defect 6)', () => {
  const parity = (undercuts: string[]) =>
    ({
      status: undercuts.length ? 'undercut' : 'official_cheapest',
      undercuts: undercuts.map((source) => ({ source, amount: 1, pct: 1 })),
      basis: { currency: 'USD' },
    }) as never;
  it('lists the official price that moved, not agencies whose price stayed put', () => {
    const a = obs([item('official', 760), item('otatwo', 780), item('rentalone', 790)], { parity: parity([]) });
    const b = obs([item('official', 798), item('otatwo', 780), item('rentalone', 790)], { parity: parity(['otatwo', 'rentalone']) });
    const v = run({ type: 'undercut' }, a, b, 'compare');
    expect(v.fired).toBe(true);
    expect(v.matched.map((m) => [m.key, m.before?.total, m.after?.total, m.delta])).toEqual([['official', 760, 798, 38]]);
    // an agency that dropped below is listed with its move
    const c = obs([item('official', 798), item('otatwo', 700), item('rentalone', 790)], { parity: parity(['otatwo']) });
    expect(
      run(
        { type: 'undercut' },
        obs(
          c.items.map((i) => (i.key === 'otatwo' ? item('otatwo', 820) : i)),
          { parity: parity([]) },
        ),
        c,
        'compare',
      ).matched.map((m) => [m.key, m.delta]),
    ).toEqual([['otatwo', -120]]);
  });
});

describe('watch schedule', () => {
  it('the next slot follows the due one; periods that passed unchecked are counted', () => {
    const due = new Date('2027-01-01T00:00:00Z');
    const hour = 3_600_000;
    expect(nextSlot(due, new Date('2027-01-01T00:20:00Z'), hour)).toEqual({ at: new Date('2027-01-01T01:00:00Z'), missed: 0 });
    expect(nextSlot(due, new Date('2027-01-01T03:10:00Z'), hour)).toEqual({ at: new Date('2027-01-01T04:00:00Z'), missed: 3 });
    expect(nextSlot(due, new Date('2027-01-01T00:50:00Z'), hour, true)).toEqual({ at: new Date('2027-01-01T01:00:00Z'), missed: 1 });
  });

  it('retries back off from 30 s to a quarter period; queue entry ids are stable per slot', () => {
    expect([0, 1, 2, 10].map((f) => retryDelayMs({ WATCH_HOUR_S: 3600 }, f, 3_600_000))).toEqual([30_000, 60_000, 120_000, 900_000]);
    expect(derivedUuid('watch-check', 'watch_a', 3, 'slot')).toBe(derivedUuid('watch-check', 'watch_a', 3, 'slot'));
    expect(derivedUuid('watch-check', 'watch_a', 3, 'slot')).not.toBe(derivedUuid('watch-check', 'watch_a', 4, 'slot'));
    expect(derivedUuid('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
