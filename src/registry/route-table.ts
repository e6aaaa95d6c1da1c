import type { Tool } from './define-tool.js';

export interface RouteMatch {
  tool: Tool;
  /** null when a parameter is not valid percent-encoded UTF-8 (the operation answers it as invalid input). */
  params: Record<string, string> | null;
}

interface Route {
  tool: Tool;
  /** Per segment: the literal (lower case), or null for a parameter. */
  parts: (string | null)[];
  names: string[];
}

/**
 * The operations' routes in one table, so a call finds its route in one lookup instead of walking
 * every mounted route in turn. It matches as Express does (case-insensitive, an optional trailing
 * slash, a parameter is one non-empty segment); what it does not find (another method, OPTIONS)
 * is left to the Express router behind it.
 */
export function routeTable(tools: Tool[]): (method: string, path: string) => RouteMatch | undefined {
  const literal = new Map<string, Tool>();
  const templated = new Map<string, Route[]>();
  for (const tool of tools) {
    for (const path of [tool.path, ...tool.aliases]) {
      const segments = split(path);
      if (!segments.some((s) => s.startsWith('{'))) {
        // a template mounted before it takes the path first, in Express as here
        const shadowed = (templated.get(`${tool.method} ${segments.length}`) ?? []).some((r) => matchRoute(r, segments) !== undefined);
        const at = `${tool.method} ${segments.join('/').toLowerCase()}`;
        if (!shadowed && !literal.has(at)) literal.set(at, tool);
        continue;
      }
      const at = `${tool.method} ${segments.length}`;
      const route: Route = {
        tool,
        parts: segments.map((s) => (s.startsWith('{') ? null : s.toLowerCase())),
        names: segments.filter((s) => s.startsWith('{')).map((s) => s.slice(1, -1)),
      };
      templated.set(at, [...(templated.get(at) ?? []), route]);
    }
  }
  return (requestMethod, path) => {
    const method = requestMethod === 'HEAD' ? 'GET' : requestMethod;
    const segments = split(path);
    const tool = literal.get(`${method} ${segments.join('/').toLowerCase()}`);
    if (tool) return { tool, params: {} };
    for (const route of templated.get(`${method} ${segments.length}`) ?? []) {
      const params = matchRoute(route, segments);
      if (params !== undefined) return { tool: route.tool, params };
    }
    return undefined;
  };
}

/** Segments without the leading slash and one trailing slash. */
function split(path: string): string[] {
  return path.replace(/^\//, '').replace(/\/$/, '').split('/');
}

/** The route's decoded parameters; undefined when the path is not the route's, null when a parameter cannot be decoded. */
function matchRoute(route: Route, segments: string[]): Record<string, string> | null | undefined {
  const params: Record<string, string> = {};
  let decodable = true;
  let n = 0;
  for (let i = 0; i < segments.length; i++) {
    const part = route.parts[i];
    if (part === null) {
      if (segments[i] === '') return undefined;
      try {
        params[route.names[n++]] = decodeURIComponent(segments[i]);
      } catch {
        decodable = false;
      }
    } else if (part !== segments[i].toLowerCase()) return undefined;
  }
  return decodable ? params : null;
}
