import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createTaskSessionFromClient, type TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';

/**
 * A real tasks requester: the MCP SDK client (2026-07-28) with the extension's own requester
 * (`@modelcontextprotocol/ext-tasks`). The SDK client cannot carry the extension's wire shapes
 * (a `resultType: "task"` answer to tools/call, tasks/*), so, as the package documents, the host
 * gives it a raw JSON-RPC dispatch over the same Streamable HTTP endpoint.
 */
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const PROTOCOL = '2026-07-28';
const CLIENT_INFO = { name: 'tasks-test', version: '1.0.0' };

/** One JSON-RPC request to /mcp as a 2026-07-28 client sends it (routing headers included). */
export async function rawRequest(
  url: string,
  key: string,
  request: { method: string; params?: Record<string, unknown>; id?: number },
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const params = request.params ?? {};
  const name = (params.name ?? params.taskId) as string | undefined;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': PROTOCOL,
      'mcp-method': request.method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
      'x-api-key': key,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: request.id ?? 1, ...request, params }),
  });
  const text = await res.text();
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  return { status: res.status, body: JSON.parse(json) };
}

/** The envelope a 2026-07-28 request carries; `tasks` adds the extension to its client capabilities. */
export function envelope(tasks: boolean): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': PROTOCOL,
    'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
    'io.modelcontextprotocol/clientCapabilities': tasks ? { extensions: { [TASKS_EXTENSION]: {} } } : {},
  };
}

export async function sdkClient(url: string, key: string): Promise<Client> {
  const client = new Client(CLIENT_INFO, { versionNegotiation: { mode: { pin: PROTOCOL } } });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-api-key': key } } }));
  return client;
}

export interface TasksRequester {
  client: Client;
  session: TaskEnabledSession;
  close(): Promise<void>;
}

export async function tasksRequester(url: string, key: string): Promise<TasksRequester> {
  const client = await sdkClient(url, key);
  let id = 1000;
  const session = createTaskSessionFromClient(client, {
    endpointId: url,
    v2RequestFraming: { protocolVersion: PROTOCOL, clientInfo: CLIENT_INFO, clientCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    rawDispatch: async (request) => {
      const { body } = await rawRequest(url, key, { ...(request as { method: string; params?: Record<string, unknown> }), id: ++id });
      return body.error ? { kind: 'error', error: body.error } : { kind: 'result', result: body.result };
    },
  });
  return {
    client,
    session,
    async close() {
      await session.close();
      await client.close();
    },
  };
}
