/**
 * A client that passes its model only the text block (issue 38): the AI SDK as it runs by default
 * (its MCP client's tools, each answer turned into model input by the SDK's own toModelOutput, which
 * keeps the content and drops structuredContent). Twelve agent questions over the replay, each
 * answered by a structured client from structuredContent: the facts asked for are in the text the
 * model receives, 12 of 12, and the tool descriptions it receives state each tool's cost and map
 * "Booking" to its alias. The table is written to test-artifacts/text-only/questions.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createMCPClient } from '@ai-sdk/mcp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSuite } from '../../helpers/fixtures.js';
import { callArguments, replayEnv, startToolCallReplay, TOOL_CALL_FIXTURES, TOOL_CALLS } from '../../helpers/mcp-tool-calls.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import type { ReplayServer } from '../../replay/server.js';

type Answer = any;

interface AiTool {
  description?: string;
  execute(args: unknown, options: { toolCallId: string; messages: [] }): Promise<{ structuredContent?: Answer; isError?: boolean }>;
  toModelOutput(options: { toolCallId: string; input: unknown; output: unknown }): Promise<{ type: string; value: { type: string; text?: string }[] }>;
}

/** A question, the tool that answers it, and the facts (read from structuredContent) its answer must state. */
interface Question {
  ask: string;
  tool: string;
  facts(structured: Answer): string[];
}

/** A price as the text writes it (JSON numbers). */
const n = (v: number) => String(v);

const QUESTIONS: Question[] = [
  {
    ask: 'Which hotels are there in London for 15–22 April, and at what price? (all of them)',
    tool: 'search_hotels',
    facts: (s) => s.properties.flatMap((p: Answer) => [p.name, p.property_token, ...(p.price ? [n(p.price.total)] : [])]),
  },
  {
    ask: 'Which of them are 4-star under 300 GBP? (each hotel with its stars and total on its line)',
    tool: 'search_hotels',
    facts: (s) =>
      s.properties
        .map((p: Answer) => `"name":${JSON.stringify(p.name)},"property_token":"${p.property_token}","stars":${p.stars ?? null}`)
        .filter((f: string) => !f.endsWith('null')),
  },
  {
    ask: 'Is Booking cheaper than the other sellers for this stay?',
    tool: 'get_hotel_rooms',
    facts: (s) => s.sellers.flatMap((x: Answer) => [x.raw_source, ...x.rooms.map((r: Answer) => n(r.price_total))]),
  },
  {
    ask: 'Which are the cheapest March nights at this hotel?',
    tool: 'get_hotel_calendar',
    facts: (s) => s.cheapest.flatMap((c: Answer) => [c.date, n(c.rate_total)]),
  },
  {
    ask: 'Which site is cheapest for this stay, Hotels.com or Vrbo?',
    tool: 'compare_hotel_prices',
    facts: (s) => [...s.offers.map((o: Answer) => `${o.source} (${o.source === 'otathree' ? 'Hotels.com' : 'Vrbo'}) ${n(o.total)}`), s.parity.status],
  },
  {
    ask: 'What are the round trips SFO → JFK, their prices and how do I pick the return?',
    tool: 'search_flights',
    facts: (s) => s.flights.flatMap((f: Answer) => [n(f.price), f.departure_token]),
  },
  {
    ask: 'Which return flights are there for the best outbound, and how do I see where to book?',
    tool: 'get_return_flights',
    facts: (s) => s.flights.flatMap((f: Answer) => [n(f.price), f.booking_token]),
  },
  {
    ask: 'Give me a link I can open to book, and the whole price of each option',
    tool: 'get_booking_options',
    facts: (s) => s.options.flatMap((o: Answer) => [`total ${n(o.total)}`, ...o.tickets.map((t: Answer) => t.booking_link.url)]),
  },
  {
    ask: 'Which airports serve London?',
    tool: 'search_flight_locations',
    facts: (s) => s.locations.flatMap((l: Answer) => l.airports.map((a: Answer) => a.code)),
  },
  {
    ask: 'Which departure date is cheapest?',
    tool: 'get_flight_calendar',
    facts: (s) => s.calendar.flatMap((c: Answer) => [c.departure, n(c.price)]),
  },
  {
    ask: 'Which rentals are there in Lyon, at what price, and with which id do I check their calendar?',
    tool: 'search_rentals',
    facts: (s) => s.properties.flatMap((p: Answer) => [p.id, p.title, ...(p.price ? [n(p.price.extracted_total_price)] : [])]),
  },
  {
    ask: 'What does this Vrbo listing cost for 10 nights?',
    tool: 'get_rental_quote',
    facts: (s) => [n(s.property.total), n(s.property.price_per_night), s.property.currency],
  },
];

const ARTIFACTS = path.resolve('test-artifacts/text-only');

const suite = fixtureSuite('a client that reads only the text block', ...TOOL_CALL_FIXTURES);
describe(suite.title, () => {
  let replay: ReplayServer;
  let svc: TestService;
  let tools: Record<string, AiTool>;
  let close: () => Promise<void>;
  /** Per tool: the structured answer and the text its model receives. */
  const answers = new Map<string, { structured: Answer; text: string }>();

  beforeAll(async () => {
    replay = await startToolCallReplay();
    svc = await startTestService(replayEnv(replay));
    const key = (await svc.key({ plan: 'scale' })).key;
    const ai = await createMCPClient({ transport: { type: 'http', url: `${svc.url}/mcp`, headers: { 'x-api-key': key } } });
    close = () => ai.close();
    tools = (await ai.tools()) as unknown as Record<string, AiTool>;
    const earlier: Record<string, unknown> = {};
    for (const call of TOOL_CALLS) {
      const t = tools[call.name];
      const output = await t.execute(callArguments(call, earlier, replay), { toolCallId: call.name, messages: [] });
      earlier[call.name] = output.structuredContent;
      const model = await t.toModelOutput({ toolCallId: call.name, input: {}, output });
      // the AI SDK's default: content parts only, structuredContent is not passed on
      expect(model.type).toBe('content');
      answers.set(call.name, { structured: output.structuredContent, text: model.value.map((p) => p.text ?? '').join('\n') });
    }
  });
  afterAll(async () => {
    await close?.();
    await svc?.close();
    await replay?.close();
  });

  it('answers 12 of 12 agent questions from the text alone: every fact a structured client reads is in the text', () => {
    const table = QUESTIONS.map((q) => {
      const { structured, text } = answers.get(q.tool)!;
      const facts = q.facts(structured);
      const missing = facts.filter((f) => !text.includes(f));
      return { question: q.ask, tool: q.tool, facts: facts.length, missing };
    });
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'questions.json'), `${JSON.stringify(table, null, 1)}\n`);
    for (const row of table) expect(row.facts, row.question).toBeGreaterThan(0);
    expect(table.filter((r) => r.missing.length)).toEqual([]);
    expect(table).toHaveLength(12);
  });

  it('the descriptions the model receives state each cost and map real sites to aliases', () => {
    for (const [name, t] of Object.entries(tools)) expect(t.description, name).toMatch(/credit|free/i);
    expect(tools.compare_hotel_prices.description).toMatch(/otaone = Booking\.com/);
    expect(tools.get_hotel_calendar.description).toMatch(/night/);
  });
});
