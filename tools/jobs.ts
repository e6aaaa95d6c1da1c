import { z } from 'zod';
import { CalendarRequest, normalizeCalendarRequest } from '../src/domain/calendar-request.js';
import { readJobArtifact } from '../src/jobs/artifacts.js';
import { createCalendarJob, readCalendarJob } from '../src/jobs/calendar-jobs.js';
import { expiryBounds } from '../src/jobs/run-expiry.js';
import { checkCallbackUrl } from '../src/upstream/callback-url.js';
import { InvalidInput, NotConfigured, NotFound } from '../src/domain/errors.js';
import { RawBody } from '../src/core/raw-body.js';
import { defineTool } from '../src/core/define-tool.js';
import { queryBool } from '../src/domain/query-params.js';

const ts = z.string();
const JobItem = z.object({
  id: z.string(),
  item_index: z.int(),
  token: z.string(),
  label: z.string().nullable(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed']),
  request: z.record(z.string(), z.unknown()),
  result: z.record(z.string(), z.unknown()).nullable(),
  error: z.string().nullable(),
  attempts: z.int(),
  started_at: ts.nullable(),
  finished_at: ts.nullable(),
  updated_at: ts,
});
const Job = z.object({
  id: z.string(),
  job_id: z.string(),
  poll_url: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'partial', 'failed']),
  priority: z.int(),
  callback_url: z.string().nullable(),
  callback_status: z.enum(['not_configured', 'pending', 'delivered', 'failed']),
  callback_attempts: z.int(),
  callback_last_error: z.string().nullable(),
  artifact_uri: z
    .string()
    .nullable()
    .describe(
      'Where the finished job’s archive is served: GET /v1/jobs/{job_id}/artifact (absolute with the service’s PUBLIC_BASE_URL); null until the job finishes.',
    ),
  artifact_sha256: z.string().nullable().describe('SHA-256 (hex) of the archive’s bytes as served (the gzip file).'),
  result_summary: z.record(z.string(), z.unknown()),
  error: z.string().nullable(),
  items_total: z.int(),
  items_succeeded: z.int(),
  items_failed: z.int(),
  created_at: ts,
  updated_at: ts,
  started_at: ts.nullable(),
  finished_at: ts.nullable(),
  items: z.array(JobItem),
});

function idempotencyKey(headers: Record<string, string | undefined>): string {
  const value = headers['idempotency-key'];
  if (value === undefined) throw new InvalidInput([{ type: 'missing', loc: ['header', 'idempotency-key'], msg: 'Field required', input: null }]);
  if (value.length < 1 || value.length > 200) {
    throw new InvalidInput([{ type: 'string_too_long', loc: ['header', 'idempotency-key'], msg: 'Idempotency-Key must be 1-200 characters', input: value }]);
  }
  return value;
}

