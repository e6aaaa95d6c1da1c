/**
 * The MCP Inspector's CLI (from the npm registry, on the Node 22 it needs: test/conformance/toolchain.ts)
 * finds our MCP Apps as a developer checks them: `--method tools/list --app-info` prints one line
 * per tool, and each tool with an app names its ui:// page, which the inspector read, with the
 * page's type and CSP; every other tool has none.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inspectorToolchain } from '../../conformance/toolchain.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

const APPS: Record<string, string> = {
  get_hotel_calendar: 'hotel-calendar',
  compare_hotel_prices: 'hotel-parity',
  get_hotel_offers: 'hotel-offers',
  get_stay_price: 'hotel-offers',
  search_flights: 'flights',
  get_return_flights: 'flights',
  get_booking_options: 'flights',
  search_hotels: 'hotel-search',
};

const inspector = await inspectorToolchain();
if ('unavailable' in inspector && process.env.CI) throw new Error(`MCP Inspector required in CI: ${inspector.unavailable}`);
describe.skipIf('unavailable' in inspector)(`MCP Inspector CLI --app-info ${'unavailable' in inspector ? `[SKIPPED: ${inspector.unavailable}]` : ''}`, () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.close());

  it('lists the app of each tool that has one, read from its ui:// resource', async () => {
    const { node, cli } = inspector as { node: string; cli: string };
    const key = (await svc.key()).key;
    const { stdout } = await promisify(execFile)(
      node,
      [cli, `${svc.url}/mcp`, '--transport', 'http', '--header', `x-api-key: ${key}`, '--method', 'tools/list', '--app-info', '--advertise-apps'],
      { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 },
    );
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { toolName: string; hasApp: boolean; resourceUri?: string; resourceError?: string });
    expect(lines).toHaveLength(18);
    const found = Object.fromEntries(lines.filter((l) => l.hasApp).map((l) => [l.toolName, l]));
    expect(Object.keys(found).sort()).toEqual(Object.keys(APPS).sort());
    for (const [tool, app] of Object.entries(APPS)) {
      expect(found[tool]).toEqual({
        hasApp: true,
        toolName: tool,
        resourceUri: `ui://hotelrates/${app}`,
        csp: { connectDomains: [], resourceDomains: app === 'hotel-search' ? ['https://*.googleusercontent.com'] : [] },
        prefersBorder: true,
        resourceMimeType: 'text/html;profile=mcp-app',
      });
    }
  }, 90_000);
});
