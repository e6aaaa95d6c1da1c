import { describe, expect, it } from 'vitest';
import { earliestCurrentDate, endOf, stayLast, stayStart } from '../../../src/domain/watch-end.js';

describe('when a watch is over (defect 10)', () => {
  const now = new Date('2027-05-10T12:00:00Z');
  it('a stay is past once its date is over everywhere: before today in UTC-12 (the date the operations refuse stays before)', () => {
    expect(earliestCurrentDate(undefined, now)).toBe('2027-05-10');
    expect(earliestCurrentDate(undefined, new Date('2027-05-10T11:59:59Z'))).toBe('2027-05-09');
    expect(earliestCurrentDate('2023-06-01', now)).toBe('2023-05-31');
    const offers = (check_in: string) => ({ operation: 'offers' as const, target: { check_in }, ends_at: null });
    expect(endOf(offers('2027-05-09'), now, undefined)).toBe('stay_passed');
    expect(endOf(offers('2027-05-10'), now, undefined)).toBeNull();
    expect(endOf(offers('2027-05-09'), new Date('2027-05-10T11:59:59Z'), undefined)).toBeNull();
  });

  it('a calendar is over after its last night; one without a start rolls and never ends by itself', () => {
    const cal = { operation: 'calendar' as const, target: { start: '2027-05-01', days: 7 }, ends_at: null };
    expect(stayStart('calendar', cal.target)).toBe('2027-05-01');
    expect(stayLast('calendar', cal.target)).toBe('2027-05-07');
    expect(endOf(cal, now, undefined)).toBe('stay_passed');
    expect(endOf({ ...cal, target: { start: '2027-05-05', days: 7 } }, now, undefined)).toBeNull();
    expect(endOf({ ...cal, target: { days: 7 } }, now, undefined)).toBeNull();
  });

  it('an end date ends it when it comes', () => {
    const w = { operation: 'offers' as const, target: { check_in: '2027-06-01' }, ends_at: new Date('2027-05-10T11:59:59Z') };
    expect(endOf(w, now, undefined)).toBe('end_date');
    expect(endOf({ ...w, ends_at: new Date('2027-05-11T00:00:00Z') }, now, undefined)).toBeNull();
  });
});
