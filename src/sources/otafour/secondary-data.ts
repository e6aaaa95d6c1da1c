/**
 * The property page's own room-grid JSON (`GET /api/cronos/property/BelowFoldParams/GetSecondaryData`),
 * as public clients read it: `roomGridData.masterRooms[]` (one per room type) each with `rooms[]`
 * (one row per occupancy and supplier; `isFit` marks the rows that answer the search). Per-night
 * prices: `inclusivePrice.display` (taxes and fees in), else `pricing.displayPrice` (before taxes),
 * else `price.display` (basis not stated). No recorded reply exists; see the README.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, text, type Json } from '../../domain/json.js';

export interface OtafourGridOffer {
  rate_id: string | null;
  price: number | null;
  /** Currency read back from the row or grid; null when the reply does not state one. */
  currency: string | null;
  tax_inclusive: boolean | null;
  discount: string | null;
  /** As the row states it; null when it does not. */
  free_cancellation: boolean | null;
  total: number | null;
}

interface OtafourGridRoom {
  name: string;
  offers: OtafourGridOffer[];
}

export interface OtafourGrid {
  property_id: string;
  name: string;
  currency_display: string | null;
  rooms: OtafourGridRoom[];
}

function positive(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : null;
}

function currencyOf(row: Json, grid: Json): string | null {
  const c = text(row, 'currency') || text(row, 'currencyCode') || text(row, 'pricing', 'currency') || text(grid, 'currencyCode') || text(grid, 'currency');
  return /^[A-Z]{3}$/.test(c) ? c : null;
}

function offer(row: Json, grid: Json): OtafourGridOffer {
  const inclusive = positive(at(row, 'inclusivePrice', 'display'));
  const exclusive = positive(at(row, 'pricing', 'displayPrice'));
  const plain = positive(at(row, 'price', 'display'));
  const price = inclusive ?? exclusive ?? plain;
  const saving = positive(at(row, 'discount', 'percent')) ?? positive(at(row, 'discountPercent'));
  const freeCancellation = at(row, 'isFreeCancellation');
  return {
    rate_id: text(row, 'uid') || text(row, 'id') || null,
    price,
    currency: currencyOf(row, grid),
    tax_inclusive: inclusive != null ? true : exclusive != null ? false : null,
    discount: saving != null ? `${saving}%` : null,
    free_cancellation: typeof freeCancellation === 'boolean' ? freeCancellation : null,
    total: positive(at(row, 'totalPrice', 'display')),
  };
}

export function parseOtafourSecondaryData(payload: Json, propertyId: string): OtafourGrid {
  const grid = at(payload, 'roomGridData');
  if (!grid || typeof grid !== 'object') throw new UpstreamContractChanged('otafour', 'roomGridData');
  return {
    property_id: text(payload, 'hotelInfo', 'hotelId') || text(payload, 'hotelId') || propertyId,
    name: text(payload, 'hotelInfo', 'name') || text(payload, 'aboutHotel', 'hotelName'),
    currency_display: text(grid, 'currencySymbol') || text(payload, 'currencySymbol') || null,
    rooms: arr(grid, 'masterRooms').map((m) => ({
      name: text(m, 'name'),
      offers: arr(m, 'rooms')
        .filter((r) => at(r, 'isFit') !== false)
        .map((r) => offer(r, grid)),
    })),
  };
}
