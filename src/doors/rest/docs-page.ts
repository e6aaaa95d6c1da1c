import { createRequire } from 'node:module';
import path from 'node:path';
import express, { type Router } from 'express';

/**
 * GET /docs: the interactive reference, rendered in the browser from /openapi.json by Scalar's
 * standalone bundle, served from our own origin (no CDN, no fonts, telemetry, agent or proxy
 * of theirs). The CSP keeps it that way: the page can load and call nothing but this origin.
 */
const BUNDLE = path.join(path.dirname(createRequire(import.meta.url).resolve('@scalar/api-reference')), 'browser', 'standalone.js');

const CONFIG = {
  url: '/openapi.json',
  telemetry: false,
  withDefaultFonts: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: false,
  persistAuth: true,
  documentDownloadType: 'json',
  defaultOpenFirstTag: false,
  authentication: { preferredSecurityScheme: 'ApiKeyHeader' },
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<noscript>The reference needs JavaScript; the machine-readable description is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</noscript>
<div id="app"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/init.js"></script>
</body>
</html>`;

const INIT = `Scalar.createApiReference('#app', ${JSON.stringify(CONFIG)});\n`;

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "frame-ancestors 'none'",
].join('; ');

export function docsRouter(): Router {
  const router = express.Router();
  router.get('/docs', (_req, res) => void res.set('content-security-policy', CSP).type('html').send(PAGE));
  router.get('/docs/assets/init.js', (_req, res) => void res.type('text/javascript').send(INIT));
  router.get('/docs/assets/scalar.js', (_req, res, next) => {
    res.sendFile(BUNDLE, { maxAge: '1h', headers: { 'content-type': 'text/javascript; charset=utf-8' } }, (err) => err && next(err));
  });
  return router;
}
