/**
 * MCP Apps (the io.modelcontextprotocol/ui extension, SEP-1865): a tool whose descriptor names an
 * app (mcp.app) lists `_meta.ui.resourceUri`, and that `ui://` resource is a self-contained HTML
 * page (text/html;profile=mcp-app) which hosts that render apps show in a sandboxed frame and feed
 * the tool's result. A client without apps ignores both: the tool result is the same for every
 * client. The pages are bundled by the build (scripts/build.mjs) into dist/apps/<app>.html.
 */
import fs from 'node:fs';
import { RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import type { McpUiResourceMeta } from '@modelcontextprotocol/ext-apps';
import { ResourceNotFoundError, type ReadResourceResult, type Resource } from '@modelcontextprotocol/server';
import type { Tool } from '../../core/define-tool.js';
import { THUMBNAIL_ORIGINS } from './apps/views/thumbnail-origins.js';

/** What a host shows of each app before it runs it. */
const APPS: Record<string, { title: string; description: string; resourceDomains?: string[] }> = {
  'hotel-calendar': {
    title: 'Hotel price calendar',
    description:
      'Month grids of a hotel’s nightly prices from get_hotel_calendar: cheap to dear, the cheapest nights starred, unavailable and minimum-stay nights marked.',
  },
  'hotel-parity': {
    title: 'Hotel price parity',
    description:
      'The parity verdict of compare_hotel_prices with its basis, and every seller side by side: the official site marked, the cheapest starred, failures and exclusions.',
  },
  'hotel-offers': {
    title: 'Hotel offers per seller',
    description:
      'The sellers of one stay side by side from get_hotel_offers (or get_stay_price’s headline price and cheapest seller): all-in totals, free cancellation, the official site marked, Book buttons.',
  },
  flights: {
    title: 'Flights',
    description:
      'Itineraries of search_flights and get_return_flights (whole-trip prices, legs, layovers; the next step through the host) and the booking options of get_booking_options with Book buttons that open the signed booking link.',
  },
  'hotel-search': {
    title: 'Hotel search',
    description:
      'The properties of search_hotels as cards: photo, class, guest rating, the stay’s price, amenities; each one’s sellers and prices through the host (get_hotel_offers), its own website.',
    resourceDomains: THUMBNAIL_ORIGINS,
  },
};

/**
 * The pages fetch nothing (scripts and styles inline, no font from elsewhere): an empty CSP
 * allow-list, which hosts turn into a policy that lets the frame reach no host at all, but for the
 * images of an app that shows the upstream's own thumbnails (its resourceDomains).
 */
function uiMeta(app: string): McpUiResourceMeta {
  return { csp: { connectDomains: [], resourceDomains: APPS[app]?.resourceDomains ?? [] }, prefersBorder: true };
}

/** Built next to the compiled modules (dist/src/… → dist/apps) or, run from the sources, in the build's dist/apps. */
const PAGES = new URL(import.meta.url.includes('/dist/src/') ? '../../../apps/' : '../../../dist/apps/', import.meta.url);

function appUri(app: string): string {
  return `ui://hotelrates/${app}`;
}

/**
 * The listing `_meta` of a tool with an app: the resource it shows in, as the extension's stable
 * revision (2026-01-26) names it. Not also under the flat `ui/resourceUri` key of its drafts, which
 * the SDK's registerAppTool still writes: hosts of the stable revision read `ui.resourceUri`, and
 * tools/list stays within its budget (test/integration/mcp/agent.test.ts).
 */
export function appToolMeta(tool: Tool): Record<string, unknown> {
  return tool.mcp.app ? { ui: { resourceUri: appUri(tool.mcp.app) } } : {};
}

/** The apps of the tools served, as resources/list gives them. */
export function appResources(tools: Iterable<Tool>): Resource[] {
  const names = new Set([...tools].flatMap((t) => (t.mcp.app ? [t.mcp.app] : [])));
  return [...names].map((app) => {
    const about = APPS[app];
    if (!about) throw new Error(`tool app "${app}" is not in the apps catalogue (src/doors/mcp/mcp-apps.ts)`);
    return { uri: appUri(app), name: app, title: about.title, description: about.description, mimeType: RESOURCE_MIME_TYPE, _meta: { ui: uiMeta(app) } };
  });
}

const pages = new Map<string, string>();

/** resources/read of an app's page; any other URI is the protocol's resource-not-found error (-32602, data.uri). */
export function readAppResource(resources: Resource[], uri: string): ReadResourceResult {
  const resource = resources.find((r) => r.uri === uri);
  if (!resource) throw new ResourceNotFoundError(uri.slice(0, 200));
  let text = pages.get(resource.name);
  if (text === undefined) {
    // read once per process: the page changes only with a build
    const file = new URL(`${resource.name}.html`, PAGES);
    if (!fs.existsSync(file)) throw new Error(`the page of app ${resource.name} is not built (npm run build)`);
    text = fs.readFileSync(file, 'utf8');
    pages.set(resource.name, text);
  }
  return { contents: [{ uri, mimeType: RESOURCE_MIME_TYPE, text, _meta: { ui: uiMeta(resource.name) } }] };
}
