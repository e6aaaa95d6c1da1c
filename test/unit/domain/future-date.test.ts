import { afterEach, describe, expect, it, vi } from 'vitest';
import { futureDate } from '../../../src/domain/codes.js';
import { earliestStayDate } from '../../../src/domain/dates.js';
import { toValidationIssues } from '../../../src/core/validation.js';

describe('a stay or flight date before today in UTC-12 is refused', () => {
  afterEach(() => vi.useRealTimers());

  it('today in UTC-12: the last time zone still on a date', () => {
    expect(earliestStayDate(new Date('2026-11-28T11:59:59Z'))).toBe('2026-11-27');
    expect(earliestStayDate(new Date('2026-11-28T12:00:00Z'))).toBe('2026-11-28');
    expect(earliestStayDate(new Date('2026-11-28T23:59:59Z'))).toBe('2026-11-28');
  });

  it('the 422 entry: type date_future, the field, a message naming the earliest date, the input', () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-28T13:00:00Z') });
    expect(futureDate.safeParse('2026-11-28').success).toBe(true);
    expect(futureDate.safeParse('2027-01-01').success).toBe(true);
    const bad = futureDate.safeParse('2026-11-27');
    expect(bad.success).toBe(false);
    expect(toValidationIssues(bad.error!.issues, '2026-11-27', () => 'body')).toEqual([
      {
        type: 'date_future',
        loc: ['body'],
        msg: 'Date should be today or later (2026-11-28 in UTC-12, the last time zone on that day); 2026-11-27 is in the past',
        input: '2026-11-27',
      },
    ]);
    // not a date at all: the format error only
    expect(futureDate.safeParse('2026-13-01').error!.issues.map((i) => i.code)).toEqual(['invalid_format']);
  });
});
