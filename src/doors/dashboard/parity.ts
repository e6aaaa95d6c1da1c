/**
 * The dashboard's parity page: a competitor set's parity ranges (your official site against every
 * agency over check-in dates × lengths of stay), the chosen range as GET
 * /v1/compsets/{id}/parity/{range_id} answers it: per agency the win/meet/loss counts and shares,
 * the grid of verdicts (parity-grid.ts), every disparity with both prices' provenance, the agencies
 * selling while your site is sold out, and the same CSV. Every read is of the signed-in account:
 * another account's set or range is a 404 page.
 */
import type { Request, Response, Router } from 'express';
import { listRanges, readParityRange } from '../../core/compsets/parity-range.js';
import { csvAnswer } from '../../core/csv-answer.js';
import { inertHeaders } from '../../core/raw-body.js';
import { PARITY_CSV_HEADER, parityCsvRows } from '../../domain/parity-range.js';
import type { Provenance } from '../../domain/provenance.js';
import { findCompset, type CompsetRow } from '../../platform/compsets.js';
import { findParityRange } from '../../platform/parity-ranges.js';
import type { DashboardAccount } from './accounts.js';
import type { DashboardKit } from './connected-apps.js';
import { nights, num, signed } from './heat-map.js';
import { appPage, fmtDateTime, fmtInt, html, type Safe } from './html.js';
import { messagePage } from './pages.js';
import { parityGrid, parityLegend } from './parity-grid.js';

/** Ranges offered per set (newest first), and disparities listed on the page (the CSV has them all). */
const RANGES_SHOWN = 12;
const DISPARITIES_SHOWN = 200;

interface Signed {
  account: DashboardAccount;
  csrf: string;
}

type Range = Awaited<ReturnType<typeof readParityRange>>;
type RangeHead = Awaited<ReturnType<typeof listRanges>>[number];

const BADGE: Record<string, string> = { succeeded: 'succeeded', partial: 'partial', failed: 'failed', running: 'running', queued: '' };
const badge = (status: string) => html`<span class="badge ${BADGE[status] ?? ''}">${status}</span>`;
const lastDate = (r: { start: string; days: number }) => new Date(Date.parse(`${r.start}T00:00:00Z`) + (r.days - 1) * 86_400_000).toISOString().slice(0, 10);
const rangeText = (r: RangeHead['request']) => `${r.start} → ${lastDate(r)} · ${r.los.map((n) => `${n}n`).join(', ')}`;
const share = (n: number, pct: number | null) => (pct === null ? fmtInt(n) : `${fmtInt(n)} (${num(pct)} %)`);
const money = (total: number, currency: string | null) => `${num(total)}${currency ? ` ${currency}` : ''}`;
const stay = (s: { date: string; los: number; check_out: string }) => `${s.date} → ${s.check_out} (${nights(s.los)})`;

/** Where a price came from: the source, its basis, when it was observed and the observation's id. */
function provenance(p: Provenance | null): Safe {
  if (!p) return html`<span class="prov">provenance not stated</span>`;
  return html`<span class="prov breakable">${p.source}, ${p.price_basis}, observed ${fmtDateTime(new Date(p.observed_at))}, <code>${p.observation_id}</code></span>`;
}

/** A price and, under it, where it came from (one block: a stacked cell keeps them together). */
const priced = (price: string, p: Provenance | null) => html`<div class="priced"><span class="own">${price}</span>${provenance(p)}</div>`;

function rangeTabs(set: CompsetRow, ranges: RangeHead[], current: string): Safe {
  if (ranges.length < 2) return html``;
  return html`<nav class="tabs" aria-label="Parity ranges">${ranges.map(
    (r) =>
      html`<a href="/dashboard/compsets/${set.id}/parity/${r.id}" class="${r.id === current ? 'active' : ''}"${r.id === current ? html` aria-current="page"` : html``}>${rangeText(r.request)} · run ${r.created_at.slice(0, 19).replace('T', ' ')} UTC</a>`,
  )}</nav>`;
}

