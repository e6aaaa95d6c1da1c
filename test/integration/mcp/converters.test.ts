/**
 * The converter matrix (issue 38): the agent frameworks' own MCP adapters, connected to this
 * service over real MCP (streamable HTTP), and what each hands its model for the 18 tools. For
 * every tool: no field lost, every enum, default and bound kept (as the keyword, or in the
 * field's words where an adapter drops keywords), no requirement added (LangChain once turned
 * if/then/else into `required`), nothing Gemini refuses, and OpenAI strict mode accepted. What
 * reaches the model is taken where the framework sends it: the AI SDK's OpenAI and Google
 * providers' request bodies (caught by their own `fetch` option, nothing leaves the machine),
 * LangChain's and mcp-use's tools as LangChain binds them to a model (convertToOpenAITool),
 * OpenAI Agents' function tools with convertSchemasToStrict. Tokens of each listing: o200k.
 * The matrix is written to test-artifacts/converters/matrix.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createMCPClient } from '@ai-sdk/mcp';
import { createOpenAI } from '@ai-sdk/openai';
import { mcpToTool } from '@google/genai';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { getAllMcpTools, MCPServerStreamableHttp } from '@openai/agents';
import { generateText } from 'ai';
import { MCPClient } from 'mcp-use/client';
import { LangChainAdapter } from 'mcp-use/adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../../helpers/test-service.js';
import { countTokens } from '../../helpers/tokens.js';
import { addedRequirements, geminiRefusals, kept, rulesOf, type Rule } from '../../helpers/schema-rules.js';

type Schema = Record<string, unknown>;
/** One tool as a framework hands it to its model. */
interface ModelTool {
  name: string;
  description: string;
  parameters: Schema;
  /** OpenAI strict mode: false where the framework fell back to a non-strict schema. */
  strict?: boolean;
}

const ARTIFACTS = path.resolve('test-artifacts/converters');

