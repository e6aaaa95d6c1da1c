import type { AuthorizationRequest } from '../oauth/authorization-request.js';
import { hostOf, type AppCall, type ConnectedApp } from '../../platform/oauth-store.js';
import { isLoopbackHost } from '../oauth/redirect-uris.js';
import type { DashboardAccount } from './accounts.js';
import { alert, appPage, authPage, csrfField, fmtDateTime, fmtInt, html, signOutForm } from './html.js';

const WHAT_IT_MAY_DO = [
  'call this service’s MCP tools at /mcp as this account (hotel rates, OTA and web-data lookups)',
  'spend this account’s credits: its calls are metered, rate-limited and listed in usage like your API key’s',
];
const WHAT_IT_MAY_NOT = 'It cannot see your password or API key, change your account, or use the REST API.';

/** Who the client says it is, and how much of that is verified. */
function identity(r: AuthorizationRequest) {
  const c = r.client;
  if (c.registration === 'metadata_document') {
    return html`<p class="muted">Identified by its published client document at <code>${hostOf(c.client_id)}</code>.</p>`;
  }
  return html`<p class="muted">This app registered itself; its name is not verified.</p>`;
}

export function consentPage(o: { account: DashboardAccount; csrf: string; request: AuthorizationRequest; params: Record<string, string> }): string {
  const r = o.request;
  const redirect = new URL(r.redirectUri);
  const local = (redirect.protocol === 'http:' || redirect.protocol === 'https:') && isLoopbackHost(redirect.hostname);
  const hidden = Object.entries(o.params).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return authPage({
    title: 'Connect an app',
    body: html`<div class="card consent"><h1>Connect ${r.client.client_name}?</h1>
<p class="lead"><strong>${r.client.client_name}</strong> asks to use your account <strong>${o.account.email}</strong>.</p>
${identity(r)}
<h2>It will be able to</h2><ul>${WHAT_IT_MAY_DO.map((w) => html`<li>${w}</li>`)}</ul>
<p class="muted">${WHAT_IT_MAY_NOT}</p>
<p>After you approve, you are sent back to <code>${hostOf(r.redirectUri)}</code>.</p>
${local ? alert('error', 'That address is on your own computer: approve only if you just started this connection from an app running there.') : html``}
<form method="post" action="/dashboard/oauth/authorize">${csrfField(o.csrf)}${hidden}
<button type="submit" name="decision" value="approve" id="approve">Approve</button>
<button type="submit" name="decision" value="deny" id="deny" class="secondary">Deny</button></form>
<p class="hint">You can disconnect it at any time under Connected apps.</p></div>
<div class="foot">Signed in as ${o.account.email} · ${signOutForm(o.csrf)}</div>`,
  });
}

/** Calls listed under the apps. */
export const APP_CALL_ROWS = 20;

function callsCard(calls: AppCall[]) {
  if (!calls.length) return html``;
  const rows = calls.map(
    (c) =>
      html`<tr><td>${fmtDateTime(c.created_at)}</td><td>${c.client_name}</td><td><code>${c.method} ${c.path}</code></td><td class="num">${c.status}</td><td class="num">${fmtInt(c.credits)}</td><td><code>${c.id}</code></td></tr>`,
  );
  return html`<div class="card"><h2>Recent calls by apps</h2><table><thead><tr><th>Time</th><th>App</th><th>Call</th><th class="num">Status</th><th class="num">Credits</th><th>Request</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">The latest ${APP_CALL_ROWS} at most; they also count in Usage, with the account's other requests.</p></div>`;
}

export function connectedAppsPage(o: { account: DashboardAccount; csrf: string; apps: ConnectedApp[]; calls: AppCall[]; notice?: string }): string {
  const rows = o.apps.map(
    (
      a,
    ) => html`<tr><td><strong>${a.client_name}</strong><div class="hint">${a.registration === 'metadata_document' ? `client document at ${hostOf(a.client_id)}` : 'self-registered'} · returns to ${a.redirect_hosts.join(', ')}</div></td>
<td>${fmtDateTime(a.created_at)}</td><td>${a.last_used_at ? fmtDateTime(a.last_used_at) : 'never'}</td>
<td class="num">${fmtInt(a.calls_30d)}</td><td class="num">${fmtInt(a.credits_30d)}</td>
<td class="num"><form class="inline" method="post" action="/dashboard/apps/revoke">${csrfField(o.csrf)}<input type="hidden" name="grant" value="${a.grant_id}"><button class="secondary" type="submit">Disconnect</button></form></td></tr>`,
  );
  const body = o.apps.length
    ? html`<table><thead><tr><th>App</th><th>Connected</th><th>Last used</th><th class="num">Calls (30 d)</th><th class="num">Credits (30 d)</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="empty">No app is connected. Add this service to an MCP client by its URL (<code>/mcp</code>) and approve it here when asked.</p>`;
  return appPage({
    title: 'Connected apps',
    section: 'apps',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Connected apps</h1><p class="lead">Apps you allowed to call <code>/mcp</code> as this account with OAuth. Disconnecting one stops its access at once.</p>
${alert('ok', o.notice)}<div class="card"><h2>Apps</h2>${body}</div>${callsCard(o.calls)}`,
  });
}
