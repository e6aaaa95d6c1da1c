/**
 * `POST /v1/ota/otaone/rooms`: the property page priced for a stay. The room table's data sits in
 * the page script as `b_rooms_available_and_soldout: [...]` (rooms with `b_blocks`), next to
 * `b_hotel_id`, `b_selected_currency` and the stay the page was priced for (`b_checkin_date`,
 * `b_checkout_date`); the rendered rows carry `data-block-id`. A flag neither the block data nor
 * its row states is null.
 */
import * as cheerio from 'cheerio';
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, numeric, str, text } from '../../domain/json.js';

const ROOMS_KEY = 'b_rooms_available_and_soldout';
const HOTEL_ID = /\bb_hotel_id['"]?\s*:\s*['"]?(\d+)/;
const CURRENCY = /\bb_selected_currency['"]?\s*:\s*['"]([A-Z]{3})['"]/;
const CHECK_IN = /\bb_checkin_date['"]?\s*[=:]\s*['"](\d{4}-\d{2}-\d{2})['"]/;
const CHECK_OUT = /\bb_checkout_date['"]?\s*[=:]\s*['"](\d{4}-\d{2}-\d{2})['"]/;
const ROW = (blockId: string) => `tr[data-block-id="${blockId}"]`;

/** The page's own sentences for a stay it will not sell (English pages). */
const UNAVAILABLE: RegExp[] = [
  /For your check-in date, there(?:'|&#39;|’)s a minimum length of stay of[^<.]*/i,
  /Minimum stay for check-in date is[^<.]*/i,
  /There are no rooms available at this property[^<.]*/i,
  /This property isn(?:'|&#39;|’)t taking reservations on our site right now/i,
  /isn(?:'|&#39;|’)?t bookable on our site anymore/i,
];

export interface OtaoneRatePlan {
  block_id: string;
  price: number | null;
  /** The page's selected currency; null when the page states none. */
  currency: string | null;
  guests: number | null;
  free_cancellation: boolean | null;
  no_prepayment: boolean | null;
  breakfast_included: boolean | null;
}

interface OtaoneRoom {
  name: string;
  /** The page's room id (`b_id`); null when the room data carries none. */
  room_id: string | null;
  /** Bed set-up as displayed in the room row; empty when not rendered. */
  beds: string;
  /** Not on this page; comes from the catalogue enrichment. */
  room_size: number | null;
  max_persons: number | null;
  cheapest_rate: number | null;
  rate_plans: OtaoneRatePlan[];
}

export interface OtaoneHotelPage {
  hotel_id: string | null;
  property_name: string;
  currency: string | null;
  /** The stay the page was priced for, as its script states it; null when not stated. */
  check_in: string | null;
  check_out: string | null;
  /** true when the page says the stay does not sell or lists only rooms without blocks; null when it does not say. */
  sold_out: boolean | null;
  unavailable_reason: string | null;
  cheapest_rate: number | null;
  rooms: OtaoneRoom[];
}

/** Cuts the JSON array that follows `key:` out of a script, honouring strings and nesting. */
function extractScriptArray(source: string, key: string): string | null {
  const at = new RegExp(`\\b${key}["']?\\s*:\\s*\\[`).exec(source);
  if (!at) return null;
  const start = at.index + at[0].length - 1;
  let depth = 0;
  let quote: string | null = null;
  for (let i = start; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return source.slice(start, i + 1);
  }
  return null;
}

function lowest(values: (number | null)[]): number | null {
  const n = values.filter((v): v is number => v != null);
  return n.length ? Math.min(...n) : null;
}

function highest(values: (number | null)[]): number | null {
  const n = values.filter((v): v is number => v != null);
  return n.length ? Math.max(...n) : null;
}

function propertyName($: cheerio.CheerioAPI): string {
  let name = '';
  $('script[type="application/ld+json"]').each((_, el) => {
    if (name) return;
    try {
      const data: unknown = JSON.parse($(el).text());
      for (const d of Array.isArray(data) ? data : [data]) {
        const hotelName = at(d, '@type') === 'Hotel' ? str(d, 'name') : null;
        if (hotelName !== null) name = hotelName.trim();
      }
    } catch {
      // A malformed LD block is not this parser's concern; other blocks may still name the hotel.
    }
  });
  return name || $('h2.pp-header__title').first().text().trim();
}

export function parseOtaoneHotelPage(html: string): OtaoneHotelPage {
  const $ = cheerio.load(html);
  const scripts = $('script')
    .map((_, el) => $(el).text())
    .get()
    .join('\n');
  const raw = extractScriptArray(scripts, ROOMS_KEY);
  const reason = UNAVAILABLE.map((re) => re.exec(html)?.[0].replace(/&#39;/g, "'").trim()).find(Boolean) ?? null;
  if (raw == null && !reason) throw new UpstreamContractChanged('otaone', `${ROOMS_KEY} in the property page`);
  let data: unknown[] = [];
  if (raw != null) {
    try {
      // The cut text is a bracket-balanced array, so what parses is an array.
      data = JSON.parse(raw) as unknown[];
    } catch {
      throw new UpstreamContractChanged('otaone', `${ROOMS_KEY} is not JSON`);
    }
  }
  const currency = CURRENCY.exec(scripts)?.[1] ?? null;
  const rooms: OtaoneRoom[] = data.map((room) => {
    const blocks = arr(room, 'b_blocks');
    const plans: OtaoneRatePlan[] = blocks.map((b) => {
      const id = text(b, 'b_block_id');
      const row = id ? $(ROW(id)) : null;
      const rowText = row && row.length ? row.text() : null;
      const stated = (key: string, test: (v: string) => boolean, words: RegExp): boolean | null =>
        b && typeof b === 'object' && key in b ? test(text(at(b, key))) : rowText != null ? words.test(rowText) : null;
      return {
        block_id: id,
        price: numeric(b, 'b_raw_price'),
        currency,
        guests: numeric(b, 'b_max_persons'),
        free_cancellation: stated('b_cancellation_type', (v) => v === 'free_cancellation', /free cancellation/i),
        no_prepayment: rowText != null ? /no prepayment/i.test(rowText) : null,
        breakfast_included: stated('b_mealplan_included_name', (v) => /breakfast/i.test(v), /breakfast included/i),
      };
    });
    const firstId = plans[0]?.block_id ?? '';
    return {
      name: text(room, 'b_name'),
      room_id: text(room, 'b_id') || null,
      beds: firstId ? $(ROW(firstId)).find('.hprt-roomtype-bed').first().text().replace(/\s+/g, ' ').trim() : '',
      room_size: null,
      max_persons: highest(plans.map((p) => p.guests)),
      cheapest_rate: lowest(plans.map((p) => p.price)),
      rate_plans: plans,
    };
  });
  const cheapest = lowest(rooms.map((r) => r.cheapest_rate));
  const everyRoomWithoutBlocks = rooms.length > 0 && rooms.every((r) => r.rate_plans.length === 0);
  return {
    hotel_id: HOTEL_ID.exec(scripts)?.[1] ?? null,
    property_name: propertyName($),
    currency,
    check_in: CHECK_IN.exec(scripts)?.[1] ?? null,
    check_out: CHECK_OUT.exec(scripts)?.[1] ?? null,
    sold_out: cheapest != null ? false : reason || everyRoomWithoutBlocks ? true : null,
    unavailable_reason: cheapest == null ? reason : null,
    cheapest_rate: cheapest,
    rooms,
  };
}
