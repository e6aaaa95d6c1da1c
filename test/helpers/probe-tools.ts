import { z } from 'zod';
import { UpstreamFailed } from '../../src/domain/errors.js';
import { defineTool } from '../../src/core/define-tool.js';

/**
 * Operations that exist only in platform tests: they run through the real registry,
 * pipeline, database and HTTP, with a handler whose outcome the test chooses.
 */
export const probeMetered = defineTool({
  name: 'probe_metered',
  title: 'Probe (metered)',
  description: 'Test-only metered operation.',
  method: 'POST',
  path: '/v1/test/metered',
  tags: ['test'],
  input: z.strictObject({
    items: z.int().min(0).max(10).default(1),
    fail: z.boolean().default(false),
    delay_ms: z.int().min(0).max(5000).default(0),
  }),
  output: z.object({ items: z.array(z.int()) }),
  credits: { base: 3, note: 'plus 1 per item', max: (i) => 3 + i.items, actual: (i, o) => (o.items.length ? 3 + i.items : 0) },
  mcp: { expose: true },
  async handler(input) {
    if (input.delay_ms) await new Promise((r) => setTimeout(r, input.delay_ms));
    if (input.fail) throw new UpstreamFailed('ProbeFailure');
    return { items: Array.from({ length: input.items }, (_, i) => i) };
  },
});

const probeQueryKey = defineTool({
  name: 'probe_query_key',
  title: 'Probe (GET with api_key in the query)',
  description: 'Test-only compatible-family GET route.',
  method: 'GET',
  path: '/api/v1/test-search',
  tags: ['test'],
  input: z.strictObject({ q: z.string().min(1) }),
  output: z.object({ q: z.string() }),
  credits: 0,
  queryKey: true,
  async handler({ q }) {
    return { q };
  },
});

const probeFault = defineTool({
  name: 'probe_fault',
  title: 'Probe (server fault)',
  description: 'Test-only operation whose handler has a bug.',
  method: 'POST',
  path: '/v1/test/fault',
  tags: ['test'],
  input: z.strictObject({}),
  output: z.object({}),
  credits: 1,
  async handler() {
    throw new TypeError('boom');
  },
});

export const PROBES = [probeMetered, probeQueryKey, probeFault];
