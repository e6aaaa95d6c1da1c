import type { CreatedKey } from '../../platform/keys.js';
import type { Balance } from '../../platform/credits.js';
import type { DashboardAccount } from './accounts.js';
import type { KeySummary } from './api-key.js';
import { requestsChart } from './chart.js';
import { COPY_SCRIPT_PATH } from './copy-button.js';
import { alert, appPage, authPage, csrfField, fmtDate, fmtDateTime, fmtInt, fmtMs, html, signOutForm } from './html.js';
import type { JobSummary } from './jobs.js';
import { PASSWORD_MIN_LENGTH, PASSWORD_RULES_TEXT } from './password-rules.js';
import { DASHBOARD_PERIODS, type AccountUsage, type CallerUsage } from './usage.js';

/** Ledger rows shown on the usage page. */
export const LEDGER_ROWS = 15;

interface Signed {
  account: DashboardAccount;
  csrf: string;
}

export function signInPage(o: { csrf: string; email?: string; error?: string; next?: string }): string {
  return authPage({
    title: 'Sign in',
    body: html`<div class="card"><h1>Sign in</h1><p class="lead">to your API dashboard</p>${alert('error', o.error)}
<form method="post" action="/dashboard/sign-in">${csrfField(o.csrf)}${nextField(o.next)}
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}" ${o.email ? '' : 'autofocus'}>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required ${o.email ? 'autofocus' : ''}>
<button type="submit">Sign in</button></form></div>
<p class="foot">Accounts are issued by our team during the beta.<br>Forgot your password? Ask support for a new temporary one.</p>`,
  });
}

/** A hidden field carrying the OAuth authorization request that waits for this step. */
const nextField = (next: string | undefined) => (next ? html`<input type="hidden" name="next" value="${next}">` : html``);

export function passwordPage(o: Signed & { error?: string; next?: string }): string {
  const forced = o.account.must_change_password;
  const temporary = forced && !o.account.password_rule_problem;
  const lead = !forced
    ? ''
    : temporary
      ? 'You signed in with a temporary password. Replace it with a password of your own to continue.'
      : `Your password no longer meets our password rules: ${o.account.password_rule_problem} Choose a new one to continue.`;
  const waiting = o.next ? html`<p class="hint">The app you are connecting waits for this step: its approval page opens next.</p>` : html``;
  return authPage({
    title: 'Change password',
    body: html`<div class="card"><h1>${forced ? 'Choose your password' : 'Change password'}</h1>
<p class="lead">${lead}</p>${waiting}${alert('error', o.error)}
<form method="post" action="/dashboard/password">${csrfField(o.csrf)}${nextField(o.next)}
<input type="email" name="username" autocomplete="username" value="${o.account.email}" hidden readonly>
<label for="current">${temporary ? 'Temporary password' : 'Current password'}</label><input id="current" name="current" type="password" autocomplete="current-password" required autofocus>
<label for="new-password">New password</label><input id="new-password" name="new_password" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required aria-describedby="password-rules">
<div class="hint" id="password-rules">${PASSWORD_RULES_TEXT}</div>
<label for="confirm">Repeat the new password</label><input id="confirm" name="confirm" type="password" autocomplete="new-password" minlength="${PASSWORD_MIN_LENGTH}" required>
<button type="submit">Save password</button></form></div>
<div class="foot">Signed in as ${o.account.email} · ${signOutForm(o.csrf)}</div>`,
  });
}

