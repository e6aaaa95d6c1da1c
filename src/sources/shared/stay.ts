/**
 * One stay window from the request fields every stay route shares (check_in, check_out wins over
 * nights), and the date helpers the upstream request builders need.
 */
import { BadRequest } from '../../platform/errors.js';

export interface StayWindow {
  checkIn: string;
  checkOut: string;
  nights: number;
}

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
}

export function todayUtc(now = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/** `check_out` wins over `nights`; a window outside 1..maxNights is a 400 (well-formed but unusable). */
export function stayWindow(input: { check_in: string; check_out?: string | null; nights: number }, maxNights: number): StayWindow {
  if (input.check_out) {
    const nights = daysBetween(input.check_in, input.check_out);
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
