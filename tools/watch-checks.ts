import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { csvAnswer, wantsCsv } from '../src/core/csv-answer.js';
import { CHECKS_CSV_HEADER, checkCsvLine } from '../src/core/watches/checks-csv.js';
import { CheckSchema, checkResource } from '../src/core/watches/resource.js';
import { queryInt } from '../src/domain/query-params.js';
import { findWatch, recentChecks, watchTotals } from '../src/platform/watches.js';

/*
 * A watch's checks, page by page, as JSON or CSV: the export of what a watch saw over time (GET
 * /v1/watches/{watch_id} embeds only its latest checks). REST only, like the watches' other
 * reads beyond the MCP set; another account's watch is a 404.
 */

const listWatchChecks = defineTool({
  name: 'list_watch_checks',
  title: 'Checks of a watch',
  description:
    'The checks of a watch, newest first, page by page: when, the cheapest price seen with its provenance, what changed, whether the rule fired, parity (compare targets), the stored-rates run and the credits. JSON, or CSV with format=csv or Accept: text/csv (one line per check). Free; another account’s watch is a 404.',
  method: 'GET',
  path: '/v1/watches/{watch_id}/checks',
  tags: ['watches'],
  input: z.strictObject({
    watch_id: z.string().min(1).max(100).describe('The watch id returned by POST /v1/watches.'),
    limit: queryInt.pipe(z.int().min(1).max(1000)).default(100).describe('checks per page (1-1000)'),
    offset: queryInt.pipe(z.int().min(0).max(1_000_000)).default(0).describe('checks to skip'),
    format: z.enum(['json', 'csv']).optional().describe('csv: the page of checks as CSV (default: as Accept asks; JSON)'),
  }),
  output: z.object({
    watch_id: z.string(),
    total: z.int().describe('checks the watch has made'),
    checks: z.array(CheckSchema),
  }),
  csv: `one line per check, newest first: ${CHECKS_CSV_HEADER.join(', ')}`,
  credits: 0,
  errors: { 404: 'No watch of your account has that id.' },
  async handler({ watch_id, limit, offset, format }, { deps, key, headers }) {
    const watch = await findWatch(deps.sql, key.account_id, watch_id);
    const checks = (await recentChecks(deps.sql, watch.id, limit, offset)).map(checkResource);
    if (wantsCsv(format, headers)) {
      // sent as these bytes by the REST door (text/csv, a download)
      return csvAnswer(
        `${watch.id}-checks.csv`,
        CHECKS_CSV_HEADER,
        checks.map((c) => checkCsvLine(watch.id, c)),
      ) as never;
    }
    const totals = await watchTotals(deps.sql, [watch.id]);
    return { watch_id: watch.id, total: totals.get(watch.id)?.checks ?? 0, checks };
  },
});

export const WATCH_CHECK_TOOLS: Tool[] = [listWatchChecks];
