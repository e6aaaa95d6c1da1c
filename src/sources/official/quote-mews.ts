/**
 * Mews: the vendor's documented Booking Engine (formerly Distributor) API (docs.mews.com; the
 * operations page of its public docs repository, test/fixtures/README.md), keyed by the
 * configuration id of the `app.mews.com/distributor/<id>` link. Every request names a `Client`
 * that Mews registers per integrator, so Mews is priced only when OFFICIAL_MEWS_CLIENT is set:
 * 1. `POST /api/distributor/v1/configuration/get` `{Client, Ids: [id], PrimaryId: id}` →
 *    `{Configurations: [{Id, Enterprise: {Id, Categories: [{Id, Name}], DefaultCurrencyCode}}]}`;
 * 2. `POST /api/distributor/v1/hotels/getAvailability` `{Client, ConfigurationId, HotelId (the
 *    enterprise id), StartUtc, EndUtc, AdultCount, ChildCount, [CurrencyCode]}` → `{Rates: [{Id,
 *    Name}], RoomCategoryAvailabilities: [{RoomCategoryId, AvailableRoomCount,
 *    RoomOccupancyAvailabilities: [{AdultCount, ChildCount, Pricing: [{RateId, Price: {TotalAmount:
 *    {<ISO>: {GrossValue, NetValue, TaxValues: [{Value}]}}}}]}]}]}`.
 * An amount is keyed by its currency; GrossValue is "net price + taxes" (the docs), so the total is
 * the gross stay amount and its taxes the sum of TaxValues. Only the occupancy of the asked party is
 * read (the API may answer the nearest one it supports).
 */
import { NotFound, UpstreamContractChanged } from '../../domain/errors.js';
import { isObject, numeric, objs, text, type JsonObject } from '../../domain/json.js';
import type { EngineRoomOffer, EngineStay, PricedEngine } from './engine-types.js';
import { UNSTATED, assertEngineOk, engineJson, localizedText } from './engine-shared.js';

const CONFIGURATION = '/api/distributor/v1/configuration/get';
const AVAILABILITY = '/api/distributor/v1/hotels/getAvailability';
const DISTRIBUTOR_HOST = 'https://app.mews.com';

export interface MewsConfiguration {
  hotelId: string;
  categories: Map<string, unknown>;
}

const post = (body: Record<string, unknown>) => ({
  method: 'POST' as const,
  headers: { 'content-type': 'application/json', accept: 'application/json' },
  body: JSON.stringify(body),
});

function mewsConfigurationRequest(client: string, configurationId: string) {
  return post({ Client: client, Ids: [configurationId], PrimaryId: configurationId });
}

function mewsAvailabilityRequest(
  client: string,
  configurationId: string,
  hotelId: string,
  stay: Pick<EngineStay, 'checkIn' | 'checkOut' | 'adults' | 'children' | 'currency'>,
) {
  return post({
    Client: client,
    ConfigurationId: configurationId,
    HotelId: hotelId,
    StartUtc: `${stay.checkIn}T00:00:00Z`,
    EndUtc: `${stay.checkOut}T00:00:00Z`,
    AdultCount: stay.adults,
    ChildCount: stay.children,
    ...(stay.currency ? { CurrencyCode: stay.currency } : {}),
  });
}

/** The enterprise (hotel) id and room categories of the configuration; none is a 404. */
export function parseMewsConfiguration(body: string, configurationId: string): MewsConfiguration {
  const reply = engineJson(body, 'mews', 'configuration');
  if (!isObject(reply)) throw new UpstreamContractChanged('official', 'mews configuration object');
  const configs = objs(reply, 'Configurations');
  const config = configs.find((c) => text(c, 'Id') === configurationId) ?? configs[0];
  const hotelId = text(config, 'Enterprise', 'Id');
  if (!config || !hotelId) throw new NotFound(`mews property ${configurationId} not found`);
  return { hotelId, categories: new Map(objs(config, 'Enterprise', 'Categories').map((c) => [text(c, 'Id'), c.Name])) };
}

/** The amount in the asked currency, else the only one stated; null when neither. */
function amountOf(map: unknown, currency: string | null): { currency: string; gross: number | null; taxes: number | null } | null {
  if (!isObject(map)) return null;
  const codes = Object.keys(map).filter((k) => /^[A-Z]{3}$/.test(k) && isObject(map[k]));
  const code = currency && codes.includes(currency) ? currency : codes.length === 1 ? codes[0]! : null;
  if (!code) return null;
  const value = map[code] as JsonObject;
  const taxValues = objs(value, 'TaxValues').map((t) => numeric(t, 'Value'));
  const taxes = taxValues.length && taxValues.every((t) => t != null) ? Number(taxValues.reduce((a, b) => a + b, 0).toFixed(6)) : null;
  return { currency: code, gross: numeric(value, 'GrossValue'), taxes };
}

