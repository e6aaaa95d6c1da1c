import http from 'node:http';
import fc from 'fast-check';
import { ALIASES, hostEnvName } from '../../../src/config/hosts.js';
import { changePassword, createDashboardAccount } from '../../../src/doors/dashboard/accounts.js';
import { createKey } from '../../../src/platform/keys.js';
import { FormBrowser } from '../../helpers/form-browser.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import type { DashboardSession } from './form-requests.js';
import { startChaosUpstream } from './chaos-upstream.js';
import { edgeProblems } from './edge-rules.js';
import { fuzzRequests, type FuzzRequest } from './requests.js';

export interface FuzzOptions {
  runs: number;
  seed: number;
  concurrency?: number;
}

interface FuzzReply {
  req: FuzzRequest;
  status: number;
  /** MCP tool result status (`_meta.status` of an isError result, 200 otherwise), JSON-RPC error code, or null. */
  mcpStatus: number | null;
  requestId: string | null;
  bytes: number;
  text: string;
  ms: number;
  /** Upstream requests made while this one ran (exact only when requests run one at a time). */
  upstream: number;
  headers: http.IncomingHttpHeaders;
  /** Sent with `Connection: close`: whether the server closed the socket after its reply. */
  closed: boolean | null;
}

export interface FuzzOutcome {
  seed: number;
  replies: FuzzReply[];
  byStatus: Record<string, number>;
  /** Replies that break a rule: 5xx other than 502/503/504, internal error text, an oversized error, no history row. */
  problems: { rule: string; reply: FuzzReply }[];
  upstreamRequests: number;
  summary: string;
}

/** Internal error texts that must never reach a client. */
const INTERNAL_TEXT =
  /Maximum call stack|RangeError|TypeError|ReferenceError|Cannot read propert|is not a function|is not iterable|undefined is not|invalid byte sequence|unsupported Unicode|at \S+\.[jt]s:\d+/;
const ALLOWED_5XX = new Set([502, 503, 504]);
/** The fuzz service's cap on OAuth clients no account approved (registrations overflow it). */
const PENDING_CLIENTS_MAX = 50;
const MAX_ERROR_BYTES = 16 * 1024;

const ATS_HOSTS = [
  'boards-api.greenhouse.io',
  'boards.greenhouse.io',
  'job-boards.greenhouse.io',
  'api.lever.co',
  'jobs.lever.co',
  'apply.workable.com',
  'api.smartrecruiters.com',
  'jobs.smartrecruiters.com',
  'careers.smartrecruiters.com',
  'api.ashbyhq.com',
  'jobs.ashbyhq.com',
];

/** How long a socket may stay open after a reply to `Connection: close` before it counts as left open. */
const CLOSE_GUARD_MS = 10_000;

function send(base: URL, agent: http.Agent, req: FuzzRequest): Promise<Omit<FuzzReply, 'req' | 'mcpStatus' | 'ms' | 'upstream'>> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.body !== undefined) headers['content-length'] = Buffer.byteLength(req.body);
    // a request asking for its connection to close gets a socket of its own, watched after the reply
    const closing = req.headers.connection === 'close';
    const r = http.request(
      {
        host: base.hostname,
        port: base.port,
        method: req.method,
        path: req.query ? `${req.path}?${req.query}` : req.path,
        headers,
        agent: closing ? false : agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const buf = Buffer.concat(chunks);
          const reply = {
            status: res.statusCode ?? 0,
            requestId: (res.headers['x-request-id'] as string) ?? null,
            bytes: buf.length,
            text: buf.toString('utf8'),
            headers: res.headers,
          };
          if (!closing) return resolve({ ...reply, closed: null });
          const socket = res.socket;
          if (socket.destroyed) return resolve({ ...reply, closed: true });
          const guard = setTimeout(() => resolve({ ...reply, closed: false }), CLOSE_GUARD_MS);
          socket.once('close', () => {
            clearTimeout(guard);
            resolve({ ...reply, closed: true });
          });
        });
        res.on('error', () => resolve({ status: -1, requestId: null, bytes: 0, text: 'response error', headers: {}, closed: null }));
      },
    );
    r.setTimeout(60_000, () => r.destroy(new Error('client timeout')));
    // the server may answer (413, 431) and close before reading a large body
    r.on('error', (err) => resolve({ status: -1, requestId: null, bytes: 0, text: `request error: ${err.message}`, headers: {}, closed: null }));
    r.end(req.body);
  });
}

