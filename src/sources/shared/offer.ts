/**
 * The spec's OTA headline and offer objects (used by `otathree`, `otatwo` rate plans and
 * `rentalone`), without provenance: parsers produce these, the lead attaches provenance.
 * Also the few text helpers every OTA parser needs to read a displayed price.
 */
import { nightsBetween as utcNights } from '../../domain/dates.js';
import { numeric } from '../../domain/json.js';

export type PaymentModel = 'PAY_NOW' | 'PAY_LATER' | 'PAY_LATER_WITH_DEPOSIT' | '';

export const PAYMENT_MODELS: readonly PaymentModel[] = ['PAY_NOW', 'PAY_LATER', 'PAY_LATER_WITH_DEPOSIT'];

/** One rate plan sold one way; a plan sold both pay-now and pay-later is two offers. */
export interface OtaOffer {
  plan_id: string;
  room_type_id: string;
  /** Stay total for all nights as the source states it. */
  total: number | null;
  /** Average nightly price before taxes and fees. */
  nightly: number | null;
  /** Derived (total − nightly × nights), set only when taxes_and_fees_included is true. */
  taxes_and_fees: number | null;
  /** ISO 4217 read back from the reply; null when the reply states none. */
  currency: string | null;
  total_text: string;
  nightly_text: string;
  /** null means no label shown, not that taxes are excluded. */
  taxes_and_fees_included: boolean | null;
  fees_included: boolean | null;
  payment_model: PaymentModel;
  hotel_collect: boolean | null;
  member_only: boolean;
  refundable: boolean | null;
  cancellation_text: string;
  extras: string | null;
  extras_text: string;
  strikeout_text: string;
  inventory_type: string;
  business_model: string;
  messages: string[];
}

type HeadlineBasis = 'sticky_bar' | 'cheapest_offer';

export interface OtaHeadline {
  property_id: string;
  /** `rentalone` only. */
  listing_id?: string | null;
  total: number | null;
  price_per_night: number | null;
  basis: HeadlineBasis | null;
  total_text: string;
  nightly_text: string;
  taxes_and_fees_included: boolean | null;
  fees_included: boolean | null;
  /** Currency actually priced; null when nothing is priced in a stated currency. */
  currency: string | null;
  currency_verified: boolean;
  available: boolean;
  unavailable_reason: string | null;
  /** `otathree` only. */
  cheapest_total?: number | null;
  /** `rentalone` only. */
  payment_model?: PaymentModel | null;
}

/** How the derived taxes_and_fees figure was obtained; the lead turns it into provenance. */
export const TAXES_AND_FEES_DERIVATION = 'total_minus_nightly_times_nights';

/**
 * Taxes and fees as the spec allows them: total − nightly × nights, and only when the total is
 * labelled as including taxes and fees. `units` is the number of rooms the nightly price is
 * quoted per (the source's nightly is per room). Accurate to within `nights` currency units,
 * because displayed nightly prices are rounded.
 */
export function deriveTaxesAndFees(offer: Pick<OtaOffer, 'total' | 'nightly' | 'taxes_and_fees_included'>, nights: number, units = 1): number | null {
  if (offer.taxes_and_fees_included !== true) return null;
  if (offer.total == null || offer.nightly == null) return null;
  if (!Number.isInteger(nights) || nights < 1 || !Number.isInteger(units) || units < 1) return null;
  const value = offer.total - offer.nightly * nights * units;
  return Math.round(value * 100) / 100;
}

export function withTaxesAndFees<T extends OtaOffer>(offer: T, nights: number | null, units = 1): T {
  const taxes = nights == null ? null : deriveTaxesAndFees(offer, nights, units);
  return { ...offer, taxes_and_fees: taxes };
}

/** Lowest stated total among offers; null when none is priced. */
export function cheapestOffer<T extends Pick<OtaOffer, 'total'>>(offers: T[]): T | null {
  let best: T | null = null;
  for (const o of offers) {
    if (o.total == null) continue;
    if (best == null || o.total < (best.total as number)) best = o;
  }
  return best;
}

/**
 * Reads the first amount in a displayed price ("$1,234.56", "€ 45", "1.234,56 €", "+€ 5 taxes").
 * A separator repeated, or followed by exactly three digits, is a thousands separator; the last
 * of two different separators is the decimal one.
 */