/** The distributor page on the stay, room category pre-selected (its `mews*` query parameters). */
function mewsStayLink(
  bookingUrl: string | null,
  configurationId: string,
  stay: Pick<EngineStay, 'checkIn' | 'checkOut' | 'adults' | 'children'>,
  categoryId: string,
): string {
  const origin = bookingUrl && /(^|\.)mews\.(com|li)$/i.test(new URL(bookingUrl).hostname) ? new URL(bookingUrl).origin : DISTRIBUTOR_HOST;
  const q = new URLSearchParams({
    mewsStart: stay.checkIn,
    mewsEnd: stay.checkOut,
    mewsAdultCount: String(stay.adults),
    mewsChildCount: String(stay.children),
    mewsRoom: categoryId,
    mewsRoute: 'rates',
  });
  return `${origin}/distributor/${encodeURIComponent(configurationId)}?${q.toString()}`;
}

/** One offer per room category and rate priced for the asked party. */
export function parseMewsAvailability(
  body: string,
  config: MewsConfiguration,
  stay: Pick<EngineStay, 'propertyCode' | 'bookingUrl' | 'checkIn' | 'checkOut' | 'adults' | 'children' | 'currency' | 'language'>,
): EngineRoomOffer[] {
  const reply = engineJson(body, 'mews', 'availability');
  if (!isObject(reply) || !Array.isArray(reply.RoomCategoryAvailabilities))
    throw new UpstreamContractChanged('official', 'mews availability: no RoomCategoryAvailabilities');
  const rates = new Map(objs(reply, 'Rates').map((r) => [text(r, 'Id'), localizedText(r.Name, stay.language)]));
  const offers: EngineRoomOffer[] = [];
  for (const category of objs(reply, 'RoomCategoryAvailabilities')) {
    const categoryId = text(category, 'RoomCategoryId');
    if (!categoryId) continue;
    const left = numeric(category, 'AvailableRoomCount');
    const party = objs(category, 'RoomOccupancyAvailabilities').find(
      (o) => numeric(o, 'AdultCount') === stay.adults && (numeric(o, 'ChildCount') ?? 0) === stay.children,
    );
    for (const pricing of objs(party, 'Pricing')) {
      const rateId = text(pricing, 'RateId');
      const amount = amountOf((pricing.Price as JsonObject | undefined)?.TotalAmount, stay.currency);
      const total = amount?.gross != null && amount.gross > 0 ? amount.gross : null;
      offers.push({
        room_id: categoryId,
        room_name: localizedText(config.categories.get(categoryId), stay.language),
        rate_name: rates.get(rateId) ?? null,
        rooms_available: left,
        total,
        nightly: null,
        taxes: total != null ? (amount?.taxes ?? null) : null,
        ...UNSTATED,
        currency: amount?.currency ?? null,
        booking_url: mewsStayLink(stay.bookingUrl, stay.propertyCode, stay, categoryId),
        bookable: total != null && (left == null || left > 0),
        upstream_rate_id: rateId || null,
        price_basis: 'stay_total_gross_as_quoted',
        derivation: 'upstream',
      });
    }
  }
  return offers;
}

export const mews: PricedEngine = {
  id: 'mews',
  endpoints: [CONFIGURATION, AVAILABILITY],
  sendsCurrency: true,
  party: { children: true, rooms: false },
  unavailable: ({ mewsClient }) =>
    mewsClient ? null : 'its Booking Engine API needs a client name registered with Mews; set OFFICIAL_MEWS_CLIENT to price Mews hotels',
  async quote(stay, call, { base, mewsClient }) {
    const client = mewsClient as string;
    const configReply = await call(base + CONFIGURATION, mewsConfigurationRequest(client, stay.propertyCode));
    assertEngineOk(configReply);
    const config = parseMewsConfiguration(configReply.text, stay.propertyCode);
    const reply = await call(base + AVAILABILITY, mewsAvailabilityRequest(client, stay.propertyCode, config.hotelId, stay));
    assertEngineOk(reply);
    return parseMewsAvailability(reply.text, config, stay);
  },
};
