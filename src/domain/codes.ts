import { z } from 'zod';
import { earliestStayDate } from './dates.js';

/** The spec's currency set of 39. */
export const CURRENCIES = [
  'AED',
  'ARS',
  'AUD',
  'BRL',
  'CAD',
  'CHF',
  'CLP',
  'CNY',
  'COP',
  'CZK',
  'DKK',
  'EGP',
  'EUR',
  'GBP',
  'HKD',
  'HUF',
  'IDR',
  'ILS',
  'INR',
  'JPY',
  'KRW',
  'MXN',
  'MYR',
  'NOK',
  'NZD',
  'PEN',
  'PHP',
  'PLN',
  'QAR',
  'RON',
  'SAR',
  'SEK',
  'SGD',
  'THB',
  'TRY',
  'TWD',
  'USD',
  'VND',
  'ZAR',
] as const;

// The spec's 251-country set, written as first letter -> allowed second letters.
const COUNTRY_TABLE: Record<string, string> = {
  a: 'defgilmoqrstuwxz',
  b: 'abdefghijlmnoqrstvwyz',
  c: 'acdfghiklmnoruvwxyz',
  d: 'ejkmoz',
  e: 'ceghrst',
  f: 'ijkmor',
  g: 'abdefghilmnpqrstuwy',
  h: 'kmnrtu',
  i: 'delmnoqrst',
  j: 'emop',
  k: 'eghimnprwyz',
  l: 'abcikrstuvy',
  m: 'acdefghklmnopqrstuvwxyz',
  n: 'acefgilopruz',
  o: 'm',
  p: 'aefghklmnrstwy',
  q: 'a',
  r: 'eosuw',
  s: 'abcdeghijklmnorstvxyz',
  t: 'cdfghjklmnortvwz',
  u: 'agkmsyz',
  v: 'aceginu',
  w: 'fs',
  x: 'k',
  y: 'et',
  z: 'amw',
};

const COUNTRIES: string[] = Object.entries(COUNTRY_TABLE).flatMap(([a, rest]) => [...rest].map((b) => a + b));

const COUNTRY_SET = new Set(COUNTRIES);

/** Lowercase country field (`country`, `gl`, storefront). */
export const countryLower = z
  .string()
  .refine((v) => COUNTRY_SET.has(v), { message: 'Input should be a lowercase two-letter country code of the supported set' });
/** Uppercase country field (search `market`, trends `geo`). */
export const countryUpper = z.string().refine((v) => COUNTRY_SET.has(v.toLowerCase()) && v === v.toUpperCase(), {
  message: 'Input should be an uppercase two-letter country code of the supported set',
});
export const currency = z.enum(CURRENCIES).describe('ISO 4217 code, e.g. USD');
export const isoDate = z.iso.date();

/**
 * A date a stay or flight starts on or runs to: refused (422, type date_future) when it is before
 * today in UTC−12, the last place on Earth still on that day. Result filters are plain isoDate.
 */
export const futureDate = futureOnly(isoDate);

/** `schema` (a YYYY-MM-DD string) refusing a date before the earliest a stay can start. */
export function futureOnly<S extends z.ZodType<string>>(schema: S) {
  return schema.refine((d) => d >= earliestStayDate(), {
    params: { type: 'date_future' },
    error: (iss) => pastDateMessage(String(iss.input)),
  });
}

/** The 422 message of a date before the earliest a stay can start. */
export function pastDateMessage(date: string): string {
  return `Date should be today or later (${earliestStayDate()} in UTC-12, the last time zone on that day); ${date} is in the past`;
}
