/**
 * The per-seller cells of a rate shop (pure): each stay's offers answer (POST /v1/offers, the
 * sellers the property's page lists for that stay) reduced to each seller's cheapest all-in stay
 * total with its provenance, put beside the grid's cells. The cell's own total, the own hotel's
 * rank and the median stay the calendar's (rate-shop.ts): the sellers are read beside them, never
 * into them. Nothing is filled in: a seller the page lists without an all-in total has a null
 * total, and a stay whose offers were not fetched says why (`sellers_state`).
 */
import type { Provenance } from './provenance.js';
import type { GridRow } from './rate-shop.js';
import { GRID_CSV_HEADER, gridCsvRows } from './rate-shop.js';

/** One seller's entry on the offers answer, as far as the grid reads it. */
export interface StayOffer {
  /** The seller's normalized name (booking, expedia, …). */
  source: string;
  /** The seller's name as the page states it. */
  raw_source: string;
  is_official: boolean;
  /** The stay's all-in total; null where the page shows the seller's price before taxes only. */
  total: number | null;
  currency: string | null;
  link: string | null;
  provenance: Provenance;
}

/** One stay's offers item of the shop: a property at one check-in date and length of stay. */
export interface ShopStay {
  property_token: string;
  date: string;
  los: number;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  /** The offers answer's sellers (succeeded items only). */
  offers: StayOffer[];
}

/** Whether a cell's sellers are known: listed (the page listed sellers), none (it listed none), failed, pending. */
type SellersState = 'listed' | 'none' | 'failed' | 'pending';

interface CellSeller {
  seller: string;
  name: string;
  is_official: boolean;
  total: number | null;
  currency: string | null;
  link: string | null;
  provenance: Provenance | null;
}

/** A seller's cheapest all-in total per seller (by normalized name), cheapest first; sellers without an all-in total last, by name. */
function cheapestPerSeller(offers: StayOffer[]): CellSeller[] {
  const priced = (o: StayOffer): o is StayOffer & { total: number } => o.total !== null && o.currency !== null;
  const best = new Map<string, StayOffer>();
  for (const o of offers) {
    const held = best.get(o.source);
    if (!held || (priced(o) && (!priced(held) || o.total < held.total))) best.set(o.source, o);
  }
  return [...best.values()]
    .map((o) => {
      const stated = priced(o);
      return {
        seller: o.source,
        name: o.raw_source,
        is_official: o.is_official,
        total: stated ? o.total : null,
        currency: o.currency,
        link: o.link,
        provenance: stated ? o.provenance : null,
      };
    })
    .sort((a, b) => (a.total ?? Infinity) - (b.total ?? Infinity) || a.seller.localeCompare(b.seller));
}

export type SellerGridRow = Omit<GridRow, 'cells'> & {
  cells: (GridRow['cells'][number] & { sellers_state: SellersState; sellers: CellSeller[] })[];
};

/** The grid with each cell's sellers from its stay's offers item (a stay without one is pending). */
export function withSellers(rows: GridRow[], stays: ShopStay[]): SellerGridRow[] {
  const stayOf = new Map(stays.map((s) => [`${s.property_token}|${s.date}|${s.los}`, s]));
  return rows.map((r) => ({
    ...r,
    cells: r.cells.map((c) => {
      const stay = stayOf.get(`${c.property_token}|${r.date}|${r.los}`);
      if (!stay || stay.status === 'queued' || stay.status === 'running') return { ...c, sellers_state: 'pending' as const, sellers: [] };
      if (stay.status === 'failed') return { ...c, sellers_state: 'failed' as const, sellers: [] };
      const sellers = cheapestPerSeller(stay.offers);
      return { ...c, sellers_state: sellers.length ? ('listed' as const) : ('none' as const), sellers };
    }),
  }));
}

/** A per-seller shop's CSV columns: the grid's, then the seller's (one line per seller; a cell without sellers, one line with them empty). */
export const SELLER_CSV_HEADER = [
  ...GRID_CSV_HEADER,
  'sellers_state',
  'seller_key',
  'seller_name',
  'seller_is_official',
  'seller_total',
  'seller_currency',
  'seller_link',
  'seller_observation_id',
  'seller_observed_at',
] as const;

export function sellerCsvRows(rows: SellerGridRow[]): (string | number | boolean | null)[][] {
  const gridLines = gridCsvRows(rows);
  const cells = rows.flatMap((r) => r.cells);
  return cells.flatMap((c, i) => {
    const sellers: (CellSeller | null)[] = c.sellers.length ? c.sellers : [null];
    return sellers.map((s) => [
      ...gridLines[i],
      c.sellers_state,
      s?.seller ?? null,
      s?.name ?? null,
      s?.is_official ?? null,
      s?.total ?? null,
      s?.currency ?? null,
      s?.link ?? null,
      s?.provenance?.observation_id ?? null,
      s?.provenance?.observed_at ?? null,
    ]);
  });
}
