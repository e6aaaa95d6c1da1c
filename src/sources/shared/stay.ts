/**
 * One stay window from the request fields every stay route shares (check_in, check_out wins over
 * nights), and the date parts the travel group's GraphQL requests need.
 */
import { addDays, nightsBetween } from '../../domain/dates.js';
import { BadRequest, UpstreamFailed } from '../../domain/errors.js';

export interface StayWindow {
  checkIn: string;
  checkOut: string;
  nights: number;
}

/** `check_out` wins over `nights`; a window outside 1..maxNights is a 400 (well-formed but unusable). */
export function stayWindow(input: { check_in: string; check_out?: string | null; nights: number }, maxNights: number): StayWindow {
  if (input.check_out) {
    const nights = nightsBetween(input.check_in, input.check_out);
    if (nights < 1) throw new BadRequest('check_out must be after check_in');
    if (nights > maxNights) throw new BadRequest(`the stay must be at most ${maxNights} nights`);
    return { checkIn: input.check_in, checkOut: input.check_out, nights };
  }
  return { checkIn: input.check_in, checkOut: addDays(input.check_in, input.nights), nights: input.nights };
}

/** `{day, month, year}` as the travel group's GraphQL dates are written. */
export function dateParts(date: string): { day: number; month: number; year: number } {
  const [year, month, day] = date.split('-').map(Number);
  return { day: day!, month: month!, year: year! };
}

/**
 * 502: the upstream answered for another stay than the one asked (another check-in, check-out or
 * length). Its prices are not an answer for the asked dates, so none of them is reported.
 */
class UpstreamStayMismatch extends UpstreamFailed {
  constructor(stated: { checkIn?: string | null; checkOut?: string | null }) {
    super(`StayMismatch: the upstream answered for ${stated.checkIn ?? '?'}..${stated.checkOut ?? '?'}`);
  }
}

/** Throws UpstreamStayMismatch when a date the reply states differs from the asked stay; unstated dates pass. */
export function assertStayAnswered(asked: Pick<StayWindow, 'checkIn' | 'checkOut'>, stated: { checkIn?: string | null; checkOut?: string | null }): void {
  if ((stated.checkIn && stated.checkIn !== asked.checkIn) || (stated.checkOut && stated.checkOut !== asked.checkOut)) {
    throw new UpstreamStayMismatch(stated);
  }
}

/** The same check for a reply that states the dates of its priced nights: each must be a night of the asked stay. */
export function assertNightsAnswered(asked: Pick<StayWindow, 'checkIn' | 'checkOut'>, nights: readonly string[]): void {
  const sorted = nights.filter(Boolean).sort();
  const first = sorted[0];
  const last = sorted.at(-1);
  if (first === undefined || last === undefined) return;
  if (first < asked.checkIn || last >= asked.checkOut) {
    throw new UpstreamStayMismatch({ checkIn: first, checkOut: addDays(last, 1) });
  }
}
