import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import express, { type Router } from 'express';
import type { AppDeps } from '../deps.js';
import { requireKey } from '../platform/auth.js';
import { newId } from '../platform/ids.js';
import { sendError } from './http-errors.js';
import { createMcpServer } from './mcp.js';

/** `POST /mcp`: Streamable HTTP, stateless, JSON responses; a new server and transport per request. */
export function mcpRouter(deps: AppDeps): Router {
  const router = express.Router();
  router.post('/mcp', async (req, res) => {
    try {
      const key = await requireKey(deps.sql, req);
      req.keyPrefix = key.prefix;
      if (req.bodyError) throw req.bodyError;
      // The first tool call of a request takes the request's own id, so x-request-id finds its record.
      let first = true;
      const nextId = () => (first ? ((first = false), req.id) : newId('req'));
      const server = createMcpServer(deps, key, nextId);
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (err) {
      sendError(deps, req, res, err);
    }
  });
  const notAllowed = (_req: express.Request, res: express.Response) => {
    res.status(405).json({ detail: 'method not allowed: this MCP server is stateless, use POST' });
  };
  router.get('/mcp', notAllowed);
  router.delete('/mcp', notAllowed);
  return router;
}
