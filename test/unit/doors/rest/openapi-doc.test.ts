import { describe, expect, it } from 'vitest';
import { documentedStatuses } from '../../../../src/doors/rest/openapi-responses.js';
import { openApiDocument } from '../../../../src/doors/rest/openapi.js';
import { TOOLS } from '../../../../tools/index.js';

type Schema = { description?: string; properties?: Record<string, Schema>; items?: Schema };
type Operation = {
  operationId: string;
  description: string;
  'x-mcp-tool'?: string;
  parameters?: { name: string; description?: string }[];
  requestBody?: { content: { 'application/json': { schema: Schema; example?: unknown } } };
  responses: Record<string, { content: { 'application/json': { example?: unknown } } }>;
};

const doc = openApiDocument(TOOLS) as { paths: Record<string, Record<string, Operation>> };
const operations = Object.values(doc.paths).flatMap((methods) => Object.values(methods));
/** Inputs shared with an MCP tool, whose field descriptions are written with that tool's. */
const SHARED_WITH_MCP = new Set(TOOLS.filter((t) => !t.mcp.expose && TOOLS.some((m) => m.mcp.expose && m.input === t.input)).map((t) => t.name));

function undescribed(schema: Schema | undefined, at = ''): string[] {
  return Object.entries(schema?.properties ?? {}).flatMap(([name, s]) => [
    ...(s.description ? [] : [`${at}${name}`]),
    ...undescribed(s, `${at}${name}.`),
    ...undescribed(s.items, `${at}${name}[].`),
  ]);
}

describe('/openapi.json content', () => {
  it('every operation has a success example and, for a body, a request example', () => {
    for (const op of operations) {
      const success = Object.entries(op.responses).find(([code]) => code.startsWith('2'))![1];
      expect(success.content['application/json'].example, op.operationId).toBeDefined();
      if (op.requestBody) expect(op.requestBody.content['application/json'].example, op.operationId).toBeDefined();
    }
  });

  it('every input field of an operation that is not an MCP tool has a description', () => {
    const missing = operations
      .filter((op) => !op['x-mcp-tool'] && !SHARED_WITH_MCP.has(op.operationId))
      .flatMap((op) => [
        ...(op.parameters ?? []).filter((p) => !p.description).map((p) => `${op.operationId} ${p.name}`),
        ...undescribed(op.requestBody?.content['application/json'].schema).map((f) => `${op.operationId} ${f}`),
      ]);
    expect(missing).toEqual([]);
  });

  it('documents every error status with the error schema, and the MCP tool and cost of each operation', () => {
    for (const tool of TOOLS) {
      const op = doc.paths[tool.path][tool.method.toLowerCase()];
      expect(Object.keys(op.responses).map(Number).sort()).toEqual([...documentedStatuses(tool)].sort());
      // an operation charged like another one (a watch check) states how instead of "Free."
      expect(op.description).toContain(tool.metered ? `${tool.credits.base} credits` : tool.credits.note ? tool.credits.note.slice(1) : 'Free.');
      if (tool.mcp.expose) expect(op['x-mcp-tool']).toBe(tool.name);
    }
  });
});
