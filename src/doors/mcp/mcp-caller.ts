import type { ServiceDeps } from '../../core/service-deps.js';
import type { AuthedKey } from '../../platform/keys.js';

/** Who a tool call is made for, resolved once per HTTP request (or per stdio connection) in front of the server. */
export interface McpCaller {
  key: AuthedKey;
  /** The id of the next call's history record (over HTTP the request's own x-request-id, so that id finds it). */
  nextRequestId(): string;
  /** This service's base URL as the client reached it (over HTTP), for the links an answer hands out. */
  origin?: string;
}

/** What a tool call runs with: the process's dependencies and the caller. */
export interface McpCallContext {
  deps: ServiceDeps;
  caller: McpCaller;
}