describe('what each agent framework hands its model for the 18 tools', () => {
  let svc: TestService;
  let key: string;
  let url: string;
  const reference = new Map<string, Schema>();
  const frameworks: Record<string, ModelTool[]> = {};

  beforeAll(async () => {
    svc = await startTestService();
    key = (await svc.key()).key;
    url = `${svc.url}/mcp`;
    const headers = { 'x-api-key': key };
    const sdk = new Client({ name: 'converters', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    for (const t of (await sdk.listTools()).tools) reference.set(t.name, t.inputSchema as Schema);
    // Gemini's own SDK: its function declarations made from the MCP client's listing
    const declarations = (await mcpToTool(sdk as never).tool()).functionDeclarations ?? [];
    frameworks['gemini (@google/genai)'] = declarations.map((d) => ({
      name: d.name!,
      description: d.description ?? '',
      parameters: (d.parametersJsonSchema ?? d.parameters) as Schema,
    }));
    await sdk.close();

    // LangChain's MCP adapters, bound the way a LangChain chat model binds tools
    const lc = new MultiServerMCPClient({ mcpServers: { hotelrates: { transport: 'http', url, headers } } });
    frameworks.langchain = (await lc.getTools()).map((t) => {
      const f = convertToOpenAITool(t).function;
      return { name: f.name, description: f.description ?? '', parameters: f.parameters as Schema };
    });
    await lc.close();

    // mcp-use's LangChain adapter (its zod conversion of each input schema)
    const mu = new MCPClient({ mcpServers: { hotelrates: { url, headers } } });
    frameworks['mcp-use'] = (await LangChainAdapter.createTools(mu)).map((t) => {
      const f = convertToOpenAITool(t as Parameters<typeof convertToOpenAITool>[0]).function;
      return { name: f.name, description: f.description ?? '', parameters: f.parameters as Schema };
    });
    await mu.closeAllSessions();

    // the AI SDK: its MCP client's tools, in the request each provider sends
    const ai = await createMCPClient({ transport: { type: 'http', url, headers } });
    const aiTools = await ai.tools();
    const caught: Schema[] = [];
    const catcher = async (_input: unknown, init?: { body?: unknown }) => {
      caught.push(JSON.parse(String(init?.body)) as Schema);
      return new Response(JSON.stringify({ error: { message: 'caught by the test' } }), { status: 400, headers: { 'content-type': 'application/json' } });
    };
    const ask = async (model: Parameters<typeof generateText>[0]['model']) => {
      caught.length = 0;
      await generateText({ model, tools: aiTools, prompt: 'Which hotels in Lisbon?', maxRetries: 0 }).catch(() => undefined);
      return caught[0];
    };
    const openaiBody = await ask(createOpenAI({ apiKey: 'test', fetch: catcher as typeof fetch })('gpt-4.1'));
    frameworks['ai-sdk openai'] = (openaiBody.tools as Schema[]).map((t) => ({
      name: t.name as string,
      description: (t.description as string) ?? '',
      parameters: t.parameters as Schema,
      strict: t.strict as boolean | undefined,
    }));
    const googleBody = await ask(createGoogleGenerativeAI({ apiKey: 'test', fetch: catcher as typeof fetch })('gemini-2.5-flash'));
    frameworks['ai-sdk google'] = ((googleBody.tools as Schema[])[0].functionDeclarations as Schema[]).map((t) => ({
      name: t.name as string,
      description: (t.description as string) ?? '',
      parameters: (t.parametersJsonSchema ?? t.parameters) as Schema,
    }));
    await ai.close();

    // OpenAI Agents, strict schemas asked for
    const server = new MCPServerStreamableHttp({ url, requestInit: { headers }, cacheToolsList: false });
    await server.connect();
    frameworks['openai-agents strict'] = (await getAllMcpTools({ mcpServers: [server], convertSchemasToStrict: true })).map((t) => {
      const f = t as unknown as { name: string; description: string; parameters: Schema; strict: boolean };
      return { name: f.name, description: f.description, parameters: f.parameters, strict: f.strict };
    });
    await server.close();
  });
  afterAll(async () => {
    await svc?.close();
  });

  /** One framework's row of the matrix: what it kept, said only in words, lost, added or refused. */
  function row(fw: string) {
    const tools = frameworks[fw];
    const byName = new Map(tools.map((t) => [t.name, t]));
    const out = {
      tools: tools.length,
      tokens: countTokens(tools),
      rules: 0,
      keywords: 0,
      words: 0,
      lost: [] as string[],
      added: [] as string[],
      refused: [] as string[],
    };
    for (const [name, schema] of reference) {
      const t = byName.get(name);
      if (!t) {
        out.lost.push(`${name}: the tool`);
        continue;
      }
      for (const r of rulesOf(schema)) {
        out.rules++;
        const how = kept(t.parameters, r);
        if (how === 'lost') out.lost.push(`${name}.${show(r)}`);
        else out[how === 'keyword' ? 'keywords' : 'words']++;
      }
      out.added.push(...addedRequirements(schema, t.parameters).map((p) => `${name}.${p}`));
      out.refused.push(...geminiRefusals(t.parameters).map((p) => `${name}: Gemini refuses ${p}`));
      // OpenAI Agents falls back to a non-strict schema where strict mode cannot take it; the AI SDK sends strict: false unless asked
      if (fw === 'openai-agents strict' && t.strict !== true) out.refused.push(`${name}: not strict`);
    }
    return out;
  }

  const FRAMEWORKS = ['langchain', 'mcp-use', 'ai-sdk openai', 'ai-sdk google', 'openai-agents strict', 'gemini (@google/genai)'];

  it.each(FRAMEWORKS)('%s: 18 tools, 0 rules lost, 0 requirements added, 0 refused', (fw) => {
    const r = row(fw);
    expect(r.tools).toBe(reference.size);
    expect(reference.size).toBe(18);
    expect(r.rules).toBeGreaterThan(300);
    expect(r.lost).toEqual([]);
    expect(r.added).toEqual([]);
    expect(r.refused).toEqual([]);
  });

  it('the checks see what a converter breaks: a lost enum, default and bound, a condition made a requirement, a format Gemini refuses', () => {
    const tool = {
      type: 'object',
      properties: { mode: { type: 'string', enum: ['a', 'b'], default: 'a' }, n: { type: 'integer', maximum: 5 }, day: { type: 'string' } },
    };
    const broken = {
      type: 'object',
      properties: { mode: { type: 'string' }, n: { type: 'number' }, day: { type: 'string', format: 'date' } },
      required: ['day'],
    };
    expect(rulesOf(tool).map((r) => kept(broken, r))).toEqual(['keyword', 'lost', 'lost', 'keyword', 'lost', 'keyword']);
    expect(addedRequirements(tool, broken)).toEqual(['day']);
    expect(geminiRefusals(broken)).toEqual(['properties.day: format date']);
    // said in words instead, each rule still reaches the model
    const worded = {
      type: 'object',
      properties: { mode: { type: 'string', description: 'one of a, b; default a' }, n: { type: 'number', description: 'at most 5' }, day: { type: 'string' } },
    };
    expect(rulesOf(tool).map((r) => kept(worded, r))).toEqual(['keyword', 'words', 'words', 'keyword', 'words', 'keyword']);
  });

  it('the matrix, with the tokens of each listing as its model receives it, is written for the closing note', () => {
    const matrix = Object.fromEntries(FRAMEWORKS.map((fw) => [fw, row(fw)]));
    fs.mkdirSync(ARTIFACTS, { recursive: true });
    fs.writeFileSync(path.join(ARTIFACTS, 'matrix.json'), `${JSON.stringify(matrix, null, 1)}\n`);
    for (const fw of FRAMEWORKS) expect(matrix[fw].tokens).toBeGreaterThan(0);
  });
});

const show = (r: Rule) => `${r.path} ${r.kind}${r.keyword ? ` ${r.keyword}` : ''}${r.value !== undefined ? `=${JSON.stringify(r.value)}` : ''}`;
