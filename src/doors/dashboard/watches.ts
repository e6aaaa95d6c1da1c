import type { Request, Response, Router } from 'express';
import { ApiError, NotFound } from '../../domain/errors.js';
import { billedPlan } from '../../platform/plans.js';
import { changeWatch } from '../../core/watches/manage.js';
import { redeliverEvent } from '../../core/watches/redeliver.js';
import { CHECKS_CSV_HEADER, checkCsvLine } from '../../core/watches/checks-csv.js';
import { checkResource } from '../../core/watches/resource.js';
import { csvAnswer } from '../../core/csv-answer.js';
import { inertHeaders } from '../../core/raw-body.js';
import { deleteWatch, findWatch, listWatches, recentChecks, watchTotals, type CheckRow, type WatchRow, type WatchTotals } from '../../platform/watches.js';
import { listEvents, type EventRow } from '../../platform/watch-events.js';
import { snapshot, type Sql, type Tx } from '../../db/client.js';
import type { DashboardAccount } from './accounts.js';
import type { DashboardKit } from './connected-apps.js';
import { alert, appPage, csrfField, fmtDateTime, fmtInt, html, type Safe } from './html.js';
import { messagePage } from './pages.js';
import { priceChart } from './price-chart.js';

/** Checks drawn on a watch's chart and listed under it. */
const CHECKS_SHOWN = 60;
const EVENTS_SHOWN = 20;
/** Checks in the dashboard's CSV download: all of a watch's, up to this. */
const CHECKS_DOWNLOADED = 100_000;

interface Signed {
  account: DashboardAccount;
  csrf: string;
}

const when = (d: Date | null) => (d ? fmtDateTime(d) : '—');
const money = (v: number | null | undefined, currency: string | null | undefined) =>
  v === null || v === undefined ? '—' : `${v.toLocaleString('en-US', { maximumFractionDigits: 2 })} ${currency ?? ''}`.trim();

function targetText(w: WatchRow): string {
  const t = w.target as {
    property_token?: string;
    token?: string;
    days?: number;
    start?: string;
    check_in?: string;
    nights?: number;
    sources?: Record<string, unknown>;
  };
  if (w.operation === 'calendar') return `calendar of ${t.property_token ?? t.token}, ${t.days ?? 90} nights from ${t.start ?? 'tomorrow'}`;
  if (w.operation === 'offers') return `offers for ${t.property_token ?? t.token}, ${t.check_in}, ${t.nights ?? 1} night(s)`;
  return `compare ${Object.keys(t.sources ?? {}).join(', ')}, ${t.check_in}`;
}

function ruleText(w: WatchRow): string {
  const r = w.rule;
  return r.type === 'below' ? `below ${r.price}` : r.type === 'drop_pct' ? `drop ${r.pct}%` : r.type.replace('_', ' ');
}

function state(w: WatchRow): Safe {
  if (w.status === 'active') return html`<span class="badge succeeded">active</span>`;
  const why = w.paused_reason === 'insufficient_credits' ? 'insufficient credits' : w.paused_reason === 'gone' ? 'target gone' : null;
  return html`<span class="badge ${why ? 'failed' : ''}">paused${why ? `: ${why}` : ''}</span>`;
}

/** Pause or resume, and delete: CSRF-protected forms that come back to `back`. */
function actions(w: WatchRow, csrf: string, back: string): Safe {
  const toggle = w.status === 'active' ? 'pause' : 'resume';
  return html`<div class="inline-actions"><form class="inline" method="post" action="/dashboard/watches/${w.id}/${toggle}">${csrfField(csrf)}<input type="hidden" name="back" value="${back}"><button class="link" type="submit">${toggle === 'pause' ? 'Pause' : 'Resume'}</button></form>
<a class="button link danger" href="/dashboard/watches/${w.id}/delete">Delete</a></div>`;
}

