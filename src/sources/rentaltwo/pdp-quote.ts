/**
 * One stay's price from the listing's `StaysPdpSections` reply, booking section only:
 * `data.presentation.stayProductDetailPage.sections.sections[]` → the `BOOK_IT_SIDEBAR` section's
 * `structuredDisplayPrice`, the same structure as the search cards' price.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, at, text, type Json } from '../../domain/json.js';
import { parseStructuredDisplayPrice, type RentaltwoPrice } from './stays-search.js';

const BOOKING_SECTION = 'BOOK_IT_SIDEBAR';

export type PdpQuote =
  | { kind: 'priced'; price: RentaltwoPrice }
  /** The platform answered but would not price the stay (GraphQL errors). */
  | { kind: 'refused'; reason: string }
  /** The booking section came back without a price. */
  | { kind: 'no_price' };

function find(node: Json, depth = 0): Json {
  if (!node || typeof node !== 'object' || depth > 8) return null;
  const sdp = at(node, 'structuredDisplayPrice');
  if (sdp) return sdp;
  const values: unknown[] = Object.values(node);
  for (const v of values) {
    const hit = find(v, depth + 1);
    if (hit) return hit;
  }
  return null;
}

export function parsePdpQuote(payload: Json): PdpQuote {
  const errors = arr(payload, 'errors');
  const sections = arrOrNull(payload, 'data', 'presentation', 'stayProductDetailPage', 'sections', 'sections');
  if (!sections) {
    if (errors.length)
      return {
        kind: 'refused',
        reason: errors
          .map((e) => text(e, 'message'))
          .join('; ')
          .slice(0, 200),
      };
    throw new UpstreamContractChanged('rentaltwo', 'stayProductDetailPage.sections.sections');
  }
  const booking = sections.find((s) => at(s, 'sectionId') === BOOKING_SECTION || at(s, 'sectionComponentType') === BOOKING_SECTION);
  const sdp = booking ? find(at(booking, 'section')) : null;
  if (!sdp) return { kind: 'no_price' };
  const price = parseStructuredDisplayPrice(sdp, true);
  if (!price || (price.extracted_total_price == null && price.extracted_price_per_qualifier == null)) return { kind: 'no_price' };
  return { kind: 'priced', price };
}
