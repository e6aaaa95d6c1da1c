import { z } from 'zod';
import { isAlias } from '../src/config/hosts.js';
import { UPSTREAM_MODES } from '../src/config/upstream-modes.js';
import { OUTCOMES } from '../src/ops/metrics.js';
import { OK_SHARE, STATUS_WINDOW_S, readSourcesStatus } from '../src/ops/outcome-store.js';
import { readSourceClearances, readSourcePaths } from '../src/ops/source-paths.js';
import { defineTool } from '../src/core/define-tool.js';

const isoTime = z.string().nullable();
const count = z.int().nonnegative();

export const sourcesStatus = defineTool({
  name: 'get_sources_status',
  title: 'Source health',
  description:
    `The state of every upstream source from the outcomes of its requests in the last hour, across all API and worker processes: ` +
    `unknown (no request), failing (none succeeded), ok (at least ${OK_SHARE * 100}% succeeded and no reply broke its expected structure) or degraded; ` +
    'with the time of its last success and of its last contract change (a reply whose structure changed), how it is reached (mode: http, browser or auto) ' +
    'and the anti-bot clearance it holds (its wall and age). Admin keys also see the counts per outcome and per path (browser visits per 100 calls, ' +
    'plain calls answered on a kept clearance, re-clears, identifier repairs, drift verdicts). Free.',
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
        mode: z.enum(UPSTREAM_MODES).nullable().describe('how the source is reached (UPSTREAM_<ALIAS>_MODE); null: the website fetcher (careers)'),
        clearance: z
          .object({
            wall: z.string(),
            obtained_at: z.string(),
            age_s: count,
            expires_at: z.string(),
            state: z.enum(['held', 'refused', 'expired']),
            reclearing: z.boolean(),
          })
          .nullable()
          .describe('the anonymous anti-bot clearance plain requests send (no cookie values); null: none held'),
        counts: z.record(z.enum(OUTCOMES), z.int()).optional(),
        paths: z
          .object({
            calls: count,
            browser_visits: count,
            browser_visits_per_100_calls: z.number().nullable(),
            plain_on_clearance: count,
            reclears: count,
            identifier_repairs: count,
            drift_verdicts: count,
          })
          .optional(),
      }),
    ),
  }),
  credits: 0,
  async handler(_input, { deps, key }) {
    // this process's latest outcomes first, so a caller sees the requests it just made
    await deps.ops.outcomes.flush();
    const statuses = await readSourcesStatus(deps.sql);
    const sources = statuses.map((s) => s.source);
    const [paths, clearances] = await Promise.all([readSourcePaths(deps.sql, sources), readSourceClearances(deps.sql)]);
    const admin = key.role === 'admin';
    return {
      window_s: STATUS_WINDOW_S,
      generated_at: new Date().toISOString(),
      sources: statuses.map(({ counts, ...s }) => ({
        ...s,
        mode: isAlias(s.source) ? deps.config.upstreamModes[s.source] : null,
        clearance: clearances.get(s.source) ?? null,
        ...(admin ? { counts, paths: paths.get(s.source) } : {}),
      })),
    };
  },
});
