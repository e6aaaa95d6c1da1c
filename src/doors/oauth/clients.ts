import { createHash, timingSafeEqual } from 'node:crypto';
import type { Request } from 'express';
import type { ServiceDeps } from '../../core/service-deps.js';
import type { Db } from '../../db/client.js';
import { newId, randomToken } from '../../domain/ids.js';
import { isObject } from '../../domain/json.js';
import { badText } from '../../core/validation.js';
import {
  deleteStaleRegistrations,
  evictPendingClients,
  findClientRow,
  insertDynamicClient,
  upsertMetadataDocumentClient,
  type OAuthClient,
} from '../../platform/oauth-store.js';
import { CLIENT_AUTH_METHODS, parseClientMetadata, type ClientAuthMethod } from './client-metadata.js';
import { OAuthProblem, invalidClient, invalidRequest } from './errors.js';

export { CLIENT_AUTH_METHODS, type OAuthClient };

const sha256 = (v: string) => createHash('sha256').update(v).digest();

/**
 * Dynamic client registration (RFC 7591): a public client, or a confidential one with a secret
 * shown once. Only the metadata kept (see parseClientMetadata) is stored and echoed. Clients no
 * account approved are capped at `pendingMax`, the oldest evicted first.
 */
export async function registerClient(sql: Db, body: unknown, pendingMax: number) {
  const meta = parseClientMetadata(body, 'client metadata');
  // RFC 7591 §2: the default method is client_secret_basic.
  const method = meta.token_endpoint_auth_method ?? 'client_secret_basic';
  const clientId = newId('mcpc', 24);
  const secret = method === 'none' ? null : `hrs_${randomToken(43)}`;
  const name = meta.client_name ?? 'Unnamed app';
  const kept = {
    ...meta,
    client_name: name,
    token_endpoint_auth_method: method,
    grant_types: meta.grant_types ?? ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
  await insertDynamicClient(sql, {
    clientId,
    name,
    clientUri: meta.client_uri ?? null,
    redirectUris: meta.redirect_uris,
    method,
    secretHash: secret ? sha256(secret) : null,
    metadata: kept,
  });
  await evictPendingClients(sql, pendingMax);
  return {
    client_id: clientId,
    client_id_issued_at: Math.floor(Date.now() / 1000),
    ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
    ...kept,
  };
}

/**
 * The hourly prune: registrations no account approved within a week go (their app registers again
 * when it needs to), and the cap on clients no account approved is applied again.
 */
export async function prunePendingClients(sql: Db, max: number): Promise<number> {
  return (await deleteStaleRegistrations(sql)) + (await evictPendingClients(sql, max));
}

/** A client id that names a Client ID Metadata Document: an HTTPS URL with a path. */
function isMetadataDocumentId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

const DOCUMENT_MAX_BYTES = 10 * 1024;
const CACHE_S = { min: 300, default: 3600, max: 86_400 };

/** What the client registry uses: its table, the settings and the fetcher of metadata documents. */
type ClientsDeps = Pick<ServiceDeps, 'sql' | 'config' | 'safeFetch'>;

/** The client named by `clientId`: a registered one, or a metadata document fetched (and cached) on demand. */
export async function findClient(deps: ClientsDeps, clientId: string): Promise<OAuthClient> {
  if (!clientId || clientId.length > 2000 || badText(clientId)) throw invalidRequest('client_id is missing, too long or not valid text');
  const row = await findClientRow(deps.sql, clientId);
  if (!isMetadataDocumentId(clientId)) {
    if (!row) throw invalidClient('unknown client_id');
    return row;
  }
  if (row?.refresh_after && row.refresh_after > new Date()) return row;
  return fetchMetadataDocument(deps, clientId);
}

/** Client ID Metadata Document: fetched through the SSRF-safe fetcher, checked, cached as its Cache-Control allows. */
async function fetchMetadataDocument(deps: ClientsDeps, clientId: string): Promise<OAuthClient> {
  const url = new URL(clientId);
  if (url.pathname === '/' || url.hash || url.username || url.password || /\/\.\.?(\/|$)/.test(url.pathname) || url.href !== clientId) {
    throw invalidClient('a URL client_id must be an https URL with a path, without fragment, credentials or dot segments');
  }
  let res;
  try {
    res = await deps.safeFetch.fetch(clientId, { headers: { accept: 'application/json' } });
  } catch (err) {
    throw invalidClient(`the client metadata document could not be fetched (${(err as Error).message.slice(0, 120)})`);
  }
  if (res.redirects.length > 0) throw invalidClient('the client metadata document must be served at the client_id URL itself, not through a redirect');
  if (res.status !== 200) throw invalidClient(`the client metadata document answered HTTP ${res.status}`);
  if (res.body.length > DOCUMENT_MAX_BYTES) throw invalidClient(`the client metadata document is larger than ${DOCUMENT_MAX_BYTES} bytes`);
  let doc: unknown;
  try {
    doc = JSON.parse(res.body.toString('utf8'));
  } catch {
    throw invalidClient('the client metadata document is not JSON');
  }
  if (!isObject(doc) || doc.client_id !== clientId) throw invalidClient('the client metadata document must state the same client_id as its URL');
  if ('client_secret' in doc || 'client_secret_expires_at' in doc) throw invalidClient('a client metadata document must not contain a client secret');
  const meta = parseClientMetadata(doc, 'client metadata document');
  if (!meta.client_name) throw invalidClient('the client metadata document must name the client (client_name)');
  if ((meta.token_endpoint_auth_method ?? 'none') !== 'none')
    throw invalidClient('clients identified by a metadata document authenticate with PKCE only (token_endpoint_auth_method "none")');
  const maxAge = /(?:^|,)\s*max-age=(\d+)/i.exec(res.headers['cache-control'] ?? '');
  const noStore = /no-store|no-cache/i.test(res.headers['cache-control'] ?? '');
  const cacheS = noStore ? CACHE_S.min : Math.min(CACHE_S.max, Math.max(CACHE_S.min, maxAge ? Number(maxAge[1]) : CACHE_S.default));
  const client = await upsertMetadataDocumentClient(deps.sql, {
    clientId,
    name: meta.client_name,
    clientUri: meta.client_uri ?? null,
    redirectUris: meta.redirect_uris,
    metadata: { client_id: clientId, ...meta },
    cacheS,
  });
  await evictPendingClients(deps.sql, deps.config.OAUTH_PENDING_CLIENTS_MAX);
  return client;
}

/**
 * Client authentication at the token and revocation endpoints (RFC 6749 §2.3): HTTP Basic, the
 * secret in the form, or (public clients) the client_id alone. The method must be the registered one.
 */
export async function authenticateClient(deps: ClientsDeps, req: Request): Promise<OAuthClient> {
  const form = (req.body ?? {}) as Record<string, unknown>;
  let clientId = typeof form.client_id === 'string' ? form.client_id : undefined;
  let secret: string | undefined;
  let method: ClientAuthMethod = 'none';
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(req.get('authorization') ?? '');
  if (basic) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient('malformed Basic credentials');
    try {
      clientId = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    } catch {
      throw invalidClient('malformed Basic credentials');
    }
    method = 'client_secret_basic';
  } else if (typeof form.client_secret === 'string') {
    secret = form.client_secret;
    method = 'client_secret_post';
  }
  if (!clientId) throw invalidClient('client authentication failed: no client_id');
  const client = await findClient(deps, clientId).catch((err) => {
    throw err instanceof OAuthProblem ? invalidClient('client authentication failed') : err;
  });
  if (client.token_endpoint_auth_method !== method)
    throw invalidClient(`client authentication failed: this client authenticates with ${client.token_endpoint_auth_method}`);
  if (method !== 'none') {
    const presented = sha256(secret ?? '');
    if (!client.client_secret_hash || !timingSafeEqual(presented, client.client_secret_hash)) throw invalidClient('client authentication failed');
  }
  return client;
}
