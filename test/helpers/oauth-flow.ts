import { createHash, randomBytes } from 'node:crypto';
import type { Sql } from '../../src/db/client.js';
import { createDashboardAccount } from '../../src/doors/dashboard/accounts.js';
import type { PlanCode } from '../../src/platform/plans.js';
import { FormBrowser } from './form-browser.js';

export function pkcePair() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** A dashboard account ready to sign in (temporary password already replaced) and a browser signed in to it. */
export async function signedInAccount(sql: Sql, base: string, email: string, plan: PlanCode = 'starter') {
  const issued = await createDashboardAccount(sql, { email, plan });
  await sql`UPDATE accounts SET must_change_password = false WHERE id = ${issued.accountId}`;
  const browser = new FormBrowser(base);
  const res = await browser.signIn(email, issued.temporaryPassword);
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return { browser, accountId: issued.accountId, email, password: issued.temporaryPassword };
}

export async function registerClient(base: string, metadata: Record<string, unknown>) {
  const res = await fetch(`${base}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(metadata) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

export async function tokenRequest(base: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, any> };
}

export const authorizeUrl = (params: Record<string, string>) => `/dashboard/oauth/authorize?${new URLSearchParams(params)}`;

/** Opens the consent page with a signed-in browser and answers it; returns where the browser is sent. */
export async function consent(browser: FormBrowser, params: Record<string, string>, decision: 'approve' | 'deny' = 'approve') {
  const page = await browser.request(authorizeUrl(params));
  if (page.status !== 200) return { status: page.status, location: page.location, text: page.text };
  const form: Record<string, string> = { decision };
  for (const m of page.text.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) form[m[1]] = decodeHtml(m[2]);
  const answer = await browser.request('/dashboard/oauth/authorize', { form });
  return { status: answer.status, location: answer.location, text: answer.text, page };
}

const decodeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** The whole authorization-code flow for a registered client; returns the token response. */
export async function codeFlow(base: string, browser: FormBrowser, client: { client_id: string; redirect_uri: string }, extra: Record<string, string> = {}) {
  const { verifier, challenge } = pkcePair();
  const state = randomBytes(8).toString('hex');
  const answer = await consent(browser, {
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: client.redirect_uri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state,
    resource: `${base}/mcp`,
    scope: 'mcp',
    ...extra,
  });
  const back = new URL(answer.location!);
  if (back.searchParams.get('state') !== state) throw new Error(`state not returned: ${answer.location}`);
  const code = back.searchParams.get('code')!;
  const tokens = await tokenRequest(base, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: client.redirect_uri,
    code_verifier: verifier,
    client_id: client.client_id,
    resource: `${base}/mcp`,
  });
  return { code, verifier, redirect: back, tokens };
}

/** One JSON-RPC request to /mcp with a bearer credential. */
export async function mcpRequest(base: string, bearer: string | undefined, method: string, params: Record<string, unknown> = {}) {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
  };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`${base}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  const text = await res.text();
  // The reply is JSON, or one server-sent event carrying it.
  const json = res.headers.get('content-type')?.startsWith('text/event-stream') ? /^data: (.*)$/m.exec(text)?.[1] : text;
  return { status: res.status, challenge: res.headers.get('www-authenticate'), body: json ? JSON.parse(json) : null };
}
