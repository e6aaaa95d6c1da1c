/// <reference lib="dom" />
/**
 * The view's side of the MCP Apps extension (io.modelcontextprotocol/ui): JSON-RPC 2.0 over
 * postMessage with the host that renders it. The SDK's own view class (`App` of
 * @modelcontextprotocol/ext-apps) bundles the MCP client protocol and zod: 649 KB minified, 147 KB
 * gzipped, ten times an app's 60 KB budget. So the view speaks the extension's few messages itself,
 * each typed by the SDK's spec types (a message the SDK does not define does not compile), and the
 * tests render every app inside the SDK's host side (AppBridge), which refuses what it does not parse.
 */
import type {
  AppNotification,
  AppRequest,
  McpUiAppCapabilities,
  McpUiHostCapabilities,
  McpUiHostContext,
  McpUiInitializeResult,
  McpUiToolResultNotification,
} from '@modelcontextprotocol/ext-apps';

/** The extension's revision this view speaks (the SDK's LATEST_PROTOCOL_VERSION). */
const PROTOCOL_VERSION = '2026-01-26';

type ToolResult = McpUiToolResultNotification['params'];
type Params<M extends string, U extends { method: string }> = Extract<U, { method: M }> extends { params?: infer P } ? P : never;

export interface ViewHandlers {
  /** The tool's arguments as the model sent them. */
  toolInput?(args: Record<string, unknown>): void;
  /** The tool's result: the same CallToolResult a client without apps gets. */
  toolResult(result: ToolResult): void;
  /** The host's theme, fonts, locale or size changed (and once after the handshake). */
  context?(context: McpUiHostContext): void;
}

export interface ViewBridge {
  readonly hostCapabilities: McpUiHostCapabilities;
  readonly hostContext: McpUiHostContext;
  /** A request to the host (tools/call of a read-only tool, ui/open-link …). */
  request<M extends AppRequest['method']>(method: M, params: Params<M, AppRequest>): Promise<Record<string, unknown>>;
}

/** Connects to the host that embeds this view (window.parent): the handshake, then the handlers. */
export function connectView(appInfo: { name: string; version: string }, handlers: ViewHandlers): Promise<ViewBridge> {
  const host = window.parent;
  let nextId = 1;
  const pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  const send = (message: object) => host.postMessage({ jsonrpc: '2.0', ...message }, '*');
  const notify = <M extends AppNotification['method']>(method: M, params: Params<M, AppNotification>) => send({ method, params });
  const request: ViewBridge['request'] = (method, params) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send({ id, method, params });
    });

  const bridge = { hostCapabilities: {}, hostContext: {}, request } as { -readonly [K in keyof ViewBridge]: ViewBridge[K] };
  type Message = { jsonrpc?: string; id?: number; method?: string; params?: unknown; result?: unknown; error?: { message: string } };
  window.addEventListener('message', (event: MessageEvent<Message | null>) => {
    if (event.source !== host || event.data?.jsonrpc !== '2.0') return;
    const { id, method, params, result, error } = event.data;
    if (method === undefined && id !== undefined) {
      // a response to one of ours
      const waiting = pending.get(id);
      pending.delete(id);
      if (error) waiting?.reject(new Error(error.message));
      else waiting?.resolve(result as Record<string, unknown>);
      return;
    }
    if (id !== undefined) {
      // the host's requests: a liveness check, and the teardown before it removes the view
      send(
        method === 'ping' || method === 'ui/resource-teardown' ? { id, result: {} } : { id, error: { code: -32601, message: `Method not found: ${method}` } },
      );
      return;
    }
    if (method === 'ui/notifications/tool-input') handlers.toolInput?.((params as { arguments?: Record<string, unknown> }).arguments ?? {});
    else if (method === 'ui/notifications/tool-result') handlers.toolResult(params as ToolResult);
    else if (method === 'ui/notifications/host-context-changed') {
      bridge.hostContext = { ...bridge.hostContext, ...(params as McpUiHostContext) };
      handlers.context?.(bridge.hostContext);
    }
  });

  const appCapabilities: McpUiAppCapabilities = {};
  return request('ui/initialize', { appInfo, appCapabilities, protocolVersion: PROTOCOL_VERSION }).then((answer) => {
    const init = answer as McpUiInitializeResult;
    bridge.hostCapabilities = init.hostCapabilities ?? {};
    bridge.hostContext = init.hostContext ?? {};
    handlers.context?.(bridge.hostContext);
    notify('ui/notifications/initialized', {});
    reportSize(notify);
    return bridge;
  });
}

/** Tells the host the view's height whenever it changes, so that an inline frame fits its content. */
function reportSize(notify: (method: 'ui/notifications/size-changed', params: { width?: number; height?: number }) => void): void {
  let last = 0;
  new ResizeObserver(() => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height !== last) notify('ui/notifications/size-changed', { height: (last = height) });
  }).observe(document.documentElement);
}
