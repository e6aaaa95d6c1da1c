import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { OUTCOMES, type Outcome } from '../../../src/ops/metrics.js';
import { stateOf } from '../../../src/ops/outcome-store.js';
import { classifyFailure, inSourceScope, noteContractChanged, observed, type OutcomeEvent } from '../../../src/ops/outcomes.js';
import { NotFound, UpstreamContractChanged, UpstreamFailed } from '../../../src/domain/errors.js';
import { UpstreamBlocked } from '../../../src/upstream/blocked.js';

describe('upstream outcome classes', () => {
  it('maps the failures the client and the parsers throw to one class each', () => {
    expect(classifyFailure(new UpstreamBlocked('DatadomeBlock', 'header:x-datadome'))).toBe('blocked');
    expect(classifyFailure(new UpstreamBlocked('RateLimited', 'status:429'))).toBe('blocked');
    expect(classifyFailure(new UpstreamFailed('BoardBlocked'))).toBe('blocked');
    expect(classifyFailure(new UpstreamContractChanged('apps', 'reply is not JSON'))).toBe('contract_changed');
    for (const t of ['TimeoutError', 'HeadersTimeoutError', 'BodyTimeoutError', 'ConnectTimeoutError'])
      expect(classifyFailure(new UpstreamFailed(t))).toBe('timeout');
    for (const u of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH']) expect(classifyFailure(new UpstreamFailed(u))).toBe('unreachable');
    for (const e of ['UpstreamHttp503', 'TruncatedReply', 'TooManyRedirects', 'CareersHttp500', 'ECONNRESET'])
      expect(classifyFailure(new UpstreamFailed(e))).toBe('upstream_error');
  });

  it('leaves out what is not the upstream: a caller hanging up, our own refusals and bugs; a gone object is an upstream that answered', () => {
    expect(classifyFailure(new UpstreamFailed('Aborted'))).toBeNull();
    expect(classifyFailure(new NotFound('app not found'))).toBe('ok');
    expect(classifyFailure(new TypeError('x is undefined'))).toBeNull();
  });
});

describe('source state of the last hour', () => {
  const counts = (c: Partial<Record<Outcome, number>>) => ({ ...Object.fromEntries(OUTCOMES.map((o) => [o, 0])), ...c }) as Record<Outcome, number>;
  it('unknown without requests, failing without a success, ok from 90% and no contract change, degraded between', () => {
    expect(stateOf(counts({}))).toBe('unknown');
    expect(stateOf(counts({ blocked: 3, timeout: 1 }))).toBe('failing');
    expect(stateOf(counts({ ok: 9, blocked: 1 }))).toBe('ok');
    expect(stateOf(counts({ ok: 8, unreachable: 2 }))).toBe('degraded');
    expect(stateOf(counts({ ok: 100, contract_changed: 1 }))).toBe('degraded');
  });
});

describe('source scope', () => {
  it('does not keep a reply the operation has dropped alive until the operation ends, and still finds one a parser rejects', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const recorded: OutcomeEvent[] = [];
    const sink = { record: (events: OutcomeEvent[]) => void recorded.push(...events) };
    await inSourceScope(sink, async () => {
      const dropped = await (async () => new WeakRef(await observed(null, 'metasearch', async () => ({ body: Buffer.alloc(3_000_000) }))))();
      const rejected = await observed(null, 'apps', async () => ({ body: 'not json' }));
      await new Promise((r) => setImmediate(r));
      gc();
      expect(dropped.deref()).toBeUndefined();
      noteContractChanged(rejected);
    });
    expect(recorded.map((e) => [e.source, e.outcome])).toEqual([
      ['metasearch', 'ok'],
      ['apps', 'contract_changed'],
    ]);
  });
});
