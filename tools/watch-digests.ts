import { z } from 'zod';
import { defineTool, type Tool } from '../src/core/define-tool.js';
import { queryInt } from '../src/domain/query-params.js';
import { redeliverDigest } from '../src/core/watches/redeliver.js';
import { EventSchema, eventResource } from '../src/core/watches/resource.js';
import { listDigests } from '../src/platform/watch-events.js';

/*
 * The account's daily watch digests (watch.digest): REST only, like the watches. Another account's
 * digest is a 404.
 */

const DIGEST_DOC =
  'data: period (from, to), summary (watches, active, checks, credits, fired, moved, disparities, failing, paused) and per watch: its checks and credits that day, cheapest_first and cheapest_last (with provenance) and how much it moved, the events (rule fired, paused, failing, resumed), the disparity its last compare check saw, its failures (periods missed in a row, last error).';

const listDigestsTool = defineTool({
  name: 'list_watch_digests',
  title: 'Daily digests of your watches',
  description: `The daily watch.digest events of your account, newest first: one per day and callback URL of your watches (delivered there like watch.triggered; listed here either way). ${DIGEST_DOC} Free.`,
  method: 'GET',
  path: '/v1/digests',
  tags: ['watches'],
  input: z.strictObject({
    limit: queryInt.pipe(z.int().min(1).max(200)).default(30).describe('digests per page (1-200)'),
    offset: queryInt.pipe(z.int().min(0).max(100_000)).default(0).describe('digests to skip'),
  }),
  output: z.object({ digests: z.array(EventSchema) }),
  credits: 0,
  async handler({ limit, offset }, { deps, key }) {
    return { digests: (await listDigests(deps.sql, key.account_id, limit, offset)).map(eventResource) };
  },
});

const redeliverDigestTool = defineTool({
  name: 'redeliver_watch_digest',
  title: 'Deliver a digest again',
  description:
    'Sends one of your digests again to the callback URL it was made for, signed as before with the same webhook-id, with a fresh round of the retry schedule. Free.',
  method: 'POST',
  path: '/v1/digests/{event_id}/redeliver',
  tags: ['watches'],
  status: 202,
  input: z.strictObject({ event_id: z.string().min(1).max(100).describe('the digest’s event id (its webhook-id)') }),
  output: EventSchema,
  credits: 0,
  errors: {
    404: 'Your account has no digest with that id.',
    409: 'The digest has no callback URL, or a delivery of it is still under way.',
    503: 'Webhooks are not enabled on this service, or the queue is down.',
  },
  async handler({ event_id }, { deps, key }) {
    return eventResource(await redeliverDigest(deps, key.account_id, event_id));
  },
});

export const DIGEST_TOOLS: Tool[] = [listDigestsTool, redeliverDigestTool];
