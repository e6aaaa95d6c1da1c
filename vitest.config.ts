import { defineConfig } from 'vitest/config';

/**
 * Three projects, one run (`npm test` runs them all; `npx vitest run --project unit` one of them):
 * - unit: test/unit/<layer>/…, pure code and parsers on recorded payloads;
 * - integration: test/integration/<door-or-capability>/…, the service in the test process over
 *   real HTTP and a real PostgreSQL (browser tests included); each file builds its own service on
 *   its own database and closes it;
 * These two share their worker's loaded modules from file to file (isolate: false): most of a
 * file's time was loading the service's modules again (unit 28 -> 14 s, integration 273 -> 176 s
 * alone). What a file starts it stops, a test that fakes the clock restores it, and the source's
 * module state is constants, read-only caches and the process-wide parse slots every call gives back.
 * - process: test/process/ and test/conformance/, which spawn the service, workers, CLIs and the
 *   stdio server as their own processes, kill them, or run external suites against them: they wait
 *   on process start-up and shutdown, so they get longer timeouts.
 * One global setup for all (the root project's: the build, the fixture check, one PostgreSQL).
 */
const common = { pool: 'forks' as const, hookTimeout: 120_000 };

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global-setup.ts'],
    // three files at a time on two cores: the process tests spend most of their time waiting on the
    // processes they start (measured: 508 s with two, 445 s with three on a quiet machine)
    maxWorkers: 3,
    // CI also writes a JSON report, from which .ci/run prints the plain closing line
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-artifacts/vitest.json' }]] : ['default'],
    projects: [
      { test: { ...common, name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000, isolate: false } },
      { test: { ...common, name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 60_000, isolate: false } },
      {
        test: {
          ...common,
          name: 'process',
          include: ['test/process/**/*.test.ts', 'test/conformance/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
