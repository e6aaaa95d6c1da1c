/**
 * `POST /v1/serp/rentaltwo_property_availability_calendar`: the platform's
 * `PdpAvailabilityCalendar` GraphQL reply (`data.merlin.pdpAvailabilityCalendar.calendarMonths`).
 * Prices per day are not in this reply (`localPriceFormatted` is null); quotes are separate calls.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, isObject, type Json } from '../../domain/json.js';

export interface RentaltwoCalendarDay {
  /** The night starts on this date. */
  date: string;
  is_available: boolean;
  is_available_for_checkin: boolean;
  is_available_for_checkout: boolean;
  is_bookable: boolean;
  min_nights?: number;
  max_nights?: number;
}

export interface RentaltwoCalendarMonth {
  year: number;
  month: number;
  days: RentaltwoCalendarDay[];
}

export interface RentaltwoCalendar {
  listing_id: string | null;
  months: RentaltwoCalendarMonth[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

const integer = (v: unknown): v is number => Number.isInteger(v);

function day(d: Json): RentaltwoCalendarDay {
  const date = at(d, 'calendarDate');
  if (typeof date !== 'string' || !DATE.test(date) || !isObject(d)) throw new UpstreamContractChanged('rentaltwo', 'calendarMonths[].days[].calendarDate');
  const out: RentaltwoCalendarDay = {
    date,
    is_available: d.available === true,
    is_available_for_checkin: d.availableForCheckin === true,
    is_available_for_checkout: d.availableForCheckout === true,
    is_bookable: d.bookable === true,
  };
  if (integer(d.minNights)) out.min_nights = d.minNights;
  if (integer(d.maxNights)) out.max_nights = d.maxNights;
  return out;
}

export function parseRentaltwoCalendar(payload: Json): RentaltwoCalendar {
  const months = arrOrNull(payload, 'data', 'merlin', 'pdpAvailabilityCalendar', 'calendarMonths');
  if (!months) throw new UpstreamContractChanged('rentaltwo', 'data.merlin.pdpAvailabilityCalendar.calendarMonths');
  let listing: string | null = null;
  const out = months.map((m) => {
    const year = at(m, 'year');
    const month = at(m, 'month');
    if (!integer(year) || !integer(month)) {
      throw new UpstreamContractChanged('rentaltwo', 'calendarMonths[].{year,month}');
    }
    const listingId = at(m, 'listingId');
    if (typeof listingId === 'string' && listingId) listing ??= listingId;
    return { year, month, days: arr(m, 'days').map((d) => day(d)) };
  });
  return { listing_id: listing, months: out };
}