/** Deleting loses the watch's checks and events for good: a page of its own asks first (the dashboard runs no scripts). */
function deleteConfirmPage(o: Signed & { watch: WatchRow; totals: WatchTotals | undefined }): string {
  const w = o.watch;
  const t = o.totals;
  return appPage({
    title: 'Delete watch',
    section: 'watches',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Delete watch</h1><p class="lead"><span class="breakable">${w.name ?? w.id}</span>: ${targetText(w)}, rule ${ruleText(w)}.</p>
<div class="card"><h2>This cannot be undone</h2>
<p>The watch stops and its ${fmtInt(t?.checks ?? 0)} checks and ${fmtInt(t?.events ?? 0)} events are deleted with it. The rates its checks stored, your request history and the ledger stay. To stop it for a while instead, pause it.</p>
<form method="post" action="/dashboard/watches/${w.id}/delete">${csrfField(o.csrf)}
<div class="actions"><button class="danger" type="submit" id="confirm-delete">Delete watch</button><a class="button secondary" href="/dashboard/watches/${w.id}">Cancel</a></div></form></div>`,
  });
}

/** Delivers an event again (a new round of attempts to the watch's callback URL of now). */
function redeliverForm(w: WatchRow, e: EventRow, csrf: string): Safe {
  if (!w.callback_url || e.callback_status === 'pending') return html``;
  return html`<form class="inline" method="post" action="/dashboard/watches/${w.id}/events/${e.id}/redeliver">${csrfField(csrf)}<button class="link" type="submit">Redeliver</button></form>`;
}

function watchesPage(o: Signed & { watches: WatchRow[]; totals: Map<string, WatchTotals>; error?: string }): string {
  const rows = o.watches.map((w) => {
    const last = o.totals.get(w.id)?.last_price as { total?: number; currency?: string } | null | undefined;
    return html`<tr><td data-label="Watch"><div><a class="breakable" href="/dashboard/watches/${w.id}">${w.name ?? w.id}</a><div class="hint">${targetText(w)}</div></div></td>
<td data-label="Rule">${ruleText(w)}</td><td data-label="State">${state(w)}</td>
<td data-label="Next check" class="num">${w.status === 'active' ? when(w.next_check_at) : '—'}</td>
<td data-label="Last price" class="num">${money(last?.total, last?.currency)}</td><td class="num">${actions(w, o.csrf, '/dashboard/watches')}</td></tr>`;
  });
  const body = o.watches.length
    ? html`<table class="stack"><thead><tr><th>Watch</th><th>Rule</th><th>State</th><th class="num">Next check</th><th class="num">Last price</th><th></th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="empty">No watches yet. Create one with <code>POST /v1/watches</code>: it re-prices a calendar, a stay or a comparison on a schedule and tells you when its rule fires.</p>`;
  return appPage({
    title: 'Watches',
    section: 'watches',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Watches</h1><p class="lead">Prices this account re-checks on a schedule, newest first. Each check is charged like the operation it runs.</p>
${alert('error', o.error)}<div class="card"><h2>Your watches</h2>${body}</div>`,
  });
}

