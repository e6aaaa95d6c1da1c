import type { ToolContext } from './define-tool.js';

/**
 * This service's base URL for a link an answer hands out: PUBLIC_BASE_URL when set, else the
 * address the caller reached (MCP over HTTP: the request's; REST: its Host), else the port the
 * HTTP service is configured on (the stdio server, beside `npm start`); null when none is known.
 */
export function serviceOrigin(ctx: Pick<ToolContext, 'origin' | 'headers' | 'deps'>): string | null {
  const configured = ctx.deps.config.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/+$/, '');
  if (ctx.origin) return ctx.origin;
  if (ctx.headers.host) return `http://${ctx.headers.host}`;
  const port = ctx.deps.config.PORT;
  return port ? `http://127.0.0.1:${port}` : null;
}