function mcpStatusOf(text: string): number | null {
  try {
    const msg = JSON.parse(text.startsWith('event:') ? (text.split('\ndata: ')[1] ?? '').split('\n')[0] : text) as any;
    if (msg?.error) return Number(msg.error.code);
    if (msg?.result?.isError) return Number(msg.result._meta?.status ?? 0);
    if (msg?.result) return 200;
  } catch {
    // not JSON-RPC (an HTTP-level error body)
  }
  return null;
}

function problemsOf(reply: FuzzReply): string[] {
  const out: string[] = [];
  const { status, mcpStatus, text } = reply;
  if (status === -1) out.push('no answer');
  if (status >= 500 && !ALLOWED_5XX.has(status)) out.push(`HTTP ${status}`);
  if (mcpStatus !== null && ((mcpStatus >= 500 && !ALLOWED_5XX.has(mcpStatus)) || mcpStatus === -32603)) out.push(`MCP ${mcpStatus}`);
  if ((status >= 400 || (mcpStatus !== null && mcpStatus !== 200)) && INTERNAL_TEXT.test(text)) out.push('internal error text');
  if ((status >= 400 || (mcpStatus !== null && mcpStatus !== 200)) && reply.bytes > MAX_ERROR_BYTES) out.push(`error body of ${reply.bytes} bytes`);
  return out;
}

/**
 * A dashboard session of an account of its own, signed in as a browser does it, with one watch: the
 * fuzzed forms may create and rotate that account's keys without touching the fuzzer's key.
 */
async function dashboardSession(svc: TestService): Promise<DashboardSession> {
  const password = 'fuzzing a quiet harbour at dawn 7';
  const issued = await createDashboardAccount(svc.deps.sql, { email: 'fuzz-dashboard@example.com', plan: 'enterprise' });
  await changePassword(svc.deps.sql, issued.accountId, password);
  const browser = new FormBrowser(svc.url);
  const signed = await browser.signIn(issued.email, password);
  if (signed.status !== 303 || !browser.cookie) throw new Error(`dashboard sign-in answered ${signed.status}`);
  const csrf = await browser.csrf('/dashboard/api');
  const { key } = await createKey(svc.deps.sql, { name: 'fuzz-dashboard', accountId: issued.accountId, rateLimit: 1_000 });
  const target = { operation: 'calendar', property_token: 'fuzz-dashboard-watch', start: '2027-05-01', days: 2, probe_min_stay: false };
  const res = await fetch(`${svc.url}/v1/watches`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify({ target, rule: { type: 'any_change' }, every_hours: 24 }),
  });
  const watch = (await res.json()) as { id?: string };
  if (res.status !== 201 || !watch.id) throw new Error(`watch for the dashboard answered ${res.status}: ${JSON.stringify(watch)}`);
  return { cookie: browser.cookie, csrf, watchId: watch.id };
}

