/**
 * POST /v1/search: a hotel name (and city) → property tokens. The name is searched on the result
 * page of the first market; later markets are tried, in order, only while a market returns no
 * candidate at all. With verify on, each candidate's own page is fetched to confirm that the token
 * prices and to read back the property's real name.
 */
import { z } from 'zod';
import type { SourceUses } from '../../context.js';
import { ApiError } from '../../../domain/errors.js';
import { pricingMarket } from '../../../domain/markets.js';
import { fetchSearchPage } from './fetch.js';
import { nameScore, rankMatches } from './name-match.js';
import { loadProperty } from './property.js';
import { transportStay } from './stay.js';
import { mapLimit } from '../../../domain/map-limit.js';

export interface ResolveInput {
  name: string;
  city: string;
  market?: string | null;
  fallback_markets: string[];
  currency?: string | null;
  limit: number;
  verify: boolean;
}

const MatchSchema = z.object({
  token: z.string(),
  rank: z.int(),
  verified: z.boolean().nullable(),
  name: z.string().nullable(),
  name_score: z.number().nullable(),
});

export const ResolveOutput = z.object({
  query: z.string(),
  gl: z.string(),
  requested_market: z.string().nullable(),
  attempted_markets: z.array(z.string()),
  matched_market: z.string().nullable(),
  market_fallback_used: z.boolean(),
  search_status: z.enum(['matched', 'not_found']),
  external_fallback_recommended: z.boolean(),
  matches: z.array(MatchSchema),
});
export type ResolveResult = z.infer<typeof ResolveOutput>;

const VERIFY_CONCURRENCY = 3;

interface Candidate {
  token: string;
  rank: number;
  cardName: string;
}

export async function runResolve(deps: SourceUses<'upstream'>, input: ResolveInput, now: Date = new Date()): Promise<ResolveResult> {
  const query = [input.name.trim(), input.city.trim()].filter(Boolean).join(' ');
  const markets = [...new Set([...(input.market ? [input.market] : []), ...input.fallback_markets])];
  if (!markets.length) markets.push('US');
  const stay = transportStay(now);
  const attempted: string[] = [];
  let matchedMarket: string | null = null;
  let candidates: Candidate[] = [];
  let currency = 'USD';
  for (const market of markets) {
    attempted.push(market);
    currency = input.currency ?? pricingMarket(market)?.currency ?? 'USD';
    const page = await fetchSearchPage(
      deps,
      { q: query, checkIn: stay.checkIn, checkOut: stay.checkOut, adults: 2, currency, gl: market.toLowerCase(), hl: 'en' },
      { market },
    );
    candidates = page.data.properties.flatMap((p, rank) => (p.property_token ? [{ token: p.property_token, rank, cardName: p.name }] : []));
    if (candidates.length) {
      matchedMarket = market;
      break;
    }
  }
  candidates = candidates.slice(0, input.limit);
  const gl = (matchedMarket ?? markets[0]!).toLowerCase();

  let matches: z.infer<typeof MatchSchema>[];
  if (!input.verify) {
    matches = candidates.map((c) => ({ token: c.token, rank: c.rank, verified: null, name: null, name_score: nameScore(input.name, c.cardName) }));
  } else {
    const errors: unknown[] = [];
    matches = await mapLimit(candidates, VERIFY_CONCURRENCY, async (c) => {
      try {
        const f = await loadProperty(deps, { token: c.token, stay, adults: 2, currency, gl, hl: 'en', market: matchedMarket ?? undefined });
        const name = f.data.property.name;
        return { token: c.token, rank: c.rank, verified: f.data.property.rate !== null, name, name_score: nameScore(input.name, name) };
      } catch (err) {
        if (!(err instanceof ApiError) || err.status >= 500) errors.push(err);
        // checked but unreadable: the candidate stays, unverified, without a name
        return { token: c.token, rank: c.rank, verified: false, name: null, name_score: nameScore(input.name, c.cardName) };
      }
    });
    // every check failing upstream is an upstream failure, not a verdict on the candidates
    if (candidates.length && errors.length === candidates.length) throw errors[0];
  }
  matches = rankMatches(matches);
  const matched = matches.some((m) => m.verified !== false && (m.name_score ?? 0) > 0);
  return {
    query,
    gl,
    requested_market: input.market ?? null,
    attempted_markets: attempted,
    matched_market: matchedMarket,
    market_fallback_used: matchedMarket !== null && matchedMarket !== markets[0],
    search_status: matched ? 'matched' : 'not_found',
    external_fallback_recommended: !matched,
    matches,
  };
}
