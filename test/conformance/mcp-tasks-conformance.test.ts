/**
 * The official MCP conformance suite's scenarios of the tasks extension (io.modelcontextprotocol/tasks,
 * SEP-2663) against /mcp. They are extension scenarios, outside a revision's timeline, so they run
 * by name. Most of their checks call the suite's own fixture tools (greet, slow_compute, failing_job,
 * confirm_delete …), which this server does not list; those checks are expected failures, each with
 * its reason in expected-failures-tasks.yaml. Every check that exercises what the server offers (the
 * capability, the gating of the task methods, removed methods, unknown ids, routing headers) passes.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../helpers/test-service.js';
import { conformanceToolchain, keyProxy, readResults, SUITE_PACKAGE } from './toolchain.js';

const SCENARIOS = [
  'tasks-lifecycle',
  'tasks-capability-negotiation',
  'tasks-wire-fields',
  'tasks-request-state-removal',
  'tasks-mrtr-input',
  'tasks-request-headers',
  'tasks-dispatch-and-envelope',
  'tasks-status-notifications',
  'tasks-required-task-error',
  'tasks-mrtr-composition',
];

const toolchain = await conformanceToolchain();
if ('unavailable' in toolchain && process.env.CI) throw new Error(`conformance suite required in CI: ${toolchain.unavailable}`);
const title =
  'unavailable' in toolchain ? `MCP conformance, tasks extension [SKIPPED: ${toolchain.unavailable}]` : `MCP conformance, tasks extension (${SUITE_PACKAGE})`;

describe.skipIf('unavailable' in toolchain)(title, () => {
  let svc: TestService;
  let proxy: Awaited<ReturnType<typeof keyProxy>>;

  beforeAll(async () => {
    svc = await startTestService();
    proxy = await keyProxy(svc.url, (await svc.key()).key);
  });
  afterAll(async () => {
    await proxy?.close();
    await svc?.close();
  });

  it('every check of what the server offers passes', async () => {
    const { node, cli } = toolchain as { node: string; cli: string };
    const outDir = path.resolve('test-artifacts/conformance/tasks');
    fs.rmSync(outDir, { recursive: true, force: true });
    const baseline = path.resolve('test/conformance/expected-failures-tasks.yaml');
    const failures: string[] = [];
    for (const scenario of SCENARIOS) {
      const args = [cli, 'server', '--url', proxy.url, '--scenario', scenario, '--expected-failures', baseline, '-o', outDir];
      await promisify(execFile)(node, args, { timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }).catch((err: { stdout?: string }) => {
        const out = err.stdout ?? '';
        failures.push(`${scenario}: ${out.slice(out.indexOf('=== SUMMARY'))}`);
      });
    }
    const results = readResults(outDir);
    const table = results.map(
      (r) => `${r.failed ? '✗' : '✓'} ${r.scenario}: ${r.passed} passed, ${r.failed} failed${r.failed ? ` (${r.failedChecks.join(', ')})` : ''}`,
    );
    fs.writeFileSync(path.join(outDir, 'summary.txt'), `${table.join('\n')}\n`);
    expect(failures).toEqual([]);
    // the checks of what the server offers ran and passed
    const passed = (scenario: string) => results.find((r) => r.scenario === scenario)?.passed ?? 0;
    expect(passed('tasks-capability-negotiation')).toBeGreaterThanOrEqual(2);
    expect(passed('tasks-dispatch-and-envelope')).toBeGreaterThanOrEqual(3);
  }, 900_000);
});
