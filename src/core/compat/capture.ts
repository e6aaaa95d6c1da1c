import type { CapturedReply } from '../../platform/search-archive.js';
import type { UpstreamResponse } from '../../upstream/client.js';
import type { Upstream } from '../../upstream/scope.js';

/**
 * Watches the upstream requests of one compatible search: their summed time is the envelope's
 * request_time_taken, the first request's URL its request_url, and the first reply the page that
 * html_url serves.
 */
export class UpstreamTap {
  readonly replies: CapturedReply[] = [];
  requestMs = 0;

  /** `upstream` with its requests, and those of every scope made inside it, watched by this tap. */
  around(upstream: Upstream): Upstream {
    return {
      session: upstream.session,
      fetch: async (req): Promise<UpstreamResponse> => {
        const started = performance.now();
        try {
          const res = await upstream.fetch(req);
          this.replies.push({ url: res.url, contentType: res.headers['content-type'] ?? null, body: res.body });
          return res;
        } finally {
          this.requestMs += performance.now() - started;
        }
      },
      scoped: (scope) => this.around(upstream.scoped(scope)),
      browserFallback: (req) => upstream.browserFallback(req),
      identifiers: upstream.identifiers,
    };
  }
}
