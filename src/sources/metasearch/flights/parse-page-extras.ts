/**
 * Page-level parts of the flight results `ds:1` blob: price insights, the searched airports,
 * the airline / alliance / connecting-airport filter lists and the per-airline policy links.
 */
import { arr, arrOrNull, at, nonEmptyStr, num } from '../../../domain/json.js';

/** Paths into `ds:1`. */
const PAGE = {
  airportsByLeg: [1],
  priceInsights: [5],
  filters: [7],
  baggageLinks: [11],
  assistanceLinks: [26],
} as const;

/** Paths into `ds:1[5]`. */
const INSIGHTS = {
  level: [0],
  lowest: [1, 1],
  usual: [2, 1],
  typicalLow: [4, 1],
  typicalHigh: [5, 1],
  history: [10, 0],
} as const;

/**
 * Level codes named only where two recorded pages show the code beside its label ("Prices are
 * currently low": code 1 on two pages). Codes 4 and 5 appear beside "typical" and "high" on one
 * page each, below that bar, so they are not named from the code: the results page's own label is
 * read instead (labelFromPage), which covers every level the page prints.
 */
const PRICE_LEVELS: Record<number, string> = { 1: 'low' };

/** The level the results page prints in its insight box ("Prices are currently <b>high</b>"). */
export function priceLevelFromPage(html: string): string | null {
  return /Prices are currently\s*(?:<[^>]*>\s*)*(low|typical|high)\b/i.exec(html)?.[1]?.toLowerCase() ?? null;
}

/** Paths into one airport entry of `ds:1[1][leg][0|1]`. */
const AIRPORT = {
  id: [0, 0],
  name: [1],
  city: [2, 1],
  cityId: [2, 0],
  thumbnail: [2, 2, 0, 0],
  image: [2, 2, 1, 0],
  countryCode: [4],
  country: [6],
} as const;

/** Paths into `ds:1[7]`. */
const FILTERS = { alliances: [1, 0], airlines: [1, 1], hubs: [2] } as const;

interface FlightPriceInsights {
  lowest_price: number | null;
  price_level: string | null;
  /** Raw level code, kept so unlabelled codes are not lost. */
  price_level_code: number | null;
  typical_price_range: { low_price: number | null; high_price: number | null } | null;
  /** Typical price the "cheaper than usual" note compares with. */
  usual_price: number | null;
  price_history: { price: number; timestamp: number }[];
}

interface FlightAirportInfo {
  id: string;
  name: string | null;
  city: string | null;
  city_id: string | null;
  country: string | null;
  country_code: string | null;
  image: string | null;
  thumbnail: string | null;
}

interface CodeName {
  code: string;
  name: string | null;
}

interface AirlineLink {
  airline_code: string;
  airline: string | null;
  url: string;
}

export interface FlightPageExtras {
  price_insights: FlightPriceInsights | null;
  /** Per searched leg, the departure and arrival places. */
  airports: { departure: FlightAirportInfo[]; arrival: FlightAirportInfo[] }[];
  airline_filters: { alliances: CodeName[]; airlines: CodeName[]; hubs: CodeName[] } | null;
  baggage_allowance_links: AirlineLink[];
  passenger_assistance_links: AirlineLink[];
  /** Airline logo URL by carrier code, as far as the page carries them. */
  airline_logos: Record<string, string>;
}

function parseInsights(p: unknown[]): FlightPriceInsights {
  const code = num(p, ...INSIGHTS.level);
  const low = num(p, ...INSIGHTS.typicalLow);
  const high = num(p, ...INSIGHTS.typicalHigh);
  const history: FlightPriceInsights['price_history'] = [];
  for (const point of arr(p, ...INSIGHTS.history)) {
    const ts = num(point, 0);
    const price = num(point, 1);
    if (ts !== null && price !== null) history.push({ price, timestamp: ts });
  }
  return {
    lowest_price: num(p, ...INSIGHTS.lowest),
    price_level: code !== null ? (PRICE_LEVELS[code] ?? null) : null,
    price_level_code: code,
    typical_price_range: low === null && high === null ? null : { low_price: low, high_price: high },
    usual_price: num(p, ...INSIGHTS.usual),
    price_history: history,
  };
}

function parseAirport(a: unknown): FlightAirportInfo | null {
  const id = nonEmptyStr(a, ...AIRPORT.id);
  if (!id) return null;
  return {
    id,
    name: nonEmptyStr(a, ...AIRPORT.name),
    city: nonEmptyStr(a, ...AIRPORT.city),
    city_id: nonEmptyStr(a, ...AIRPORT.cityId),
    country: nonEmptyStr(a, ...AIRPORT.country),
    country_code: nonEmptyStr(a, ...AIRPORT.countryCode),
    image: nonEmptyStr(a, ...AIRPORT.image),
    thumbnail: nonEmptyStr(a, ...AIRPORT.thumbnail),
  };
}

function airportList(list: unknown): FlightAirportInfo[] {
  return (Array.isArray(list) ? list : []).map(parseAirport).filter((a): a is FlightAirportInfo => a !== null);
}

function codeNames(list: unknown[] | null): CodeName[] {
  return (list ?? []).flatMap((e) => {
    const code = nonEmptyStr(e, 0);
    return code ? [{ code, name: nonEmptyStr(e, 1) }] : [];
  });
}

function links(list: unknown[] | null): AirlineLink[] {
  return (list ?? []).flatMap((e) => {
    const code = nonEmptyStr(e, 0);
    const url = nonEmptyStr(e, 2);
    return code && url ? [{ airline_code: code, airline: nonEmptyStr(e, 1), url }] : [];
  });
}

export function parsePageExtras(data: unknown[]): FlightPageExtras {
  const insights = arrOrNull(data, ...PAGE.priceInsights);
  const filters = at(data, ...PAGE.filters);
  return {
    price_insights: insights ? parseInsights(insights) : null,
    airports: arr(data, ...PAGE.airportsByLeg).map((leg) => ({
      departure: airportList(at(leg, 0)),
      arrival: airportList(at(leg, 1)),
    })),
    airline_filters: Array.isArray(filters)
      ? {
          alliances: codeNames(arrOrNull(filters, ...FILTERS.alliances)),
          airlines: codeNames(arrOrNull(filters, ...FILTERS.airlines)),
          hubs: codeNames(arrOrNull(filters, ...FILTERS.hubs)),
        }
      : null,
    baggage_allowance_links: links(arrOrNull(data, ...PAGE.baggageLinks)),
    passenger_assistance_links: links(arrOrNull(data, ...PAGE.assistanceLinks)),
    airline_logos: {},
  };
}
