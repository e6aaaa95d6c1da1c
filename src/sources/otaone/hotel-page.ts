/**
 * `POST /v1/ota/otaone/rooms`: the property page priced for a stay. The room table's data sits in
 * the page script as `b_rooms_available_and_soldout: [...]` (rooms with `b_blocks`), next to
 * `b_hotel_id` and `b_selected_currency`; the rendered rows carry `data-block-id`.
 */
import * as cheerio from 'cheerio';
import { UpstreamContractChanged } from '../../platform/errors.js';
import { num, text } from '../shared/json-values.js';

const ROOMS_KEY = 'b_rooms_available_and_soldout';
const HOTEL_ID = /\bb_hotel_id['"]?\s*:\s*['"]?(\d+)/;
const CURRENCY = /\bb_selected_currency['"]?\s*:\s*['"]([A-Z]{3})['"]/;
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
  currency: string;
  guests: number | null;
  free_cancellation: boolean;
  no_prepayment: boolean;
  breakfast_included: boolean;
}

export interface OtaoneRoom {
  name: string;
  room_id: string;
  /** Bed set-up as displayed in the room row; empty when not rendered. */
  beds: string;
  /** Not on this page; comes from the catalogue enrichment. */
  room_size: number | null;
  max_persons: number | null;
  cheapest_rate: number | null;
  rate_plans: OtaoneRatePlan[];
}

export interface OtaoneHotelPage {
  hotel_id: string;
  property_name: string;
  currency: string | null;
  sold_out: boolean;
  unavailable_reason: string | null;
  cheapest_rate: number | null;
  rooms: OtaoneRoom[];
}

type Json = any;

/** Cuts the JSON array that follows `key:` out of a script, honouring strings and nesting. */
export function extractScriptArray(source: string, key: string): string | null {
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
      const data = JSON.parse($(el).text());
      for (const d of Array.isArray(data) ? data : [data]) {
        if (d?.['@type'] === 'Hotel' && typeof d.name === 'string') name = d.name.trim();
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
  let data: Json[] = [];
  if (raw != null) {
    try {
      data = JSON.parse(raw);
    } catch {
      throw new UpstreamContractChanged('otaone', `${ROOMS_KEY} is not JSON`);
    }
  }
  const currency = CURRENCY.exec(scripts)?.[1] ?? null;
  const rooms: OtaoneRoom[] = data.map((room: Json) => {
    const blocks: Json[] = Array.isArray(room?.b_blocks) ? room.b_blocks : [];
    const plans: OtaoneRatePlan[] = blocks.map((b: Json) => {
      const id = text(b?.b_block_id);
      const row = id ? $(ROW(id)) : null;
      return {
        block_id: id,
        price: num(b?.b_raw_price),
        currency: currency ?? '',
        guests: num(b?.b_max_persons),
        free_cancellation: text(b?.b_cancellation_type) === 'free_cancellation',
        no_prepayment: row ? /no prepayment/i.test(row.text()) : false,
        breakfast_included: /breakfast/i.test(text(b?.b_mealplan_included_name)),
      };
    });
    const firstId = plans[0]?.block_id ?? '';
    return {
      name: text(room?.b_name),
      room_id: text(room?.b_id) || firstId.split('_')[0],
      beds: firstId ? $(ROW(firstId)).find('.hprt-roomtype-bed').first().text().replace(/\s+/g, ' ').trim() : '',
      room_size: null,
      max_persons: highest(plans.map((p) => p.guests)),
      cheapest_rate: lowest(plans.map((p) => p.price)),
      rate_plans: plans,
    };
  });
  const cheapest = lowest(rooms.map((r) => r.cheapest_rate));
  return {
    hotel_id: HOTEL_ID.exec(scripts)?.[1] ?? '',
    property_name: propertyName($),
    currency,
    sold_out: cheapest == null,
    unavailable_reason: cheapest == null ? reason : null,
    cheapest_rate: cheapest,
    rooms,
  };
}
