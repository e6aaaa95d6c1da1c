/**
 * What an agent pays in tokens for the MCP surface: the size of `tools/list` (per tool: description,
 * input schema, output schema) and, per tool, the largest default result over the recorded payloads
 * (every recorded hotel result page, every recorded flight result page), counted as JSON characters
 * of the structured result ÷ 4. Budgets: tools/list ≤ 48 KB, a default result < 25,000 tokens.
 *
 *   npx tsx bench/mcp-payloads.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import fs from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixturePath } from '../test/helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS, type PagesInPlay } from '../test/helpers/mcp-tool-calls.js';
import { startBenchService } from './harness.js';

const LIST_BUDGET = 48 * 1024;
const RESULT_BUDGET = 25_000;
const HOTEL_PAGES = ['london-long-stay', 'paris-budget', 'tokyo-5star', 'tokyo-standard'].map((n) => `google-hotels/travel-search-${n}.html`);
const FLIGHT_PAGES = ['nonstop-sfo_jfk_economy', 'layover-mad_nrt', 'domestic_business-lax_ord', 'overnight_1day-sfo_lhr_economy'].map((n) => `google-flights/results-${n}.html.zst`);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const tokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);

async function main() {
  const missing = TOOL_CALL_FIXTURES.filter((f) => !fs.existsSync(fixturePath(f)));
  if (missing.length) {
    console.log(`mcp-payloads: SKIPPED, fixtures absent: ${missing.join(', ')}`);
    return;
  }
  const pages: PagesInPlay = { hotels: HOTEL_PAGES[0], flights: null };
  const replay = await startToolCallReplay(pages);
  const bench = await startBenchService({ ...replayEnv(replay), RUN_WORKER: 'false' });
  const client = new Client({ name: 'bench', version: '1.0.0' }, { versionNegotiation: { mode: 'auto' } });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${bench.service.url}/mcp`), { requestInit: { headers: { 'x-api-key': bench.key } } }));

  const { tools } = await client.listTools();
  const listBytes = Buffer.byteLength(JSON.stringify({ tools }));
  const listRows = tools.map((t) => {
    const [d, i, o] = [t.description ?? '', t.inputSchema, t.outputSchema].map((x) => Buffer.byteLength(typeof x === 'string' ? x : JSON.stringify(x)));
    return `| ${t.name} | ${d} | ${i} | ${o} | ${Buffer.byteLength(JSON.stringify(t))} |`;
  });

  // per tool, the largest default result over the recorded pages it can be answered from
  const largest = new Map<string, { tokens: number; payload: string }>();
  const variants: { label: string; set: () => void }[] = [
    { label: 'default pages', set: () => Object.assign(pages, { hotels: HOTEL_PAGES[0], flights: null }) },
    ...HOTEL_PAGES.filter((p) => fs.existsSync(fixturePath(p))).map((p) => ({ label: p, set: () => Object.assign(pages, { hotels: p, flights: null }) })),
    ...FLIGHT_PAGES.filter((p) => fs.existsSync(fixturePath(p))).map((p) => ({ label: p, set: () => Object.assign(pages, { hotels: HOTEL_PAGES[0], flights: p }) })),
  ];
  for (const variant of variants) {
    variant.set();
    const earlier: Record<string, unknown> = {};
    for (const call of TOOL_CALLS) {
      let args: Record<string, unknown>;
      try {
        args = callArguments(call, earlier, replay);
      } catch {
        continue; // an earlier call of this variant gave no token to follow
      }
      const res = await client.callTool({ name: call.name, arguments: args });
      if (res.isError) continue;
      earlier[call.name] = res.structuredContent;
      const n = tokens(res.structuredContent);
      if (n > (largest.get(call.name)?.tokens ?? -1)) largest.set(call.name, { tokens: n, payload: variant.label });
    }
  }
  const resultRows = TOOL_CALLS.map((c) => {
    const l = largest.get(c.name);
    return l ? `| ${c.name} | ${l.tokens} | ${l.payload} | ${l.tokens < RESULT_BUDGET ? 'yes' : '**no**'} |` : `| ${c.name} | — | no successful call | |`;
  });

  console.log(
    [
      `## MCP payload sizes (${new Date().toISOString().slice(0, 10)})`,
      '',
      `tools/list: ${listBytes} bytes (${kb(listBytes)}; budget ${kb(LIST_BUDGET)}: ${listBytes <= LIST_BUDGET ? 'met' : '**not met**'}), ${tools.length} tools, every one with an output schema: ${tools.every((t) => t.outputSchema) ? 'yes' : '**no**'}`,
      '',
      '| tool | description bytes | input schema bytes | output schema bytes | listing entry bytes |',
      '|---|---|---|---|---|',
      ...listRows,
      '',
      `Largest default result per tool (structured result, JSON characters ÷ 4; budget < ${RESULT_BUDGET} tokens):`,
      '',
      '| tool | tokens | recorded payload | under budget |',
      '|---|---|---|---|',
      ...resultRows,
    ].join('\n'),
  );
  await client.close();
  await bench.close();
  await replay.close();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