export const createJob = defineTool({
  name: 'create_calendar_job',
  title: 'Create a calendar batch',
  description:
    'Prices up to 50 property calendars asynchronously and durably. Requires an Idempotency-Key header (same key and body return the original job; another body is a 409). Answers 202 with the job; poll GET /v1/jobs/{job_id}. Submission is free; each succeeded item is charged like POST /v1/calendar.',
  method: 'POST',
  path: '/v1/jobs',
  tags: ['jobs'],
  status: 202,
  input: z.strictObject({
    items: z.array(CalendarRequest).min(1).max(50).describe('The calendars to price (1-50), each as the body of POST /v1/calendar.'),
    priority: z.int().min(0).max(9).default(5).describe('0-9, higher first; equal priorities in submission order.'),
    callback_url: z
      .string()
      .max(2048)
      .nullable()
      .optional()
      .describe('HTTPS URL to receive the signed job.completed webhook (Standard Webhooks) when the batch ends.'),
  }),
  output: Job,
  credits: 0,
  headers: {
    'Idempotency-Key': {
      description:
        'Your unique key for this submission (1-200 characters): the same key with the same body returns the original job; with another body it is a 409.',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  errors: {
    409: 'The Idempotency-Key was already used with a different body.',
    503: 'callback_url was given but webhooks are not enabled on this service, or the queue is down.',
  },
  async handler(input, { deps, key, headers }) {
    const idem = idempotencyKey(headers);
    const callbackUrl = input.callback_url ?? null;
    if (callbackUrl) {
      if (!deps.config.WEBHOOK_SIGNING_SECRET) throw new NotConfigured('webhook delivery is not enabled for this service');
      await checkCallbackUrl(callbackUrl, deps.config.SAFE_FETCH_ALLOW_PRIVATE);
    }
    const base = deps.config.PUBLIC_BASE_URL ?? null;
    // The answer is the job as its transaction commits it (queued): read after the commit, a worker
    // polling meanwhile could already have started an item. A replayed submission reads it as it is now.
    let committed: Awaited<ReturnType<typeof readCalendarJob>> | null = null;
    const { id } = await createCalendarJob(deps.sql, deps.queue.boss(), {
      key,
      idempotencyKey: idem,
      body: input,
      items: input.items.map((item) => normalizeCalendarRequest(item)),
      priority: input.priority,
      callbackUrl,
      expiry: expiryBounds(deps.config),
      withJob: async (tx, jobId) => {
        committed = await readCalendarJob(tx, key.account_id, jobId, false, base);
      },
    });
    const job = committed ?? (await readCalendarJob(deps.sql, key.account_id, id, false, base));
    deps.queue.wake();
    return job;
  },
});

export const getJob = defineTool({
  name: 'get_calendar_job',
  title: 'Calendar batch status',
  description:
    'A calendar batch with progress per item; include_results=true adds each succeeded item’s full calendar result. Free. A job of another account is a 404.',
  method: 'GET',
  path: '/v1/jobs/{job_id}',
  tags: ['jobs'],
  input: z.strictObject({
    job_id: z.string().min(1).max(100).describe('The batch id returned by POST /v1/jobs.'),
    include_results: queryBool.default(false).describe('Add each succeeded item’s full calendar result.'),
  }),
  output: Job,
  credits: 0,
  errors: { 404: 'No batch of this key has that id (another key’s batch is a 404 too).' },
  async handler({ job_id, include_results }, { deps, key }) {
    return readCalendarJob(deps.sql, key.account_id, job_id, include_results, deps.config.PUBLIC_BASE_URL ?? null);
  },
});

export const getJobArtifact = defineTool({
  name: 'get_calendar_job_artifact',
  title: 'Calendar batch archive',
  description:
    'The finished batch’s archive (artifact_uri): one gzip-compressed JSON file, {job_id, status, result_summary, items} with each item’s request and full calendar result, as a download (application/gzip, `<job_id>.json.gz`); its SHA-256 is the job’s artifact_sha256. Any API process serves it, whichever worker finished the job. Free. A job of another account, or one not finished yet, is a 404.',
  method: 'GET',
  path: '/v1/jobs/{job_id}/artifact',
  tags: ['jobs'],
  input: z.strictObject({ job_id: z.string().min(1).max(100).describe('The batch id returned by POST /v1/jobs.') }),
  output: z.string().describe('the gzip file'),
  credits: 0,
  errors: {
    404: 'No finished batch of this key has that id (another key’s batch is a 404 too; so is a job finished before archives were kept in the database).',
  },
  async handler({ job_id }, { deps, key }) {
    const artifact = await readJobArtifact(deps.sql, key.account_id, job_id);
    if (!artifact) throw new NotFound('no archive for this job: unknown, of another account, or not finished yet');
    // sent as these bytes by the REST door, as a download (inertHeaders)
    return new RawBody('application/gzip', artifact.bytes, `${job_id}.json.gz`) as unknown as string;
  },
});
