/**
 * search_flights and get_return_flights as an agent gets them: one entry per itinerary, cheapest
 * first (the engine's best picks flagged), each leg's facts in a line and the token for the next
 * call; no logos, airport photos, airline lists or price history. Over MCP, max_flights is the view's:
 * the operation returns every itinerary and the view keeps the cheapest (5 by default, at most 20:
 * a token is several hundred tokens); omitted_flights counts the rest.
 */
import { z } from 'zod';
import type { McpView } from '../../src/core/define-tool.js';
import type { FlightsOutput } from '../../src/sources/metasearch/flights/schemas.js';

type Flights = z.infer<typeof FlightsOutput>;
type Itinerary = Flights['best_flights'][number];
type Leg = Itinerary['flights'][number];

const CompactLeg = z.object({
  from: z.string(),
  to: z.string(),
  departs: z.string().nullable(),
  arrives: z.string().nullable(),
  airline: z.string().nullable(),
  flight_number: z.string().nullable(),
  airplane: z.string().nullable(),
  minutes: z.number().nullable(),
  legroom: z.string().optional(),
  overnight: z.literal(true).optional(),
  often_delayed: z.literal(true).optional(),
});

const CompactItinerary = z.object({
  price: z.number().nullable().describe('whole trip, all passengers'),
  best: z.literal(true).optional(),
  type: z.string(),
  minutes: z.number().nullable(),
  stops: z.int(),
  legs: z.array(CompactLeg),
  layovers: z.array(z.object({ airport: z.string().nullable(), minutes: z.number().nullable(), overnight: z.literal(true).optional() })),
  carbon_vs_typical_percent: z.number().nullable(),
  departure_token: z.string().optional().describe('pass to get_return_flights'),
  booking_token: z.string().optional().describe('pass to get_booking_options'),
});

export const FlightsView = z.object({
  search: z.record(z.string(), z.string()),
  currency: z.string().nullable(),
  price_insights: z
    .object({ lowest_price: z.number().nullable(), price_level: z.string().nullable(), typical_price_range: z.array(z.number().nullable()).nullable() })
    .nullable(),
  flights: z.array(CompactItinerary),
  omitted_flights: z.int(),
});
type View = z.infer<typeof FlightsView>;

const when = (a: Leg['departure_airport']) => (a.date || a.time ? [a.date, a.time].filter(Boolean).join(' ') : null);

function leg(f: Leg): z.infer<typeof CompactLeg> {
  return {
    from: f.departure_airport.id,
    to: f.arrival_airport.id,
    departs: when(f.departure_airport),
    arrives: when(f.arrival_airport),
    airline: f.airline,
    flight_number: f.flight_number,
    airplane: f.airplane,
    minutes: f.duration,
    ...(f.detected_extensions?.legroom_short ? { legroom: f.detected_extensions.legroom_short } : {}),
    ...(f.is_overnight ? { overnight: true as const } : {}),
    ...(f.is_often_delayed ? { often_delayed: true as const } : {}),
  };
}

function itinerary(i: Itinerary, best: boolean): z.infer<typeof CompactItinerary> {
  return {
    price: i.price,
    ...(best ? { best: true as const } : {}),
    type: i.type,
    minutes: i.total_duration,
    stops: Math.max(0, i.flights.length - 1),
    legs: i.flights.map(leg),
    layovers: (i.layovers ?? []).map((l) => ({ airport: l.id, minutes: l.duration, ...(l.is_overnight ? { overnight: true as const } : {}) })),
    carbon_vs_typical_percent: i.carbon_emissions?.difference_percent ?? null,
    ...(i.departure_token ? { departure_token: i.departure_token } : {}),
    ...(i.booking_token ? { booking_token: i.booking_token } : {}),
  };
}

export const flightsView: McpView<unknown, Flights> = {
  args: { max_flights: z.int().min(1).max(20).default(5).describe('most itineraries returned, cheapest first') },
  output: FlightsView,
  shape(o, args) {
    const all = [...o.best_flights.map((i) => itinerary(i, true)), ...o.other_flights.map((i) => itinerary(i, false))];
    // cheapest first; an unpriced itinerary last; the engine's order among equal prices
    const sorted = all
      .map((f, n) => ({ f, n }))
      .sort((a, b) => (a.f.price ?? Infinity) - (b.f.price ?? Infinity) || a.n - b.n)
      .map(({ f }) => f);
    const flights = sorted.slice(0, args.max_flights as number);
    const { engine: _engine, ...search } = o.search_parameters;
    const insights = o.price_insights;
    const view: View = {
      search,
      currency: o.pricing.currency,
      price_insights: insights
        ? {
            lowest_price: insights.lowest_price,
            price_level: insights.price_level,
            typical_price_range: insights.typical_price_range ? [insights.typical_price_range.low_price, insights.typical_price_range.high_price] : null,
          }
        : null,
      flights,
      omitted_flights: (o.omitted_flights ?? 0) + sorted.length - flights.length,
    };
    return view;
  },
};

export function flightsSummary(a: Record<string, unknown>): string {
  const v = a as View;
  if (!v.flights.length) return 'No itinerary found.';
  const cheapest = v.flights[0];
  const route = `${cheapest.legs[0]?.from ?? '?'} → ${cheapest.legs.at(-1)?.to ?? '?'}`;
  return `${v.flights.length} itineraries ${route}${v.omitted_flights ? ` (${v.omitted_flights} more: raise max_flights)` : ''}; cheapest ${cheapest.price ?? '?'} ${v.currency ?? ''}, ${cheapest.stops} stop(s)${v.price_insights?.price_level ? `; prices are ${v.price_insights.price_level}` : ''}.`;
}

/** A leg in words: `SFO 2026-07-15 08:00 → JFK 2026-07-15 16:31, JetBlue B6 16, 331 min`. */
function legLine(l: z.infer<typeof CompactLeg>): string {
  const flight = [l.airline, l.flight_number].filter(Boolean).join(' ');
  return `${l.from} ${l.departs ?? '?'} → ${l.to} ${l.arrives ?? '?'}${flight ? `, ${flight}` : ''}${l.minutes !== null ? `, ${l.minutes} min` : ''}${l.overnight ? ', overnight' : ''}`;
}

/**
 * The text block's lines: the search once, then one line per itinerary with its whole-trip price,
 * its legs in words and the token for the next call (the structured result keeps aircraft,
 * legroom and emissions).
 */
export function flightsText(a: Record<string, unknown>): string[] {
  const v = a as View;
  return [
    JSON.stringify({ ...v.search, currency: v.currency, price_insights: v.price_insights, omitted_flights: v.omitted_flights }),
    `flights (${v.flights.length}), cheapest first; price = whole trip, all passengers, in ${v.currency ?? 'the currency stated'}:`,
    ...v.flights.map((f) => {
      const line = {
        price: f.price,
        ...(f.best ? { best: true } : {}),
        stops: f.stops,
        minutes: f.minutes,
        legs: f.legs.map(legLine),
        ...(f.layovers.length ? { layovers: f.layovers.map((l) => `${l.airport ?? '?'} ${l.minutes ?? '?'} min${l.overnight ? ' overnight' : ''}`) } : {}),
        ...(f.departure_token ? { departure_token: f.departure_token } : {}),
        ...(f.booking_token ? { booking_token: f.booking_token } : {}),
      };
      return `- ${JSON.stringify(line)}`;
    }),
  ];
}