export function parseDisplayedAmount(text: string | null | undefined): number | null {
  if (!text) return null;
  const m = /-?\d[\d.,\u00a0\u202f' ]*/.exec(text);
  if (!m) return null;
  let raw = m[0].replace(/[\u00a0\u202f' ]/g, '').replace(/[.,]+$/, '');
  const negative = raw.startsWith('-') || /[-−]\s*[^\d\s]{0,4}\s*$/.test(text.slice(0, m.index));
  raw = raw.replace(/^-/, '');
  const lastDot = raw.lastIndexOf('.');
  const lastComma = raw.lastIndexOf(',');
  let normalized: string;
  if (lastDot >= 0 && lastComma >= 0) {
    const dec = lastDot > lastComma ? '.' : ',';
    const thou = dec === '.' ? ',' : '.';
    normalized = raw.split(thou).join('').replace(dec, '.');
  } else {
    const sep = lastDot >= 0 ? '.' : lastComma >= 0 ? ',' : '';
    if (!sep) normalized = raw;
    else {
      const parts = raw.split(sep);
      const thousands = parts.length > 2 || parts.at(-1)?.length === 3;
      normalized = thousands ? parts.join('') : parts.join('.');
    }
  }
  const n = Number(normalized);
  if (!Number.isFinite(n)) return null;
  return negative ? -n : n;
}

/** Symbols that name exactly one currency; `$`, `¥` and `kr` are shared and therefore absent. */
const UNAMBIGUOUS_SYMBOLS: [string, string][] = [
  ['€', 'EUR'],
  ['£', 'GBP'],
  ['₹', 'INR'],
  ['₩', 'KRW'],
  ['₫', 'VND'],
  ['฿', 'THB'],
  ['₱', 'PHP'],
  ['₪', 'ILS'],
  ['₺', 'TRY'],
  ['zł', 'PLN'],
  ['R$', 'BRL'],
  ['A$', 'AUD'],
  ['C$', 'CAD'],
  ['CA$', 'CAD'],
  ['NZ$', 'NZD'],
  ['HK$', 'HKD'],
  ['S$', 'SGD'],
  ['US$', 'USD'],
];

/** Symbols several currencies share, with the currencies that write them so. */
const SHARED_SYMBOLS: [RegExp, readonly string[]][] = [
  [/\$/, ['USD', 'CAD', 'AUD', 'NZD', 'MXN', 'SGD', 'HKD', 'TWD', 'ARS', 'CLP', 'COP', 'UYU']],
  [/[¥￥]/, ['JPY', 'CNY']],
  [/\bkr\.?/i, ['SEK', 'NOK', 'DKK']],
];

/**
 * ISO code named in a displayed price, by code or by an unambiguous symbol. A shared symbol (`$`,
 * `¥`, `kr`) names the requested currency only when that currency writes it so (a request in CAD
 * displayed with `$`); otherwise, and without a symbol, null.
 */
export function currencyFromText(text: string | null | undefined, requested?: string | null): string | null {
  if (!text) return null;
  const code = /\b([A-Z]{3})\b/.exec(text);
  const word = code?.[1];
  if (word && !/^(FOR|PER|AND|THE)$/.test(word)) return word;
  const sorted = [...UNAMBIGUOUS_SYMBOLS].sort((a, b) => b[0].length - a[0].length);
  for (const [symbol, iso] of sorted) if (text.includes(symbol)) return iso;
  if (requested && SHARED_SYMBOLS.some(([symbol, isos]) => symbol.test(text) && isos.includes(requested))) return requested;
  return null;
}

/** Nights between two YYYY-MM-DD dates; null when either is missing or not a date, or the span is not positive. */
export function nightsBetween(checkIn: string | null | undefined, checkOut: string | null | undefined): number | null {
  if (!checkIn || !checkOut) return null;
  const nights = utcNights(checkIn, checkOut);
  return nights > 0 ? nights : null;
}

/** `{year: 2026, month: 8, day: 5}` (the group's GraphQL date) → `2026-08-05`; null unless all three are set. */
export function dateFromParts(parts: unknown): string | null {
  const year = numeric(parts, 'year');
  const month = numeric(parts, 'month');
  const day = numeric(parts, 'day');
  if (!year || !month || !day) return null;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${year}-${pad(month)}-${pad(day)}`;
}
