import type { Tool } from './define-tool.js';

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** A plain human-readable index of the operations, from the registry; no external assets. */
export function docsPage(tools: Tool[]): string {
  const byTag = new Map<string, Tool[]>();
  for (const t of tools) for (const tag of t.tags.slice(0, 1)) byTag.set(tag, [...(byTag.get(tag) ?? []), t]);
  const sections = [...byTag.entries()]
    .map(
      ([tag, list]) => `<h2>${esc(tag)}</h2>\n<table><tr><th>Operation</th><th>Credits</th><th>MCP tool</th><th>Description</th></tr>
${list
  .map(
    (t) =>
      `<tr><td><code>${t.method} ${esc(t.path)}</code></td><td>${t.metered ? t.credits.base + (t.credits.note ? '+' : '') : 'free'}</td><td>${t.mcp.expose ? `<code>${t.name}</code>` : ''}</td><td>${esc(t.description)}</td></tr>`,
  )
  .join('\n')}</table>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>API documentation</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:1100px;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left;vertical-align:top}code{font-size:13px}</style>
</head><body><h1>Hotel-rate and web-data API</h1>
<p>Authenticate with <code>x-api-key: sk_…</code> (or <code>Authorization: Bearer</code>). The machine-readable description is <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). MCP clients connect to <code>POST /mcp</code>.</p>
${sections}</body></html>`;
}
