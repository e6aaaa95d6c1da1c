/**
 * `npm run examples`: gathers the calls a `RECORD_EXAMPLES=1 npx vitest run test/integration`
 * run left in test-artifacts/examples (real parsers on the recorded payloads of ../shared,
 * served by the replay server) into src/doors/rest/openapi-examples.json, the response and
 * request examples of /openapi.json. Lists are cut to their first items and long texts
 * shortened; nothing is filled in.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { RECORDED_EXAMPLES_FILE } from '../src/doors/rest/openapi-examples.js';
import { TOOLS } from '../tools/index.js';

const DIR = path.resolve('test-artifacts/examples');
const MAX_ITEMS = 2;
const MAX_TEXT = 280;

function shrink(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, MAX_ITEMS).map(shrink);
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shrink(v)]));
  return value;
}

const known = new Map(TOOLS.map((t) => [t.name, t]));
const out: Record<string, { input: unknown; output: unknown }> = {};
for (const file of readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort()) {
  const name = file.slice(0, -5);
  const tool = known.get(name);
  if (!tool) continue;
  const { input, output } = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as { input: unknown; output: unknown };
  // shortened where the schema allows it, whole where shortening would break it
  const small = shrink(output);
  out[name] = { input, output: tool.output.safeParse(small).success ? small : output };
}
writeFileSync(RECORDED_EXAMPLES_FILE, JSON.stringify(out, null, 1) + '\n');
console.log(`${Object.keys(out).length} of ${TOOLS.length} operations have a recorded example`);