function agencyTable(range: Range): Safe {
  const rows = range.agencies.map(
    (a) => html`<tr><td data-label="Agency">${a.source}</td><td data-label="Win" class="num">${share(a.win, a.win_pct)}</td>
<td data-label="Meet" class="num">${share(a.meet, a.meet_pct)}</td><td data-label="Loss" class="num">${share(a.loss, a.loss_pct)}</td>
<td data-label="Compared" class="num">${fmtInt(a.compared)}</td><td data-label="Not compared" class="num">${fmtInt(a.not_compared)}</td>
<td data-label="Sells while sold out" class="num">${fmtInt(a.selling_while_sold_out)}</td></tr>`,
  );
  return html`<div class="card"><h2>Per agency</h2><table class="stack agencies"><thead><tr><th>Agency</th><th class="num">Win</th><th class="num">Meet</th><th class="num">Loss</th><th class="num">Compared</th><th class="num">Not compared</th><th class="num">Sells while sold out</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">Win: your site is cheaper; meet: equal within ${num(range.request.tolerance_pct)} % of your total; loss: the agency is cheaper by more (a disparity). Shares are of the stays compared on one basis (same stay, guests, rooms and currency, all-in).</p></div>`;
}

function disparityTable(range: Range): Safe {
  const shown = range.disparities.slice(0, DISPARITIES_SHOWN);
  const more = range.disparities.length - shown.length;
  const rows = shown.map((d) => {
    const b = d.basis;
    return html`<tr><td data-label="Stay">${stay(d)}</td><td data-label="Agency">${d.source}</td>
<td data-label="Your site">${priced(money(d.official_total, d.currency), d.official_provenance)}</td>
<td data-label="Agency price">${priced(money(d.agency_total, d.currency), d.agency_provenance)}</td>
<td data-label="Under yours" class="num">${signed(-d.amount)} (${signed(-d.pct)} %)</td>
<td data-label="Basis"><span class="breakable">${b.price.replace(/_/g, ' ')}, ${b.currency}, ${nights(b.nights)}, ${b.adults} adults, ${b.rooms} room${b.rooms === 1 ? '' : 's'}</span></td>
<td data-label="Check it"><details><summary>${d.check.method} ${d.check.path}</summary><pre class="breakable">${JSON.stringify(d.check.body, null, 1)}</pre></details></td></tr>`;
  });
  const body = shown.length
    ? html`<table class="stack disparities"><thead><tr><th>Stay</th><th>Agency</th><th>Your site</th><th>Agency price</th><th class="num">Under yours</th><th>Basis</th><th>Check it</th></tr></thead><tbody>${rows}</tbody></table>${
        more > 0 ? html`<p class="hint">And ${fmtInt(more)} more in the CSV.</p>` : html``
      }`
    : html`<p class="empty">No agency under your site by more than the tolerance${range.finished_at ? '' : ' so far'}.</p>`;
  return html`<div class="card"><h2>Disparities</h2>${body}</div>`;
}

