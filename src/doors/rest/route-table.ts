import type { Tool } from '../../core/define-tool.js';

export interface RouteMatch {
  tool: Tool;
  /** null when a parameter is not valid percent-encoded UTF-8 (the operation answers it as invalid input). */
  params: Record<string, string> | null;
}

/** One segment of a route template: a literal, a whole parameter, or text with parameters in it (`{id}.html`). */
type Segment = { literal: string } | { param: string } | { pattern: RegExp; names: string[] };

interface Route {
  tool: Tool;
  segments: Segment[];
}

/**
 * The operations' routes in one table, so a call finds its route in one lookup instead of walking
 * every mounted route in turn. It matches as Express does (case-insensitive, an optional trailing
 * slash, a parameter is one non-empty segment, the first route mounted wins); what it does not
 * find (another method, OPTIONS) is left to the Express router behind it.
 */
export function routeTable(tools: Tool[]): (method: string, path: string) => RouteMatch | undefined {
  const literal = new Map<string, Tool>();
  const templated = new Map<string, Route[]>();
  for (const tool of tools) {
    for (const path of [tool.path, ...tool.aliases]) {
      const parts = split(path);
      const segments = parts.map(compileSegment);
      if (segments.every((s) => 'literal' in s)) {
        // a template mounted before it takes the path first, in Express as here
        const shadowed = (templated.get(`${tool.method} ${parts.length}`) ?? []).some((r) => matchRoute(r, parts) !== undefined);
        const at = `${tool.method} ${parts.join('/').toLowerCase()}`;
        if (!shadowed && !literal.has(at)) literal.set(at, tool);
        continue;
      }
      const at = `${tool.method} ${parts.length}`;
      templated.set(at, [...(templated.get(at) ?? []), { tool, segments }]);
    }
  }
  return (requestMethod, path) => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    const parts = split(path);
    const tool = literal.get(`${method} ${parts.join('/').toLowerCase()}`);
    if (tool) return { tool, params: {} };
    for (const route of templated.get(`${method} ${parts.length}`) ?? []) {
      const params = matchRoute(route, parts);
      if (params !== undefined) return { tool: route.tool, params };
    }
    return undefined;
  };
}

/** Segments without the leading slash and one trailing slash. */
function split(path: string): string[] {
  return path.replace(/^\//, '').replace(/\/$/, '').split('/');
}

const PARAM = /\{([A-Za-z0-9_]+)\}/g;

function compileSegment(text: string): Segment {
  const names = [...text.matchAll(PARAM)].map((m) => m[1]);
  if (!names.length) return { literal: text.toLowerCase() };
  if (names.length === 1 && text === `{${names[0]}}`) return { param: names[0] };
  const source = text
    .split(PARAM)
    .map((piece, i) => (i % 2 ? '([^/]+?)' : piece.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
  return { pattern: new RegExp(`^${source}$`, 'i'), names };
}

/** The route's decoded parameters; undefined when the path is not the route's, null when a parameter cannot be decoded. */
function matchRoute(route: Route, parts: string[]): Record<string, string> | null | undefined {
  const raw: [string, string][] = [];
  for (let i = 0; i < parts.length; i++) {
    const segment = route.segments[i];
    if ('literal' in segment) {
      if (segment.literal !== parts[i].toLowerCase()) return undefined;
    } else if ('param' in segment) {
      if (parts[i] === '') return undefined;
      raw.push([segment.param, parts[i]]);
    } else {
      const m = segment.pattern.exec(parts[i]);
      if (!m) return undefined;
      segment.names.forEach((name, n) => raw.push([name, m[n + 1]]));
    }
  }
  const params: Record<string, string> = {};
  try {
    for (const [name, value] of raw) params[name] = decodeURIComponent(value);
  } catch {
    return null;
  }
  return params;
}
