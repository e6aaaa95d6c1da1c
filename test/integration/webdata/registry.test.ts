import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBDATA_TOOLS } from '../../../tools/webdata.js';
import { startTestService, type TestService } from '../../helpers/test-service.js';

/** The spec's costs where it states them, and ours where it shows none (said in each description). */
const COSTS: Record<string, number> = {
  'POST /v1/network/job': 2,
  'POST /v1/network/jobs': 2,
  'POST /v1/careers/jobs': 2,
  'POST /v1/careers/detect': 1,
  'POST /v1/video/channel': 2,
  'POST /v1/video/video': 1,
  'POST /v1/video/transcript': 1,
  'POST /v1/video/search': 2,
  'POST /v1/apps/app': 2,
  'POST /v1/apps/reviews': 1,
  'POST /v1/apps/search': 2,
  'POST /v1/retail/reviews': 2,
  'POST /v1/retail/search': 2,
  'POST /v1/jobs/search': 3,
  'POST /v1/trends/interest': 1,
};

describe('web-data tools in the registry', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(() => svc?.close());

  it('every route is in a valid OpenAPI document; none is an MCP tool', async () => {
    const doc = (await (await svc.call('/openapi.json')).json()) as any;
    await SwaggerParser.validate(structuredClone(doc));
    for (const tool of WEBDATA_TOOLS) {
      expect(doc.paths[tool.path][tool.method.toLowerCase()].operationId).toBe(tool.name);
      expect(tool.mcp.expose).toBe(false);
    }
    expect(WEBDATA_TOOLS.map((t) => `${t.method} ${t.path}`).sort()).toEqual(Object.keys(COSTS).sort());
  });

  it('the plan catalogue shows each cost', async () => {
    const key = (await svc.key()).key;
    const plans = (await (await svc.call('/v1/billing/plans', { key })).json()) as any;
    for (const [route, credits] of Object.entries(COSTS)) {
      const [method, path] = route.split(' ');
      expect(plans.costs.find((c: any) => c.method === method && c.path === path)?.credits).toBe(credits);
    }
  });

  it('unknown body fields are a 422 with the array detail', async () => {
    const key = (await svc.key()).key;
    const res = await svc.call('/v1/trends/interest', { key, body: { keyword: 'x', extra: 1 } });
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).detail[0]).toMatchObject({ type: 'extra_forbidden', loc: ['body', 'extra'] });
  });
});