/** Generates `runs` requests from the service's own /openapi.json and sends them against a chaos upstream. */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzOutcome> {
  const chaos = await startChaosUpstream(opts.seed);
  let svc: TestService | undefined;
  try {
    const hosts = Object.fromEntries(ALIASES.map((a) => [hostEnvName(a), `${chaos.url}/${a}`]));
    svc = await startTestService({
      ...hosts,
      UPSTREAM_RETRIES: '0',
      UPSTREAM_TIMEOUT_MS: '1000',
      UPSTREAM_BACKOFF_MS: '1',
      SAFE_FETCH_ALLOW_PRIVATE: 'true',
      ATS_HOST_OVERRIDES: JSON.stringify(Object.fromEntries(ATS_HOSTS.map((h) => [h, `${chaos.url}/ats/${h}`]))),
      WEBHOOK_SIGNING_SECRET: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      WEBHOOK_RETRY_SCHEDULE_S: 'none',
      // the rendered job-card search launches a browser per call: it answers 503 here
      CHROMIUM_PATH: '/nonexistent/chromium',
      // one request at a time measures the upstream calls of each: no background batch work then
      RUN_WORKER: opts.concurrency === 1 ? 'false' : 'true',
      // credits enforced: the reservation of every call's maximum cost runs too
      CREDITS_MODE: 'enforce',
      // registration open enough for the fuzzer to reach its checks, and a cap it overflows
      OAUTH_REGISTRATIONS_PER_IP_PER_MIN: '100000',
      OAUTH_REGISTRATIONS_PER_MIN: '100000',
      OAUTH_PENDING_CLIENTS_MAX: String(PENDING_CLIENTS_MAX),
    });
    const { key } = await svc.key({ rateLimit: 1_000_000, plan: 'enterprise' });
    const doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> };
    const dashboard = await dashboardSession(svc);
    const requests = fc.sample(fuzzRequests(doc, { upstreamUrl: chaos.url }, key, dashboard), { seed: opts.seed, numRuns: opts.runs });
    const base = new URL(svc.url);
    const agent = new http.Agent({ keepAlive: true, maxSockets: opts.concurrency ?? 6 });
    const replies: FuzzReply[] = new Array(requests.length);
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const i = next++;
        const req = requests[i];
        const started = performance.now();
        const before = chaos.requests;
        const r = await send(base, agent, req);
        replies[i] = {
          ...r,
          req,
          mcpStatus: req.path === '/mcp' ? mcpStatusOf(r.text) : null,
          ms: performance.now() - started,
          upstream: chaos.requests - before,
        };
      }
    };
    await Promise.all(Array.from({ length: opts.concurrency ?? 6 }, worker));
    agent.destroy();

    const problems: FuzzOutcome['problems'] = [];
    for (const reply of replies) for (const rule of [...problemsOf(reply), ...edgeProblems(reply, base.port)]) problems.push({ rule, reply });
    // open registration stayed bounded: what is kept of each client is small, and unapproved ones are capped
    const [clients] = await svc.deps.sql`SELECT count(*)::int AS n, coalesce(max(octet_length(metadata::text)), 0)::int AS largest FROM oauth_clients`;
    const bounded = {
      req: { op: 'oauth_clients', kind: 'edge', method: '-', path: '-', query: '', headers: {}, recorded: false },
      status: 0,
      mcpStatus: null,
      requestId: null,
      bytes: 0,
      text: JSON.stringify(clients),
      ms: 0,
      upstream: 0,
      headers: {},
      closed: null,
    } satisfies FuzzReply;
    if (clients.largest >= 8 * 1024) problems.push({ rule: `stored client metadata of ${clients.largest} bytes`, reply: bounded });
    if (clients.n > PENDING_CLIENTS_MAX) problems.push({ rule: `${clients.n} OAuth clients kept (cap ${PENDING_CLIENTS_MAX})`, reply: bounded });
    const mustRecord = replies.filter((r) => r.req.recorded && r.requestId && r.status !== 404 && r.status > 0);
    const ids = mustRecord.map((r) => r.requestId!);
    const found = new Set<string>();
    for (let i = 0; i < ids.length; i += 1000) {
      const rows = await svc.deps.sql<{ id: string }[]>`SELECT id FROM request_history WHERE id = ANY(${ids.slice(i, i + 1000)})`;
      for (const row of rows) found.add(row.id);
    }
    for (const r of mustRecord) if (!found.has(r.requestId!)) problems.push({ rule: 'no history row', reply: r });

    const byStatus: Record<string, number> = {};
    for (const r of replies) {
      const k = r.mcpStatus !== null ? `mcp:${r.mcpStatus}` : String(r.status);
      byStatus[k] = (byStatus[k] ?? 0) + 1;
    }
    const summary = `fuzz seed=${opts.seed} requests=${replies.length} upstream_requests=${chaos.requests} problems=${problems.length} by status: ${Object.entries(
      byStatus,
    )
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, n]) => `${k}=${n}`)
      .join(' ')}`;
    return { seed: opts.seed, replies, byStatus, problems, upstreamRequests: chaos.requests, summary };
  } finally {
    await svc?.close();
    await chaos.close();
  }
}

/** A short, readable line per problem class (rule, operation, answer), for the failure message. */
export function describeProblems(problems: FuzzOutcome['problems'], max = 40): string[] {
  const classes = new Map<string, { n: number; example: FuzzReply }>();
  for (const p of problems) {
    const k = `${p.rule} | ${p.reply.req.op} | ${p.reply.req.kind}`;
    const c = classes.get(k);
    if (c) c.n++;
    else classes.set(k, { n: 1, example: p.reply });
  }
  return [...classes].slice(0, max).map(([k, { n, example }]) => {
    const r = example.req;
    const body = r.body === undefined ? '' : ` body=${r.body.length > 300 ? `${r.body.slice(0, 300)}…(${r.body.length})` : r.body}`;
    const query = r.query.length > 200 ? `${r.query.slice(0, 200)}…` : r.query;
    return `${n}× ${k}: ${r.method} ${r.path.slice(0, 200)}${query ? `?${query}` : ''}${body} → ${example.status} ${example.text.slice(0, 300)} [${example.requestId}]`;
  });
}
