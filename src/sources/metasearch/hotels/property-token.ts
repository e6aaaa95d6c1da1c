import type { z } from 'zod';
import { InvalidInput } from '../../../domain/errors.js';

/**
 * `property_token` is the one name of a metasearch property token across the tools. Some routes
 * first took it as `token`, which they still accept (deprecated, left out of the MCP listing);
 * property_token wins when both come.
 */
export function propertyTokenFields<T extends z.ZodType<string>>(token: T) {
  return {
    property_token: token.optional().describe("from resolve_hotel (a match's token) or search_hotels"),
    token: token.optional().meta({ deprecated: true, description: 'older name of property_token' }),
  };
}

/** The input with its property token under `token`, the name the handlers read. */
export function asToken<T extends { property_token?: string; token?: string }>(v: T): Omit<T, 'property_token' | 'token'> & { token: string } {
  const { property_token, token, ...rest } = v;
  const chosen = property_token ?? token;
  if (!chosen) throw new InvalidInput([{ type: 'missing', loc: ['body', 'property_token'], msg: 'Field required', input: null }]);
  return { ...rest, token: chosen };
}
