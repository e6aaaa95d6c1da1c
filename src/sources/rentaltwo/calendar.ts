/**
 * `POST /v1/serp/rentaltwo_property_availability_calendar`: the platform's
 * `PdpAvailabilityCalendar` GraphQL reply (`data.merlin.pdpAvailabilityCalendar.calendarMonths`).
 * Prices per day are not in this reply (`localPriceFormatted` is null); quotes are separate calls.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';

type Json = any;

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

function day(d: Json): RentaltwoCalendarDay {
  const date = typeof d?.calendarDate === 'string' ? d.calendarDate : '';
  if (!DATE.test(date)) throw new UpstreamContractChanged('rentaltwo', 'calendarMonths[].days[].calendarDate');
  const out: RentaltwoCalendarDay = {
    date,
    is_available: d.available === true,
    is_available_for_checkin: d.availableForCheckin === true,
    is_available_for_checkout: d.availableForCheckout === true,
    is_bookable: d.bookable === true,
  };
  if (Number.isInteger(d.minNights)) out.min_nights = d.minNights;
  if (Number.isInteger(d.maxNights)) out.max_nights = d.maxNights;
  return out;
}

export function parseRentaltwoCalendar(payload: Json): RentaltwoCalendar {
  const months = payload?.data?.merlin?.pdpAvailabilityCalendar?.calendarMonths;
  if (!Array.isArray(months)) throw new UpstreamContractChanged('rentaltwo', 'data.merlin.pdpAvailabilityCalendar.calendarMonths');
  let listing: string | null = null;
  const out = months.map((m: Json) => {
    if (!Number.isInteger(m?.year) || !Number.isInteger(m?.month)) {
      throw new UpstreamContractChanged('rentaltwo', 'calendarMonths[].{year,month}');
    }
    if (typeof m.listingId === 'string' && m.listingId) listing ??= m.listingId;
    return { year: m.year as number, month: m.month as number, days: (Array.isArray(m.days) ? m.days : []).map(day) };
  });
  return { listing_id: listing, months: out };
}
