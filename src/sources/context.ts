import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { Upstream, UpstreamScope, WebsiteFetch } from '../upstream/scope.js';
import type { JobsBrowser } from './jobsearch/browser.js';

/**
 * Everything a source may use, handed to it by its caller (a tool handler, the calendar worker, a
 * comparison): the upstream client, the SSRF-safe website fetcher, the browser of the rendered
 * searches, the settings and the logger, each already in the caller's scope. A source's functions
 * declare the part they use (`SourceUses`), and every part is required: a source that needs
 * something its caller does not give fails to compile instead of answering 503 at run time.
 */
export interface SourceContext {
  upstream: Upstream;
  safeFetch: WebsiteFetch;
  /** One headless browser per process, launched on first use. */
  jobsBrowser: JobsBrowser;
  config: Config;
  log: Logger;
}

type SourceService = Exclude<keyof SourceContext, 'config'>;

/** The part of SourceContext a source uses: the services `S` and the settings `C`. */
export type SourceUses<S extends SourceService, C extends keyof Config = never> = Pick<SourceContext, S> &
  ([C] extends [never] ? unknown : { config: Pick<Config, C> });

/**
 * The same context with every upstream and website request also in `scope`: one API call's
 * session and its caller's hang-up, a batch item's session, a compared source's deadline.
 */
export function scopeSources<T extends Pick<SourceContext, 'upstream' | 'safeFetch'>>(ctx: T, scope: UpstreamScope): T {
  return { ...ctx, upstream: ctx.upstream.scoped(scope), safeFetch: ctx.safeFetch.scoped(scope) };
}
