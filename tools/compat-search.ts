import { z } from 'zod';
import type { CreditRule, Tool } from '../src/registry/define-tool.js';
import { defineTool } from '../src/registry/define-tool.js';
import { parseInput } from '../src/registry/validation.js';

/**
 * `GET /api/v1/search?engine=…`: the compatible search API's single entry point. Each engine
 * is the `/v1/serp/<engine>` operation of the same name; this route only picks it by `engine`
 * and validates the rest of the query against that operation's own input schema, so both
 * routes behave and cost exactly alike.
 */
export function compatSearch(engines: Record<string, Tool>, defaultEngine: string) {
  const names = Object.keys(engines) as [string, ...string[]];
  const parsed = new WeakMap<object, { tool: Tool; input: unknown }>();
  const resolve = (outer: Record<string, unknown>) => {
    let hit = parsed.get(outer);
    if (!hit) {
      const { engine, zero_retention: _zr, ...rest } = outer as { engine: string; zero_retention?: unknown };
      const tool = engines[engine];
      const shape = (tool.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
      const raw = 'engine' in shape ? { ...rest, engine } : rest;
      hit = { tool, input: parseInput(tool.input, raw, () => 'query') };
      parsed.set(outer, hit);
    }
    return hit;
  };
  const credits: CreditRule<Record<string, unknown>, unknown> = {
    base: Math.max(...Object.values(engines).map((t) => t.credits.base)),
    note: `as the chosen engine: ${Object.entries(engines).map(([n, t]) => `${n} ${t.credits.base}`).join(', ')}`,
    max: (input) => {
      const { tool, input: inner } = resolve(input);
      return tool.credits.max(inner);
    },
    actual: (input, output) => {
      const { tool, input: inner } = resolve(input);
      return tool.credits.actual(inner, output);
    },
  };
  return defineTool({
    name: 'compatible_search',
    title: 'Compatible search endpoint',
    description: `Drop-in for the third-party search-results API: keep its query parameters and pick the engine with engine= (${names.join(', ')}; default ${defaultEngine}). The key may be sent as api_key in the query or as a Bearer token. Each engine answers and costs exactly as its POST /v1/serp/<engine> route.`,
    method: 'GET',
    path: '/api/v1/search',
    tags: ['compatible search'],
    queryKey: true,
    compatErrors: true,
    engines,
    input: z.looseObject({
      engine: z.enum(names).default(defaultEngine).describe('Which engine answers; each is the POST /v1/serp/<engine> operation of that name.'),
      zero_retention: z.enum(['true', 'false']).optional().describe('accepted for compatibility; raw pages and results are never persisted'),
    }),
    output: z.looseObject({ search_metadata: z.looseObject({ id: z.string() }) }),
    credits,
    async handler(input, ctx) {
      const { tool, input: inner } = resolve(input);
      return (await tool.handler(inner, ctx)) as { search_metadata: { id: string } };
    },
  });
}
