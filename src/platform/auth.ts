import type { Request } from 'express';
import { Unauthorized } from '../domain/errors.js';
import type { PlatformPath } from './fast-path.js';
import type { AuthedKey } from './keys.js';

/**
 * The key travels as `x-api-key` or `Authorization: Bearer`; `api_key` in the query only
 * where the route allows it (GET routes of the compatible search family).
 */
export function presentedKey(req: Request, allowQuery: boolean): string | undefined {
  const header = req.get('x-api-key');
  if (header) return header.trim();
  const auth = req.get('authorization');
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    return m ? m[1] : undefined;
  }
  if (allowQuery && req.method === 'GET') {
    const q = req.query.api_key;
    if (typeof q === 'string') return q;
  }
  return undefined;
}

export async function requireKey(deps: { platform: PlatformPath }, req: Request, opts: { allowQuery?: boolean; admit?: boolean } = {}): Promise<AuthedKey> {
  const key = await deps.platform.authenticate(presentedKey(req, opts.allowQuery ?? false), opts.admit ?? false);
  if (!key) throw new Unauthorized();
  return key;
}
