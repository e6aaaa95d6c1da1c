/**
 * The rental platform after a release that rotated its persisted-query hashes, built from the public
 * reports of it (test/fixtures/README.md, "Rotated persisted-query hash"): the old hash answers
 * GraphQL's `PersistedQueryNotFound`; the home page loads the `asyncRequire` loader from the static
 * folder (`…/packages/web/<locale>/frontend/airmetro/browser/asyncRequire.<build>.js`); the loader's
 * module map names the route module (`StaysSearchRoute.prepare.<build>.js`) among many others; and
 * the current hash no longer sits in the route module but in a chunk near it in the map, beside the
 * operation's name. Each script served is counted, so a test sees how far a scan went.
 */
import type { RecordedRequest, ReplayRoute } from './server.js';

const STATIC = '/static/packages/web/';
const LOADER = 'en/frontend/airmetro/browser/asyncRequire.5f1c0e2a.js';
const ROUTE_MODULE = 'common/frontend/stays-search/routes/StaysSearchRoute/StaysSearchRoute.prepare.9b3d7c11.js';

/** A chunk as the site's bundler writes one: a module that exports the operation's persisted-query document. */
function operationChunk(operation: string, hash: string): string {
  return (
    `"use strict";(self.webpackChunk=self.webpackChunk||[]).push([[7311],{48213:(e,t,n)=>{n.d(t,{A:()=>r});` +
    `const r={params:{id:null,metadata:{},name:"${operation}",operationKind:"query",text:null},` +
    `extensions:{persistedQuery:{version:1,sha256Hash:"${hash}"}}}}}]);`
  );
}

const filler = (n: number) => `"use strict";(self.webpackChunk=self.webpackChunk||[]).push([[${n}],{${n}:(e,t,n)=>{n.d(t,{A:()=>()=>null})}}]);`;

export interface RotatedSite {
  routes: ReplayRoute[];
  /** Scripts served so far (the loader and every chunk). */
  scriptsServed(requests: readonly RecordedRequest[]): number;
}

/**
 * `prefix`: where the source's base URL points on the replay server (`/rentaltwo`). `current`: the
 * hash per operation the chunks hold now. `before`: chunks listed in the module map ahead of the
 * route module; `after`: the position after the route module of the chunk holding the hashes (the
 * other positions are filler), out of `mapSize` entries after it.
 */
export function rotatedHashSite(prefix: string, current: Record<string, string>, layout = { before: 20, after: 3, mapSize: 40 }): RotatedSite {
  const fillers = Array.from({ length: layout.before + layout.mapSize }, (_, i) => `common/frontend/shared/chunk-${1000 + i}.${(i * 7919).toString(16)}.js`);
  const holder = 'common/frontend/niobe/queries/chunk-7311.a1b2c3d4.js';
  const map = [...fillers.slice(0, layout.before), ROUTE_MODULE, ...fillers.slice(layout.before)];
  map.splice(layout.before + layout.after, 0, holder);
  const loader = `(function(){var m=${JSON.stringify(Object.fromEntries(map.map((p, i) => [i + 1, p])))};window.__asyncRequire=function(id){return m[id]}})();`;
  const home =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Example rentals</title>` +
    `<script src="${prefix}${STATIC}en/frontend/airmetro/browser/runtime.1a2b.js" defer></script>` +
    `<script src="${prefix}${STATIC}${LOADER}" defer></script></head><body><div id="root"></div></body></html>`;
  const script = (path: string, body: string): ReplayRoute => ({
    path: `${prefix}${STATIC}${path}`,
    headers: { 'content-type': 'application/javascript' },
    body,
  });
  const holderText = Object.entries(current)
    .map(([op, hash]) => operationChunk(op, hash))
    .join('\n');
  const routes: ReplayRoute[] = [
    { path: `${prefix}/`, headers: { 'content-type': 'text/html; charset=utf-8' }, body: home },
    script('en/frontend/airmetro/browser/runtime.1a2b.js', filler(1)),
    script(LOADER, loader),
    // the route module still names the operation, without its hash (it moved to another chunk)
    script(ROUTE_MODULE, `"use strict";(self.webpackChunk=self.webpackChunk||[]).push([[7310],{48212:(e,t,n)=>{n(48213);const o="StaysSearch"}}]);`),
    script(holder, holderText),
    ...fillers.map((f, i) => script(f, filler(2000 + i))),
  ];
  return {
    routes,
    scriptsServed: (requests) => requests.filter((r) => r.path.startsWith(`${prefix}${STATIC}`)).length,
  };
}
