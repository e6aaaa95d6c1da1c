/**
 * Travel-review metasearch I/O: its public MCP server at `/mcp` (initialize, initialized
 * notification, then one `tools/call` of the accommodation search), as public clients call it.
 */
import { guards } from './guards.js';
import type { SourceUses } from '../context.js';
import { UpstreamContractChanged } from '../../domain/errors.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import { withContractGuard } from '../../upstream/diagnostics.js';
import { checkStatus, observe, priceProvenance } from '../shared/observation.js';
import { assertStayAnswered, stayWindow } from '../shared/stay.js';
import { rpcMessage, toolAccommodations } from './mcp-reply.js';
import { parseTravelreviewSearch } from './search.js';

const MCP_PATH = '/mcp';
const SEARCH_TOOL = 'trivago-accommodation-search';
const ACCEPT = { accept: 'application/json, text/event-stream' };

export interface TravelreviewInput {
  query: string;
  check_in: string;
  check_out?: string | null;
  nights: number;
  adults: number;
  rooms: number;
  currency?: string | null;
  limit: number;
}

function mcpStatus(response: UpstreamResponse): void {
  checkStatus(response);
}

export async function fetchTravelreviewSearch(deps: SourceUses<'upstream'>, input: TravelreviewInput) {
  const stay = stayWindow(input, 30);
  const upstream = deps.upstream;
  const init = await upstream.fetch({
    source: 'travelreview',
    method: 'POST',
    path: MCP_PATH,
    headers: ACCEPT,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'hotelrates', version: '1.0.0' } },
    },
    expect: 'any',
  });
  mcpStatus(init);
  rpcMessage(init.text(), 1);
  const session = init.headers['mcp-session-id'];
  const sessionHeader: Record<string, string> = session ? { 'mcp-session-id': session } : {};
  const note = await upstream.fetch({
    source: 'travelreview',
    method: 'POST',
    path: MCP_PATH,
    headers: { ...ACCEPT, ...sessionHeader },
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    expect: 'any',
  });
  mcpStatus(note);
  const args: Record<string, unknown> = { query: input.query, checkin: stay.checkIn, checkout: stay.checkOut, adults: input.adults, rooms: input.rooms };
  if (input.currency) args.currency = input.currency;
  const response = await upstream.fetch({
    source: 'travelreview',
    method: 'POST',
    path: MCP_PATH,
    headers: { ...ACCEPT, ...sessionHeader },
    body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: SEARCH_TOOL, arguments: args } },
    expect: 'any',
  });
  mcpStatus(response);
  const obs = observe('travelreview', response);
  const results = await withContractGuard('travelreview', response, (r) => parseTravelreviewSearch(toolAccommodations(rpcMessage(r.text(), 2))), {
    rule: guards.drift.search,
  });
  if (results.some((r) => !r.accommodation_id)) throw new UpstreamContractChanged('travelreview', 'accommodations[].accommodation_id');
  for (const r of results) assertStayAnswered(stay, { checkIn: r.check_in, checkOut: r.check_out });
  return {
    query: input.query,
    check_in: stay.checkIn,
    check_out: stay.checkOut,
    nights: stay.nights,
    adults: input.adults,
    collection_id: obs.collectionId,
    observed_at: obs.observedAt.toISOString(),
    wire_bytes: init.wireBytes + note.wireBytes + obs.wireBytes,
    results: results.slice(0, input.limit).map((r) => ({
      ...r,
      provenance:
        r.price_per_stay == null && r.price_per_night == null
          ? null
          : priceProvenance(
              obs,
              { propertyId: r.accommodation_id, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: input.adults },
              {
                sourceKind: 'metasearch_result',
                collector: 'travelreview.mcp_search',
                market: null,
                requestedCurrency: input.currency ?? null,
                returnedCurrency: r.currency,
                priceBasis: 'stay_cheapest_advertiser',
                derivation: 'normalized_upstream',
                rateId: null,
              },
            ),
    })),
  };
}
