import { forwarding, type AppDeps } from '../../app/deps.js';
import type { UpstreamRequest, UpstreamResponse } from '../../upstream/client.js';

/** One upstream reply of a compatible search, as received (decoded body). */
export interface CapturedReply {
  url: string;
  contentType: string | null;
  body: Buffer;
}

/**
 * Watches the upstream requests of one compatible search: their summed time is the envelope's
 * request_time_taken, the first request's URL its request_url, and the first reply the page that
 * html_url serves. Requests of services built at start-up (the calendar collector) are not seen.
 */
export class UpstreamTap {
  readonly replies: CapturedReply[] = [];
  requestMs = 0;

  scope(deps: AppDeps): AppDeps {
    const upstream = deps.services.upstream;
    if (!upstream) return deps;
    const tapped = forwarding(upstream, 'fetch', (fetch) => async (req: UpstreamRequest): Promise<UpstreamResponse> => {
      const started = performance.now();
      try {
        const res = await fetch(req);
        this.replies.push({ url: res.url, contentType: res.headers['content-type'] ?? null, body: res.body });
        return res;
      } finally {
        this.requestMs += performance.now() - started;
      }
    });
    return { ...deps, services: { ...deps.services, upstream: tapped } };
  }
}
