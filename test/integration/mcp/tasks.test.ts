import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { resultFromTaskOutcome } from '@modelcontextprotocol/ext-tasks/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askedWindow } from '../../helpers/calendar-payload.js';
import { calendarRoute } from '../../helpers/calendar-replay.js';
import { envelope, rawRequest, sdkClient, tasksRequester } from '../../helpers/mcp-tasks-client.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { waitFor } from '../../helpers/wait.js';
import { startReplayServer, type ReplayServer } from '../../replay/server.js';

/**
 * MCP tasks (io.modelcontextprotocol/tasks, 2026-07-28) driven by the SDK client and the
 * extension's own requester: long calendars become tasks, polled to the same result as the
 * blocking call, charged once; cancel; scoping to the key; the extension's protocol errors.
 */
let svc: TestService;
let replay: ReplayServer;
let key: string;
let accountId: string;
let url: string;

const pricer = (date: string, los: number) => (100 + Number(date.slice(8))) * los;

beforeAll(async () => {
  replay = await startReplayServer([
    // `slow…` tokens keep their task running until it is cancelled
    calendarRoute(pricer, { match: (r) => askedWindow(r.body).token.startsWith('slow'), delayMs: 60_000 }),
    // `broken…` tokens fail upstream: the call ends in a tool error
    { method: 'POST', path: '/_/TravelFrontendUi/data/batchexecute', match: (r) => askedWindow(r.body).token.startsWith('broken'), status: 500, body: 'down' },
    calendarRoute(pricer),
  ]);
  // otafour is not served by the replay: a comparison of it ends with that source failed
  svc = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_OTAFOUR_URL: replay.url, UPSTREAM_RETRIES: '0', UPSTREAM_TIMEOUT_MS: '90000' });
  const k = await svc.key({ plan: 'starter' });
  key = k.key;
  accountId = k.account_id!;
  url = `${svc.url}/mcp`;
});
afterAll(async () => {
  await svc?.close();
  await replay?.close();
});

/** A long horizon (over 180 nights) is run as a task. */
const LONG = { token: 'task-hotel-aaaa', start: '2027-03-01', days: 200, probe_min_stay: false };

/** The result without what differs between two collections of the same calendar (ids, times). */
function stable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stable);
  if (!value || typeof value !== 'object') return value;
  const volatile = new Set(['collection_id', 'observed_at', 'observation_id', 'elapsed_s', 'calendar_elapsed_s', 'request_id', 'credits_remaining']);
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !volatile.has(k))
      .map(([k, v]) => [k, stable(v)]),
  );
}