function watchPage(
  o: Signed & { watch: WatchRow; totals: WatchTotals | undefined; checks: CheckRow[]; events: EventRow[]; notice?: string; error?: string },
): string {
  const w = o.watch;
  const t = o.totals;
  const last = t?.last_price as { total?: number; currency?: string } | null | undefined;
  const points = [...o.checks].reverse().map((c) => ({
    at: c.created_at,
    price: c.cheapest === null ? null : Number(c.cheapest),
    currency: c.currency,
    fired: c.fired,
    official: officialPrice(c),
  }));
  const stat = (k: string, v: string | Safe, s: string) =>
    html`<div class="stat"><div class="k">${k}</div><div class="v">${v}</div><div class="s">${s}</div></div>`;
  const checkRows = o.checks.map(
    (
      c,
    ) => html`<tr><td data-label="Checked">${when(c.created_at)}</td><td data-label="Trigger">${c.trigger === 'schedule' ? `period ${c.period}` : 'asked for'}</td>
<td data-label="Cheapest" class="num">${money(c.cheapest, c.currency)}</td><td data-label="Changed" class="num">${fmtInt(c.changes.length)}</td>
<td data-label="Rule">${c.fired ? html`<span class="badge failed">fired</span>` : '—'}</td><td data-label="Credits" class="num">${fmtInt(c.credits)}</td><td data-label="Request"><code>${c.id}</code></td></tr>`,
  );
  const eventRows = o.events.map((e) => {
    const data = (e.payload as { data?: { reason?: string } }).data ?? {};
    return html`<tr><td data-label="When">${when(e.created_at)}</td><td data-label="What">${data.reason ?? e.type}</td>
<td data-label="Delivery"><span class="badge ${e.callback_status === 'delivered' ? 'delivered' : e.callback_status === 'failed' ? 'failed' : ''}">${e.callback_status.replace('_', ' ')}</span>${e.callback_last_error ? html`<div class="hint">${e.callback_last_error}</div>` : html``}${e.round ? html`<div class="hint">redelivered ${when(e.redelivered_at)}</div>` : html``}</td>
<td data-label="Event"><code>${e.id}</code></td><td class="num">${redeliverForm(w, e, o.csrf)}</td></tr>`;
  });
  return appPage({
    title: w.name ?? w.id,
    section: 'watches',
    account: o.account,
    csrf: o.csrf,
    body: html`<div class="row"><div><h1>${w.name ?? w.id}</h1><p class="lead">${targetText(w)} · rule ${ruleText(w)} · every ${w.every_hours} h</p></div>${actions(w, o.csrf, `/dashboard/watches/${w.id}`)}</div>
${alert('ok', o.notice)}${alert('error', o.error)}
${w.paused_reason === 'insufficient_credits' ? alert('error', 'Paused: the account cannot pay its next check. It resumes by itself once credits are available.') : html``}
${w.paused_reason === 'gone' ? alert('error', 'Paused: the source says this property no longer exists (the last failed attempt below). Resume it if it comes back.') : html``}
<div class="stats">${stat('State', state(w), w.status === 'active' ? `next check ${when(w.next_check_at)}` : 'no checks while paused')}${stat('Last price', money(last?.total, last?.currency), `last check ${when(w.last_check_at)}`)}
${stat('Checks', fmtInt(t?.checks ?? 0), `${fmtInt(w.periods_missed)} periods missed`)}${stat('Credits spent', fmtInt(t?.credits ?? 0), `at most ${fmtInt(w.credits_per_check)} a check`)}${stat('Events', fmtInt(t?.events ?? 0), 'rule fired')}</div>
${w.last_error ? html`<p class="hint">Last failed attempt (charged nothing): <code>${w.last_error}</code></p>` : html``}
<div class="card"><h2>Price at each check</h2>${priceChart(points)}</div>
<div class="card"><h2>Events</h2>${o.events.length ? html`<table class="stack"><thead><tr><th>When</th><th>What</th><th>Delivery</th><th>Event</th><th></th></tr></thead><tbody>${eventRows}</tbody></table>` : html`<p class="empty">The rule has not fired yet.</p>`}</div>
<div class="card"><div class="row"><h2>Checks</h2>${o.checks.length ? html`<a class="button link" href="/dashboard/watches/${w.id}/checks.csv" download>Download CSV</a>` : html``}</div>${o.checks.length ? html`<table class="stack"><thead><tr><th>Checked</th><th>Trigger</th><th class="num">Cheapest</th><th class="num">Changed</th><th>Rule</th><th class="num">Credits</th><th>Request</th></tr></thead><tbody>${checkRows}</tbody></table>` : html`<p class="empty">No check yet.</p>`}
<p class="hint">The newest ${CHECKS_SHOWN} checks; all of them in the CSV download, and at <code class="breakable">GET /v1/watches/${w.id}/checks</code> (JSON or CSV).</p></div>`,
  });
}