function soldOutTable(range: Range): Safe {
  if (!range.selling_while_sold_out.length) return html``;
  const rows = range.selling_while_sold_out.map(
    (x) => html`<tr><td data-label="Stay">${stay(x)}</td><td data-label="Agency">${x.source}</td>
<td data-label="Sells at">${priced(money(x.total, x.currency), x.provenance)}</td></tr>`,
  );
  return html`<div class="card"><h2>Selling while your site is sold out</h2><table class="stack soldout"><thead><tr><th>Stay</th><th>Agency</th><th>Sells at</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function rangeCards(set: CompsetRow, range: Range): Safe {
  const stat = (k: string, v: string | Safe, s: string) =>
    html`<div class="stat"><div class="k">${k}</div><div class="v">${v}</div><div class="s">${s}</div></div>`;
  const compared = range.stays.filter((s) => s.official).length;
  const soldOut = range.stays.filter((s) => s.status === 'official_sold_out').length;
  return html`<div class="stats">${stat('Range', badge(range.status), `${fmtInt(range.items_succeeded)} of ${fmtInt(range.items_total)} items`)}
${stat('Your site priced', `${fmtInt(compared)} of ${fmtInt(range.stays.length)}`, `stays; sold out: ${fmtInt(soldOut)}`)}${stat('Disparities', fmtInt(range.disparities.length), 'stays × agencies')}
${stat('Sold-out selling', fmtInt(range.selling_while_sold_out.length), 'stays × agencies')}${stat('Tolerance', `${num(range.request.tolerance_pct)} %`, 'of your total is a meet')}</div>
${agencyTable(range)}
<div class="card"><div class="row"><h2>${rangeText(range.request)}</h2><a class="button link" href="/dashboard/compsets/${set.id}/parity/${range.id}/parity.csv" download>Download CSV</a></div>
${parityLegend()}${parityGrid(range.stays, range.request.los)}
<p class="hint">Each cell: your site's all-in total (or sold out), each agency's verdict and its price against yours (minus: the agency is cheaper), and the price the metasearch displays, reported apart and never counted. Hover a cell for why a stay or agency was not compared. The same range: <code class="breakable">GET ${range.poll_url}</code> (<code>?format=csv</code>); every range of this set: <code class="breakable">GET /v1/compsets/${set.id}/parity</code>.</p></div>
${disparityTable(range)}${soldOutTable(range)}`;
}

function parityPage(o: Signed & { set: CompsetRow; ranges: RangeHead[]; range: Range | null }): string {
  const s = o.set;
  const head = html`<h1 class="breakable">${s.name}: parity</h1><p class="lead"><strong class="breakable">${s.own.name}</strong>'s own site against the agencies. <a href="/dashboard/compsets/${s.id}">Back to the rate shops</a></p>`;
  const empty = html`<div class="card"><h2>No parity range yet</h2><p class="empty">Compare your site with the agencies over a range with <code>POST /v1/compsets/${s.id}/parity</code> (check-in dates, lengths of stay, your site and the agencies); its verdicts show here as they come in.</p></div>`;
  return appPage({
    title: `${s.name}: parity`,
    section: 'compsets',
    account: o.account,
    csrf: o.csrf,
    body: html`${head}${o.range ? html`${rangeTabs(s, o.ranges, o.range.id)}${rangeCards(s, o.range)}` : empty}`,
  });
}

export function mountParity(r: Router, kit: Pick<DashboardKit, 'deps' | 'signedIn' | 'send'>): void {
  const { sql } = kit.deps;
  const notFound = (res: Response) =>
    kit.send(
      res,
      404,
      messagePage('Not found', 'This account has no competitor set or parity range at this address.', {
        href: '/dashboard/compsets',
        label: 'Back to the sets',
      }),
    );
  const owned = (req: Request, account: DashboardAccount) => findCompset(sql, account.id, String(req.params.id)).catch(() => null);
  const range = (req: Request, account: DashboardAccount) =>
    findParityRange(sql, account.id, String(req.params.id), String(req.params.range)).catch(() => null);
  /** The set's parity page with one of its ranges (the newest when none is named). */
  const show = async (req: Request, res: Response, account: DashboardAccount, csrf: string) => {
    const set = await owned(req, account);
    if (!set) return notFound(res);
    const ranges = await listRanges(sql, account.id, set.id, RANGES_SHOWN, 0);
    const named = req.params.range === undefined ? null : await range(req, account);
    if (req.params.range !== undefined && !named) return notFound(res);
    const chosen = named ?? (ranges[0] ? await findParityRange(sql, account.id, set.id, ranges[0].id) : null);
    kit.send(res, 200, parityPage({ account, csrf, set, ranges, range: chosen ? await readParityRange(sql, account.id, chosen) : null }));
  };

  r.get(
    '/compsets/:id/parity',
    kit.signedIn((req, res, { session, account }) => show(req, res, account, session.csrf)),
  );
  r.get(
    '/compsets/:id/parity/:range',
    kit.signedIn((req, res, { session, account }) => show(req, res, account, session.csrf)),
  );
  r.get(
    '/compsets/:id/parity/:range/parity.csv',
    kit.signedIn(async (req, res, { account }) => {
      const row = await range(req, account);
      if (!row) return notFound(res);
      const answer = await readParityRange(sql, account.id, row);
      // the API's CSV (GET /v1/compsets/{id}/parity/{range_id}?format=csv), byte for byte
      const csv = csvAnswer(`${answer.id}.csv`, PARITY_CSV_HEADER, parityCsvRows(answer.stays));
      res.status(200).set(inertHeaders(csv)).type(csv.contentType).send(csv.bytes);
    }),
  );
}