export function apiPage(
  o: Signed & { keys: KeySummary[]; created?: { key: CreatedKey; rotated: boolean }; error?: string; notice?: string; baseUrl: string },
): string {
  const shown = o.created
    ? html`<div class="alert ok" role="status"><strong>${o.created.rotated ? 'Key rotated. The previous key has stopped working.' : 'Key created.'}</strong>
Copy it now: it is shown only this once and cannot be displayed again.
<span class="copy-row"><code class="secret" id="new-key">${o.created.key.key}</code><button type="button" class="secondary" data-copy="new-key" id="copy-key">Copy</button></span><script src="${COPY_SCRIPT_PATH}" defer></script>
<span class="hint">Send it as <code>x-api-key</code> from your servers only, e.g. <code>curl -H "x-api-key: $API_KEY" ${o.baseUrl}/v1/billing</code></span></div>`
    : html``;
  const rows = o.keys.map(
    (
      k,
    ) => html`<tr><td data-label="Name"><code>${k.name}</code></td><td data-label="Prefix"><code>${k.prefix}…</code></td><td data-label="Rate limit" class="num">${fmtInt(k.rate_limit_per_min)} / min</td><td data-label="Created">${fmtDateTime(k.created_at)}</td>
<td class="num"><a class="button secondary" href="/dashboard/api/rotate?name=${encodeURIComponent(k.name)}">Rotate key</a></td></tr>`,
  );
  const body = o.keys.length
    ? html`<table class="stack"><thead><tr><th>Name</th><th>Prefix</th><th class="num">Rate limit</th><th>Created</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Rotation mints a replacement with the same name and rate limit and stops the current key immediately. To revoke a key without a replacement, contact support.</p>`
    : html`<p class="empty">This account has no API key yet.</p>
<form method="post" action="/dashboard/api/key">${csrfField(o.csrf)}<button type="submit">Create API key</button></form>`;
  return appPage({
    title: 'API access',
    section: 'api',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>API access</h1><p class="lead">Your key authenticates calls to <code>/v1/*</code> and <code>/mcp</code>. This dashboard session is never accepted by the API.</p>
${alert('error', o.error)}${alert('ok', o.notice)}${shown}<div class="card"><h2>API key</h2>${body}</div>
<div class="card"><h2>Getting started</h2><p class="muted">Check your balance: <code>curl -H "x-api-key: $API_KEY" ${o.baseUrl}/v1/billing</code><br>
The full interface is described at <a href="/docs">/docs</a> and <a href="/openapi.json">/openapi.json</a>.</p></div>`,
  });
}

/** Rotation stops the current key at once, so it is asked for on a page of its own. */
export function rotateConfirmPage(o: Signed & { key: KeySummary }): string {
  return appPage({
    title: 'Rotate key',
    section: 'api',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Rotate key</h1><p class="lead">Replace <code>${o.key.name}</code> (<code>${o.key.prefix}…</code>) with a new key.</p>
<div class="card"><h2>The current key stops working at once</h2>
<p>Every server or app that sends <code>${o.key.prefix}…</code> is refused from the moment you confirm until it has the new key. The new key keeps the name and rate limit and is shown once, on the next page.</p>
<form method="post" action="/dashboard/api/rotate">${csrfField(o.csrf)}<input type="hidden" name="name" value="${o.key.name}">
<div class="actions"><button type="submit" id="confirm-rotate">Rotate key now</button><a class="button secondary" href="/dashboard/api">Cancel</a></div></form></div>`,
  });
}

interface LedgerRow {
  id: string;
  kind: string;
  amount: number;
  request_id: string | null;
  note: string | null;
  created_at: Date;
}

function callersCard(callers: CallerUsage[]) {
  if (!callers.some((c) => c.app)) return html``;
  const rows = callers.map(
    (c) =>
      html`<tr><td>${c.app ? html`<span class="badge">app</span> ${c.label}` : c.label}</td><td class="num">${fmtInt(c.requests)}</td><td class="num">${fmtInt(c.errors)}</td><td class="num">${fmtInt(c.credits)}</td></tr>`,
  );
  return html`<div class="card"><h2>By caller</h2><table><thead><tr><th>Caller</th><th class="num">Requests</th><th class="num">Errors</th><th class="num">Credits</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Apps connected under Connected apps call <code>/mcp</code> as this account: their calls count here and in <code>GET /v1/usage</code>.</p></div>`;
}

export function usagePage(o: Signed & { usage: AccountUsage; callers: CallerUsage[]; balance: Balance; ledger: LedgerRow[] }): string {
  const u = o.usage;
  const b = o.balance;
  const errorRate = u.totals.requests ? `${((u.totals.errors / u.totals.requests) * 100).toFixed(1)}% of requests` : 'no requests';
  const tabs = Object.entries(DASHBOARD_PERIODS).map(
    ([p, { label }]) =>
      html`<a href="/dashboard/usage?period=${p}" class="${p === u.period ? 'active' : ''}" ${p === u.period ? html`aria-current="page"` : html``}>${label}</a>`,
  );
  const span = DASHBOARD_PERIODS[u.period];
  const hourly = span.unit === 'hour';
  const stat = (k: string, v: string, s: string) => html`<div class="stat"><div class="k">${k}</div><div class="v">${v}</div><div class="s">${s}</div></div>`;
  const endpoints = u.by_endpoint.length
    ? html`<table class="stack"><thead><tr><th>Endpoint</th><th class="num">Requests</th><th class="num">Errors</th><th class="num">p95 latency</th></tr></thead><tbody>
${u.by_endpoint.map((e) => html`<tr><td data-label="Endpoint"><code>${e.method} ${e.path}</code></td><td data-label="Requests" class="num">${fmtInt(e.requests)}</td><td data-label="Errors" class="num">${fmtInt(e.errors)}</td><td data-label="p95 latency" class="num">${fmtMs(e.p95_ms)}</td></tr>`)}</tbody></table>`
    : html`<p class="empty">No requests in this period.</p>`;
  const ledger = o.ledger.length
    ? html`<table class="stack"><thead><tr><th>Date</th><th>Entry</th><th class="num">Credits</th><th>Request</th><th>Note</th></tr></thead><tbody>
${o.ledger.map(
  (l) => html`<tr><td data-label="Date">${fmtDateTime(l.created_at)}</td><td data-label="Entry"><span class="badge">${l.kind}</span></td>
<td data-label="Credits" class="num amount ${l.amount >= 0 ? 'pos' : 'neg'}">${l.amount > 0 ? '+' : ''}${fmtInt(l.amount)}</td><td data-label="Request"><code>${l.request_id ?? ''}</code></td><td data-label="Note" class="muted">${l.note ?? ''}</td></tr>`,
)}</tbody></table>`
    : html`<p class="empty">No ledger entries yet.</p>`;
  return appPage({
    title: 'Usage',
    section: 'usage',
    account: o.account,
    csrf: o.csrf,
    body: html`<div class="row"><div><h1>Usage</h1><p class="lead">Requests of every key of this account and of its connected apps since ${hourly ? fmtDateTime(new Date(u.start)) : fmtDate(new Date(u.start))} (${hourly ? 'UTC hours' : 'UTC days'}).</p></div><div class="tabs">${tabs}</div></div>
<div class="stats">${stat('Requests', fmtInt(u.totals.requests), span.label.toLowerCase())}${stat('Errors', fmtInt(u.totals.errors), errorRate)}
${stat('p95 latency', fmtMs(u.totals.p95_ms), `average ${fmtMs(u.totals.avg_ms)}`)}${stat('Credits used', fmtInt(b.used), `this month, of ${fmtInt(b.granted)}`)}
${stat('Credits remaining', fmtInt(b.remaining), `renews ${fmtDate(b.period.end)}`)}</div>
<div class="card"><h2>Requests and errors per ${span.unit}</h2>${requestsChart(u.by_bucket)}</div>
<div class="card"><h2>By endpoint</h2>${endpoints}</div>
${callersCard(o.callers)}
<div class="card"><h2>Credit ledger</h2>${ledger}<p class="hint">Newest entries first (at most ${LEDGER_ROWS}); the full ledger is at <code>GET /v1/billing/ledger</code>.</p></div>`,
  });
}

export function jobsPage(o: Signed & { jobs: JobSummary[] }): string {
  const rows = o.jobs.map((j) => {
    const done = j.items_succeeded + j.items_failed;
    const pct = (n: number) => (j.items_total > 0 ? ((n / j.items_total) * 100).toFixed(1) : '0');
    return html`<tr><td data-label="Batch"><code>${j.id}</code></td><td data-label="Status"><span class="badge ${j.status}">${j.status}</span></td>
<td data-label="Progress"><div class="progress" title="${j.items_succeeded} succeeded, ${j.items_failed} failed of ${j.items_total}"><div class="ok" style="width:${pct(j.items_succeeded)}%"></div><div class="ko" style="width:${pct(j.items_failed)}%"></div></div></td>
<td data-label="Items" class="num">${fmtInt(done)} / ${fmtInt(j.items_total)}${j.items_failed ? html` <span class="muted">(${fmtInt(j.items_failed)} failed)</span>` : html``}</td><td data-label="Created">${fmtDateTime(j.created_at)}</td></tr>`;
  });
  const body = o.jobs.length
    ? html`<table class="stack"><thead><tr><th>Batch</th><th>Status</th><th>Progress</th><th class="num">Items</th><th>Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="empty">No calendar batches yet. Submit one with <code>POST /v1/jobs</code>; it will show here with its progress.</p>`;
  return appPage({
    title: 'Jobs',
    section: 'jobs',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Jobs</h1><p class="lead">Recent calendar batches of this account, newest first.</p><div class="card"><h2>Recent batches</h2>${body}</div>`,
  });
}

/** A plain page for refusals (stale form, too many attempts). */
export function messagePage(title: string, message: string, link: { href: string; label: string }): string {
  return authPage({
    title,
    body: html`<div class="card"><h1>${title}</h1><p class="lead">${message}</p><a class="button" href="${link.href}">${link.label}</a></div>`,
  });
}