describe('MCP tasks (io.modelcontextprotocol/tasks)', () => {
  it('server/discover advertises the extension', async () => {
    const client = await sdkClient(url, key);
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/tasks': {} });
    await client.close();
  });

  it('a long calendar runs as a task: polled to completion it equals the blocking result, charged once and recorded', async () => {
    const requester = await tasksRequester(url, key);
    try {
      const execution = await requester.session.callTool('get_hotel_calendar', LONG);
      expect(execution.kind).toBe('task');
      const taskId = execution.handle!.taskId;
      const { outcome } = await execution.settle();
      const result = resultFromTaskOutcome(outcome) as unknown as {
        structuredContent: { priced: number };
        _meta: { request_id: string; credits_charged: number };
      };
      expect(result.structuredContent.priced).toBe(200); // the calendar's summary (mcp view): every night priced
      expect(result._meta.credits_charged).toBe(5);

      // the same call without the extension blocks and answers the same calendar
      const plain = await sdkClient(url, key);
      const sync = await plain.callTool({ name: 'get_hotel_calendar', arguments: LONG });
      await plain.close();
      expect(sync.isError).toBeFalsy();
      expect(stable(result.structuredContent)).toEqual(stable(sync.structuredContent));

      // tasks/get keeps answering the finished task with its result
      const got = await rawRequest(url, key, { method: 'tasks/get', params: { taskId, _meta: envelope(true) } });
      expect(got.body.result).toMatchObject({ resultType: 'complete', taskId, status: 'completed', result: { structuredContent: result.structuredContent } });

      // one charge and one history row under the task's request id
      const requestId = result._meta.request_id;
      const charges = await svc.deps.sql`SELECT amount FROM credit_ledger WHERE account_id = ${accountId} AND kind = 'charge' AND request_id = ${requestId}`;
      expect(charges.map((c) => c.amount)).toEqual([-5]);
      const [history] = await svc.deps.sql`SELECT method, path, status, credits FROM request_history WHERE id = ${requestId}`;
      expect(history).toMatchObject({ method: 'MCP', path: 'get_hotel_calendar', status: 200, credits: 5 });
    } finally {
      await requester.close();
    }
  });

  it('wire shapes: a flat CreateTaskResult with integer ttlMs and pollIntervalMs; tasks/get while working; routing header checked', async () => {
    const created = await rawRequest(url, key, {
      method: 'tools/call',
      params: { name: 'get_hotel_calendar', arguments: { ...LONG, token: 'slow-hotel-wire' }, _meta: envelope(true) },
    });
    const task = created.body.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(task.taskId).toMatch(/^task_[A-Za-z0-9]{32}$/);
    for (const field of ['createdAt', 'lastUpdatedAt']) expect(new Date(task[field]).toISOString()).toBe(task[field]);
    for (const field of ['ttlMs', 'pollIntervalMs']) expect(Number.isInteger(task[field]) && task[field] > 0, field).toBe(true);
    for (const field of ['task', 'ttl', 'pollInterval', 'requestState', 'result', 'error', 'inputRequests']) expect(task, field).not.toHaveProperty(field);
    const working = await rawRequest(url, key, { method: 'tasks/get', params: { taskId: task.taskId, _meta: envelope(true) } });
    expect(working.body.result).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' });
    for (const field of ['requestState', 'result', 'error']) expect(working.body.result, field).not.toHaveProperty(field);
    const mismatched = await rawRequest(
      url,
      key,
      { method: 'tasks/get', params: { taskId: task.taskId, _meta: envelope(true) } },
      { 'mcp-name': 'another-task' },
    );
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.error).toMatchObject({ code: -32020 });
    const ack = await rawRequest(url, key, { method: 'tasks/cancel', params: { taskId: task.taskId, _meta: envelope(true) } });
    expect(Object.keys(ack.body.result).filter((k) => k !== '_meta')).toEqual(['resultType']);
  });

  it('a tool error ends the task completed with the isError result the blocking call gives, not failed', async () => {
    const requester = await tasksRequester(url, key);
    try {
      const execution = await requester.session.callTool('get_hotel_calendar', { ...LONG, token: 'broken-hotel-aaaa' });
      expect(execution.kind).toBe('task');
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe('completed');
      const result = resultFromTaskOutcome(outcome) as unknown as { isError: boolean; _meta: { status: number } };
      expect(result).toMatchObject({ isError: true, _meta: { status: 502 } });
    } finally {
      await requester.close();
    }
  });

  it('a short calendar is answered at once, even to a client that declares the extension', async () => {
    const requester = await tasksRequester(url, key);
    try {
      const execution = await requester.session.callTool('get_hotel_calendar', { ...LONG, token: 'task-hotel-short', days: 14 });
      expect(execution.kind).toBe('immediate');
      const { outcome } = await execution.settle();
      expect((resultFromTaskOutcome(outcome) as unknown as { structuredContent: { priced: number } }).structuredContent.priced).toBe(14);
    } finally {
      await requester.close();
    }
  });

  it('tasks/cancel ends a running task: cancelled, nothing charged, recorded as ended by the client', async () => {
    const requester = await tasksRequester(url, key);
    try {
      const execution = await requester.session.callTool('get_hotel_calendar', { ...LONG, token: 'slow-hotel-aaaa' });
      expect(execution.kind).toBe('task');
      const taskId = execution.handle!.taskId;
      await waitFor(async () => (await svc.deps.sql`SELECT 1 FROM mcp_tasks WHERE id = ${taskId} AND attempts > 0`).length > 0, { what: 'the task to start' });
      await execution.cancel();
      const got = await rawRequest(url, key, { method: 'tasks/get', params: { taskId, _meta: envelope(true) } });
      expect(got.body.result).toMatchObject({ taskId, status: 'cancelled' });
      expect(got.body.result.result).toBeUndefined();
      const [task] = await svc.deps.sql`SELECT request_id FROM mcp_tasks WHERE id = ${taskId}`;
      const [history] = await svc.deps.sql`SELECT status, credits FROM request_history WHERE id = ${task.request_id}`;
      expect(history).toMatchObject({ status: 499, credits: 0 });
      // the worker stopped its upstream request and wrote nothing more
      await waitFor(
        async () => (await svc.deps.sql`SELECT 1 FROM pgboss.job WHERE name = 'mcp-task' AND data->>'task_id' = ${taskId} AND state = 'active'`).length === 0,
        { what: 'the run to end' },
      );
      expect(await svc.deps.sql`SELECT 1 FROM credit_ledger WHERE request_id = ${task.request_id}`).toHaveLength(0);
      // cancelling a terminal task is acknowledged and changes nothing
      const again = await rawRequest(url, key, { method: 'tasks/cancel', params: { taskId, _meta: envelope(true) } });
      expect(again.body.result).toEqual(expect.objectContaining({ resultType: 'complete' }));
      expect(again.body.result.taskId).toBeUndefined();
    } finally {
      await requester.close();
    }
  });

  it('tasks are the calling key’s: another key, even of the same account, gets -32602 as for an unknown id', async () => {
    const requester = await tasksRequester(url, key);
    const execution = await requester.session.callTool('get_hotel_calendar', { ...LONG, token: 'task-hotel-scope' });
    const taskId = execution.handle!.taskId;
    await execution.settle();
    await requester.close();
    const other = (await svc.key({ plan: 'starter' })).key;
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const mine = await rawRequest(url, key, {
        method,
        params: { taskId, _meta: envelope(true), ...(method === 'tasks/update' ? { inputResponses: {} } : {}) },
      });
      expect(mine.body.error, method).toBeUndefined();
      const theirs = await rawRequest(url, other, { method, params: { taskId, _meta: envelope(true) } });
      expect(theirs.body.error, method).toMatchObject({ code: -32602 });
      const unknown = await rawRequest(url, key, { method, params: { taskId: 'task_unknown', _meta: envelope(true) } });
      expect(unknown.body.error, method).toMatchObject({ code: -32602 });
    }
  });

  it('the extension’s methods need the extension on their own request (-32021); tasks/result and tasks/list do not exist (-32601)', async () => {
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const res = await rawRequest(url, key, { method, params: { taskId: 'gate-test', _meta: envelope(false) } });
      expect(res.body.error, method).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    }
    for (const method of ['tasks/result', 'tasks/list']) {
      const res = await rawRequest(url, key, { method, params: { taskId: 'x', _meta: envelope(true) } });
      expect(res.body.error, method).toMatchObject({ code: -32601 });
    }
    // a client without the extension gets the blocking result for a call that would have been a task
    const res = await rawRequest(url, key, {
      method: 'tools/call',
      params: { name: 'get_hotel_calendar', arguments: { ...LONG, token: 'task-hotel-noext' }, _meta: envelope(false) },
    });
    expect(res.body.result).toMatchObject({ resultType: 'complete' });
    expect(res.body.result.taskId).toBeUndefined();
    expect(res.body.result.structuredContent.priced).toBe(200);
  });

  it('compare_hotel_prices runs as a task when its timeout_s allows more than 10 s, and answers what the blocking call answers', async () => {
    const args = { check_in: '2027-06-04', nights: 2, timeout_s: 20, sources: { otafour: { property_id: '7777' } } };
    const requester = await tasksRequester(url, key);
    try {
      const execution = await requester.session.callTool('compare_hotel_prices', args);
      expect(execution.kind).toBe('task');
      // its one source fails, so the compare failed (502 over REST): the task ends with the tool error the blocking call gives
      const result = resultFromTaskOutcome((await execution.settle()).outcome) as unknown as { isError?: boolean; content: { text?: string }[] };
      expect(result.isError).toBe(true);
      const plain = await sdkClient(url, key);
      const sync = await plain.callTool({ name: 'compare_hotel_prices', arguments: args });
      await plain.close();
      expect(sync.isError).toBe(true);
      const withoutIds = (content: { text?: string }[]) => content.map((c) => c.text?.replace(/req_[A-Za-z0-9_-]+/g, 'req_'));
      expect(withoutIds(result.content)).toEqual(withoutIds(sync.content as { text?: string }[]));
      const quick = await requester.session.callTool('compare_hotel_prices', { ...args, timeout_s: 5 });
      expect(quick.kind).toBe('immediate');
      await quick.settle();
    } finally {
      await requester.close();
    }
  });

  it('under credit enforcement a task reserves and settles like the blocking call: charged once, nothing left reserved', async () => {
    const enforced = await startTestService({ UPSTREAM_METASEARCH_URL: replay.url, UPSTREAM_RETRIES: '0', CREDITS_MODE: 'enforce' });
    try {
      const k = await enforced.key({ plan: 'starter' });
      const requester = await tasksRequester(`${enforced.url}/mcp`, k.key);
      try {
        const execution = await requester.session.callTool('get_hotel_calendar', { ...LONG, token: 'task-hotel-enforced' });
        expect(execution.kind).toBe('task');
        const result = resultFromTaskOutcome((await execution.settle()).outcome) as unknown as {
          _meta: { request_id: string; credits_charged: number; credits_remaining: number };
        };
        expect(result._meta.credits_charged).toBe(5);
        const charges = await enforced.deps.sql`SELECT amount FROM credit_ledger WHERE account_id = ${k.account_id!} AND kind = 'charge'`;
        expect(charges.map((c) => c.amount)).toEqual([-5]);
        expect(await enforced.deps.sql`SELECT 1 FROM credit_reservations WHERE account_id = ${k.account_id!}`).toHaveLength(0);
      } finally {
        await requester.close();
      }
    } finally {
      await enforced.close();
    }
  });

  it('2025-era clients get no tasks: no tasks capability, and a task-augmented call (2025-11-25 `task` parameter) is answered blocking', async () => {
    const legacy = new Client({ name: 'legacy', version: '1.0.0' }, { supportedProtocolVersions: ['2025-11-25'] });
    await legacy.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': key } } }));
    expect(legacy.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const caps = legacy.getServerCapabilities() as Record<string, unknown>;
    expect(caps.tasks).toBeUndefined();
    expect(caps.extensions).toBeUndefined();
    await legacy.close();
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', 'x-api-key': key },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_hotel_calendar', arguments: { ...LONG, token: 'task-hotel-legacy' }, task: { ttl: 60_000 } },
      }),
    });
    const text = await res.text();
    const body = JSON.parse(text.startsWith('{') ? text : /^data: (.*)$/m.exec(text)![1]);
    expect(body.result.task).toBeUndefined();
    expect(body.result.structuredContent.priced).toBe(200);
  });

  it('the tools stay read-only', async () => {
    const client = await sdkClient(url, key);
    const { tools } = await client.listTools();
    for (const name of ['get_hotel_calendar', 'compare_hotel_prices', 'get_hotel_offers']) {
      expect(tools.find((t) => t.name === name)?.annotations?.readOnlyHint, name).toBe(true);
    }
    await client.close();
  });
});
