import { describe, expect, it } from 'vitest';
import { CalendarRequest, calendarInputOf, normalizeCalendarRequest } from '../../../src/domain/calendar-request.js';

// a batch item runs as a call of POST /v1/calendar: its stored (normalized) request, read again by the call's schema, is the same request
describe('calendarInputOf', () => {
  const cases = [
    { token: 'ChoIqLCg4vGd2Mh0GgwvZy8xMWIwd2R6ZjUQAQ' },
    { token: 'ChoIqLCg4vGd2Mh0GgwvZy8xMWIwd2R6ZjUQAQ', market: 'GB', days: 30, start: '2027-01-01', los: 3, label: 'london' },
    { token: 'ChoIqLCg4vGd2Mh0GgwvZy8xMWIwd2R6ZjUQAQ', currency: 'EUR', country: 'de', basis: 'mainstream', verify_sources: 2, rates_include_tax: false },
    { token: 'ChoIqLCg4vGd2Mh0GgwvZy8xMWIwd2R6ZjUQAQ', is_hostel: true, probe_min_stay: false, adults: 4 },
  ];
  it.each(cases)('normalizes back to the stored request (%o)', (raw) => {
    const stored = normalizeCalendarRequest(CalendarRequest.parse(raw));
    const again = normalizeCalendarRequest(CalendarRequest.parse(calendarInputOf(stored)));
    expect(again).toEqual(stored);
  });
});
