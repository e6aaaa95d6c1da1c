/**
 * The travel group's suggestion service (`GET /api/v4/typeahead/<text>`), which every brand site
 * of the group serves: `{ sr: [{ type, regionNames {fullName, shortName, displayName}, hotelId,
 * gaiaId, coordinates {lat, long} }] }`. Hotel suggestions carry the numeric property id.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, at, numeric, obj, text, type Json } from '../../domain/json.js';
import type { PointOfSale } from './group-graphql.js';

export interface TypeaheadHit {
  position: number;
  property_id: string;
  name: string;
  /** Full place text as the site shows it, e.g. "Hotel X, Paris, France". */
  full_name: string;
  type: string;
  region_id: string | null;
  latitude: number | null;
  longitude: number | null;
}

export function typeaheadPath(text: string, pos: PointOfSale, limit: number): { path: string; query: Record<string, string> } {
  return {
    path: `/api/v4/typeahead/${encodeURIComponent(text)}`,
    query: {
      client: 'SearchForm',
      dest: 'true',
      features: 'ta_hierarchy|consistent_display',
      format: 'json',
      lob: 'HOTELS',
      locale: pos.locale,
      maxresults: String(limit),
      regiontype: '2047',
      siteid: String(pos.siteId),
    },
  };
}

/** Hotel suggestions only (regions and airports carry no property id). */
export function parseTypeahead(alias: string, payload: Json): TypeaheadHit[] {
  const list = obj(payload)?.sr;
  if (!Array.isArray(list)) throw new UpstreamContractChanged(alias, 'typeahead sr[]');
  const out: TypeaheadHit[] = [];
  for (const s of arr(list)) {
    const id = text(s, 'hotelId');
    if (!id) continue;
    const names = at(s, 'regionNames');
    out.push({
      position: out.length + 1,
      property_id: id,
      name: text(names, 'primaryDisplayName') || text(names, 'shortName') || text(names, 'displayName'),
      full_name: text(names, 'fullName') || text(names, 'displayName'),
      type: text(s, 'type'),
      region_id: text(s, 'gaiaId') || null,
      latitude: numeric(s, 'coordinates', 'lat'),
      longitude: numeric(s, 'coordinates', 'long'),
    });
  }
  return out;
}
