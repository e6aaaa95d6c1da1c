/**
 * What an agent pays in tokens for the MCP surface: the size of `tools/list` (per tool: description,
 * input schema, output schema) and, per tool, the largest result over the recorded payloads (every
 * recorded hotel result page, every recorded flight result page) with the default arguments and at
 * the tool's maximum settings (TOOL_CALLS `max`), counted in o200k tokens with a real tokenizer
 * (js-tiktoken): the structured result, and the text block a client may forward beside it.
 * Budgets: tools/list ≤ 48 KB, a default result ≤ 8,000 tokens, a maximum one ≤ 25,000.
 *
 *   npx tsx bench/mcp-payloads.ts      (DATABASE_URL or an embedded PostgreSQL)
 */
import fs from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { fixturePath } from '../test/helpers/fixtures.js';
import { countTokens } from '../test/helpers/tokens.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS, type PagesInPlay } from '../test/helpers/mcp-tool-calls.js';
import { startBenchService } from './harness.js';

const LIST_BUDGET = 48 * 1024;
const DEFAULT_BUDGET = 8_000;
const MAX_BUDGET = 25_000;
const HOTEL_PAGES = ['london-long-stay', 'paris-budget', 'tokyo-5star', 'tokyo-standard'].map((n) => `google-hotels/travel-search-${n}.html`);
const FLIGHT_PAGES = ['nonstop-sfo_jfk_economy', 'layover-mad_nrt', 'domestic_business-lax_ord', 'overnight_1day-sfo_lhr_economy'].map(
  (n) => `google-flights/results-${n}.html.zst`,
);

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

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

  // per tool and setting, the largest result over the recorded pages it can be answered from
  type Largest = { tokens: number; text: number; payload: string };
  const largest = { default: new Map<string, Largest>(), max: new Map<string, Largest>() };
  const variants: { label: string; set: () => void }[] = [
    { label: 'default pages', set: () => Object.assign(pages, { hotels: HOTEL_PAGES[0], flights: null }) },
    ...HOTEL_PAGES.filter((p) => fs.existsSync(fixturePath(p))).map((p) => ({ label: p, set: () => Object.assign(pages, { hotels: p, flights: null }) })),
    ...FLIGHT_PAGES.filter((p) => fs.existsSync(fixturePath(p))).map((p) => ({
      label: p,
      set: () => Object.assign(pages, { hotels: HOTEL_PAGES[0], flights: p }),
    })),
  ];
  for (const variant of variants) {
    variant.set();
    for (const setting of ['default', 'max'] as const) {
      const earlier: Record<string, unknown> = {};
      for (const call of TOOL_CALLS) {
        let args: Record<string, unknown>;
        try {
          args = callArguments(call, earlier, replay, setting === 'max');
        } catch {
          continue; // an earlier call of this variant gave no token to follow
        }
        const res = await client.callTool({ name: call.name, arguments: args });
        if (res.isError) continue;
        earlier[call.name] = res.structuredContent;
        const n = countTokens(res.structuredContent);
        const text = (res.content as { type: string; text?: string }[]).reduce((t, c) => t + (c.type === 'text' ? countTokens(c.text ?? '') : 0), 0);
        if (n > (largest[setting].get(call.name)?.tokens ?? -1)) largest[setting].set(call.name, { tokens: n, text, payload: variant.label });
      }
    }
  }
  const resultRows = TOOL_CALLS.map((c) => {
    const d = largest.default.get(c.name);
    const m = largest.max.get(c.name);
    const cell = (l: Largest | undefined, budget: number) => (l ? `${l.tokens}${l.tokens <= budget ? '' : ' **over**'} | ${l.text}` : '— | —');
    return `| ${c.name} | ${cell(d, DEFAULT_BUDGET)} | ${cell(m, MAX_BUDGET)} | ${d?.payload ?? 'no successful call'} |`;
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
      `Largest result per tool, o200k tokens (js-tiktoken) of the structured result and of the text block; budgets: default ≤ ${DEFAULT_BUDGET}, maximum settings ≤ ${MAX_BUDGET}:`,
      '',
      '| tool | default | default text | maximum | maximum text | recorded payload (largest default) |',
      '|---|---|---|---|---|---|',
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
