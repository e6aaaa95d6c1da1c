/**
 * One stay window from the request fields every stay route shares (check_in, check_out wins over
 * nights), and the date parts the travel group's GraphQL requests need.
 */
import { addDays, nightsBetween } from '../../domain/dates.js';
import { BadRequest } from '../../platform/errors.js';

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
  return { day, month, year };
}
