import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Tool } from '../../src/core/define-tool.js';

/** Where RECORD_EXAMPLES=1 test runs leave one real call per operation; `npm run examples` collects them. */
const EXAMPLES_DIR = path.resolve('test-artifacts/examples');

/**
 * With RECORD_EXAMPLES=1, each tool's first successful, non-empty call in the suite (real
 * parsers on recorded payloads, served by the replay server) is written with its input, so
 * that the reference shows what the operation really answers. Otherwise the tools as they are.
 */
export function recordingExamples(tools: Tool[]): Tool[] {
  if (process.env.RECORD_EXAMPLES !== '1') return tools;
  mkdirSync(EXAMPLES_DIR, { recursive: true });
  return tools.map((tool) => ({
    ...tool,
    async handler(input: unknown, ctx) {
      const output = await tool.handler(input, ctx);
      const file = path.join(EXAMPLES_DIR, `${tool.name}.json`);
      const empty = tool.metered && tool.credits.actual(input, output) === 0;
      if (!empty && !existsSync(file)) writeFileSync(file, JSON.stringify({ input, output }, null, 2));
      return output;
    },
  }));
}