export function mountWatches(r: Router, kit: DashboardKit): void {
  const { deps, send } = kit;
  const notFound = (res: Response) =>
    send(res, 404, messagePage('Watch not found', 'This account has no watch at this address.', { href: '/dashboard/watches', label: 'Back to the watches' }));
  // the account's watch at this address, or null (a 404 page); any other failure, such as the database away, is not a 404
  const owned = async (req: Request, account: DashboardAccount, db: Sql | Tx = deps.sql) =>
    findWatch(db, account.id, String(req.params.id)).catch((err: unknown) => {
      if (err instanceof NotFound) return null;
      throw err;
    });

  r.get(
    '/watches',
    kit.signedIn(async (req, res, { session, account }) => {
      const { watches, totals } = await snapshot(deps.sql, async (tx) => {
        const rows = await listWatches(tx, account.id, 200);
        return {
          watches: rows,
          totals: await watchTotals(
            tx,
            rows.map((w) => w.id),
          ),
        };
      });
      const error = typeof req.query.error === 'string' && ERRORS[req.query.error] ? ERRORS[req.query.error] : undefined;
      send(res, 200, watchesPage({ account, csrf: session.csrf, watches, totals, error }));
    }),
  );
  r.get(
    '/watches/:id',
    kit.signedIn(async (req, res, { session, account }) => {
      // the watch, its totals, checks and events from one snapshot (see snapshot)
      const read = await snapshot(deps.sql, async (tx) => {
        const watch = await owned(req, account, tx);
        if (!watch) return null;
        const [totals, checks, events] = await Promise.all([
          watchTotals(tx, [watch.id]),
          recentChecks(tx, watch.id, CHECKS_SHOWN),
          listEvents(tx, watch.id, EVENTS_SHOWN),
        ]);
        return { watch, totals, checks, events };
      });
      if (!read) return notFound(res);
      const { watch, totals, checks, events } = read;
      const notice = req.query.notice === 'redelivered' ? 'The event is on its way again: its delivery state below follows the attempts.' : undefined;
      const error = req.query.error === 'redeliver' ? ERRORS.redeliver : undefined;
      send(res, 200, watchPage({ account, csrf: session.csrf, watch, totals: totals.get(watch.id), checks, events, notice, error }));
    }),
  );
  const back = (req: Request) => {
    const b = kit.field(req, 'back');
    return b === '/dashboard/watches' || /^\/dashboard\/watches\/watch_[A-Za-z0-9]+$/.test(b) ? b : '/dashboard/watches';
  };
  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    r.post(
      `/watches/:id/${action}`,
      kit.csrf,
      kit.signedIn(async (req, res, { account }) => {
        const watch = await owned(req, account);
        if (!watch) return notFound(res);
        try {
          await changeWatch(deps, { account_id: account.id, plan: billedPlan(account.plan) }, watch.id, { status });
        } catch (err) {
          if (err instanceof ApiError && err.status === 403) return res.redirect(303, '/dashboard/watches?error=limit');
          throw err;
        }
        res.redirect(303, back(req));
      }),
    );
  }
  r.get(
    '/watches/:id/checks.csv',
    kit.signedIn(async (req, res, { account }) => {
      const watch = await owned(req, account);
      if (!watch) return notFound(res);
      const checks = (await recentChecks(deps.sql, watch.id, CHECKS_DOWNLOADED)).map(checkResource);
      const csv = csvAnswer(
        `${watch.id}-checks.csv`,
        CHECKS_CSV_HEADER,
        checks.map((c) => checkCsvLine(watch.id, c)),
      );
      res.status(200).set(inertHeaders(csv)).type(csv.contentType).send(csv.bytes);
    }),
  );
  r.get(
    '/watches/:id/delete',
    kit.signedIn(async (req, res, { session, account }) => {
      const watch = await owned(req, account);
      if (!watch) return notFound(res);
      const totals = await watchTotals(deps.sql, [watch.id]);
      send(res, 200, deleteConfirmPage({ account, csrf: session.csrf, watch, totals: totals.get(watch.id) }));
    }),
  );
  r.post(
    '/watches/:id/events/:event/redeliver',
    kit.csrf,
    kit.signedIn(async (req, res, { account }) => {
      const watch = await owned(req, account);
      if (!watch) return notFound(res);
      try {
        await redeliverEvent(deps, account.id, watch.id, String(req.params.event));
      } catch (err) {
        const api = err instanceof ApiError ? err : null;
        if (api?.status === 404) return notFound(res);
        if (api && (api.status === 409 || api.status === 503)) return res.redirect(303, `/dashboard/watches/${watch.id}?error=redeliver`);
        throw err;
      }
      res.redirect(303, `/dashboard/watches/${watch.id}?notice=redelivered`);
    }),
  );
  r.post(
    '/watches/:id/delete',
    kit.csrf,
    kit.signedIn(async (req, res, { account }) => {
      const watch = await owned(req, account);
      if (!watch) return notFound(res);
      await deleteWatch(deps.sql, account.id, watch.id);
      res.redirect(303, '/dashboard/watches');
    }),
  );
}

const ERRORS: Record<string, string> = {
  limit: 'The plan’s limit of active watches is reached: pause or delete another watch first.',
  redeliver: 'Not redelivered: the watch has no callback URL, webhooks are not enabled on this service, or a delivery of the event is still under way.',
};

/** The official site's all-in total a compare check's parity compared, in the check's currency; null otherwise. */
function officialPrice(c: CheckRow): number | null {
  const official = (c.parity as { official?: { total?: unknown; currency?: unknown } | null } | null)?.official;
  return typeof official?.total === 'number' && official.currency === c.currency ? official.total : null;
}
