import { z } from 'zod';
import { OUTCOMES } from '../src/ops/metrics.js';
import { OK_SHARE, STATUS_WINDOW_S, readSourcesStatus } from '../src/ops/outcome-store.js';
import { defineTool } from '../src/core/define-tool.js';

const isoTime = z.string().nullable();

export const sourcesStatus = defineTool({
  name: 'get_sources_status',
  title: 'Source health',
  description:
    `The state of every upstream source from the outcomes of its requests in the last hour, across all API and worker processes: ` +
    `unknown (no request), failing (none succeeded), ok (at least ${OK_SHARE * 100}% succeeded and no reply broke its expected structure) or degraded; ` +
    'with the time of its last success and of its last contract change (a reply whose structure changed). Admin keys also see the counts per outcome. Free.',
  method: 'GET',
  path: '/v1/sources/status',
  tags: ['sources'],
  input: z.strictObject({}),
  output: z.object({
    window_s: z.int(),
    generated_at: z.string(),
    sources: z.array(
      z.object({
        source: z.string(),
        state: z.enum(['ok', 'degraded', 'failing', 'unknown']),
        last_success_at: isoTime,
        last_contract_change_at: isoTime,
        counts: z.record(z.enum(OUTCOMES), z.int()).optional(),
      }),
    ),
  }),
  credits: 0,
  async handler(_input, { deps, key }) {
    // this process's latest outcomes first, so a caller sees the requests it just made
    await deps.ops.outcomes.flush();
    const statuses = await readSourcesStatus(deps.sql);
    const admin = key.role === 'admin';
    return {
      window_s: STATUS_WINDOW_S,
      generated_at: new Date().toISOString(),
      sources: statuses.map(({ counts, ...s }) => (admin ? { ...s, counts } : s)),
    };
  },
});
