/** Replay pieces the web-data routes share between their tests: recorded payloads put where the real pages carry them. */
import { readFixture } from './fixtures.js';
import { newpipeBody } from './recorded.js';
import type { RecordedRequest, ReplayRoute } from '../replay/server.js';

const json = { 'content-type': 'application/json' };

/** The recorded innertube body of a NewPipe mock, served with its recorded status. */
export function newpipeRoute(rel: string, path: string, match: (body: any) => boolean): ReplayRoute {
  const { status, text } = newpipeBody(rel);
  return { method: 'POST', path, status, body: text, headers: json, match: (r: RecordedRequest) => match(JSON.parse(r.body || '{}')) };
}

/** A watch page carrying only a recorded player answer (the form ytInitialPlayerResponse takes on the page). */
export function watchPage(playerRel: string): string {
  return `<html><body><script>var ytInitialPlayerResponse = ${readFixture(playerRel)};</script></body></html>`;
}

/** A retailer page whose `__NEXT_DATA__` carries `props.pageProps.initialData`, where the recorded subtrees come from. */
export function nextDataPage(initialData: unknown): string {
  const data = JSON.stringify({ props: { pageProps: { initialData } } }).replace(/</g, '\\u003c');
  return `<!doctype html><html><head><title>Walmart.com</title></head><body><div id="__next"></div><script id="__NEXT_DATA__" type="application/json">${data}</script></body></html>`;
}
