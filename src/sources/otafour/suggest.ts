/**
 * The site's search-box suggestions, `GET /api/cronos/search/GetUnifiedSuggestResult/3/1/1/0/en-us/`
 * (`3/<language id>/<language id>/0/<locale>`; 1 = English, as public clients send it).
 *
 * Reply, as public clients read it (2024-26): `ViewModelList[]` of `{ ObjectId, ObjectTypeId, IsHotel,
 * CityId, Name, CityName, DisplayNames { Name, GeoHierarchyName, CategoryName }, ResultUrl }`, where a
 * hotel's `ResultUrl` carries `selectedproperty=` / `hotel=`. Older clients read the same items under
 * `SuggestionList`. The numeric type codes differ between those clients, so a hotel is recognised
 * only by `IsHotel` or by a property id in its `ResultUrl`, never by a type code.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';
import type { TypeaheadHit } from '../shared/typeahead.js';
import { arrOrNull, at, numeric, text, type Json } from '../../domain/json.js';

export const SUGGEST_PATH = '/api/cronos/search/GetUnifiedSuggestResult/3/1/1/0/en-us/';

export function suggestQuery(searchText: string): Record<string, string> {
  return { searchText, origin: 'US', cid: '-1', pageTypeId: '1', logTypeId: '1', isHotelLandSearch: 'true' };
}

const URL_ID_PARAMS = ['selectedproperty', 'hotel'];

function idFromResultUrl(url: unknown): string | null {
  const raw = text(url);
  if (!raw) return null;
  let params: URLSearchParams;
  try {
    params = new URL(raw, 'https://suggest.invalid').searchParams;
  } catch {
    return null;
  }
  // Parameter names vary in case between pages (selectedProperty / selectedproperty).
  const lower = new Map([...params].map(([k, v]) => [k.toLowerCase(), v]));
  for (const key of URL_ID_PARAMS) {
    const v = lower.get(key);
    if (v && /^\d+$/.test(v)) return v;
  }
  return null;
}

function propertyId(item: Json): string | null {
  const fromUrl = idFromResultUrl(at(item, 'ResultUrl'));
  if (fromUrl) return fromUrl;
  if (at(item, 'IsHotel') !== true) return null;
  const id = numeric(at(item, 'ObjectId') ?? at(item, 'ObjectID'));
  return id != null && id > 0 && Number.isInteger(id) ? String(id) : null;
}

function fullName(name: string, geo: string): string {
  if (!geo || name.toLowerCase().includes(geo.toLowerCase())) return name;
  return name ? `${name}, ${geo}` : geo;
}

/** Hotel suggestions with their numeric property id; cities, areas and landmarks are skipped. */
export function parseOtafourSuggest(payload: Json): TypeaheadHit[] {
  const items = arrOrNull(payload, 'ViewModelList') ?? arrOrNull(payload, 'SuggestionList');
  if (!items) throw new UpstreamContractChanged('otafour', 'suggestion list (ViewModelList[])');
  const out: TypeaheadHit[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    const id = propertyId(item);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    const names = at(item, 'DisplayNames');
    const name = text(names, 'Name') || text(item, 'Name');
    const cityId = numeric(item, 'CityId');
    out.push({
      position: out.length + 1,
      property_id: id,
      name,
      full_name: fullName(name, text(names, 'GeoHierarchyName') || text(item, 'CityName')),
      type: 'hotel',
      region_id: cityId != null && cityId > 0 ? String(cityId) : null,
      latitude: numeric(item, 'Latitude'),
      longitude: numeric(item, 'Longitude'),
    });
  }
  return out;
}
