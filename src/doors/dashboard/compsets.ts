/**
 * The dashboard's competitor sets: the account's sets, and a set's rate shops with the chosen
 * shop's grid as a heat-map (heat-map.ts), as GET /v1/compsets/{id}/shops/{shop_id} answers it.
 * Every read is of the signed-in account: another account's set or shop is a 404 page.
 */
import type { Request, Response, Router } from 'express';
import { readShop, shopCsv } from '../../core/compsets/rate-shop.js';
import { inertHeaders } from '../../core/raw-body.js';
import { findCompset, findShop, listCompsets, listShops, type CompsetRow, type ShopSummary } from '../../platform/compsets.js';
import type { DashboardAccount } from './accounts.js';
import type { DashboardKit } from './connected-apps.js';
import { heatLegend, heatMap, heatSummary } from './heat-map.js';
import { appPage, fmtDateTime, fmtInt, html, type Safe } from './html.js';
import { messagePage } from './pages.js';

/** Sets listed, and shops offered per set (newest first). */
const SETS_SHOWN = 100;
const SHOPS_SHOWN = 12;

interface Signed {
  account: DashboardAccount;
  csrf: string;
}

type Shop = Awaited<ReturnType<typeof readShop>>;

const BADGE: Record<string, string> = { succeeded: 'succeeded', partial: 'partial', failed: 'failed', running: 'running', queued: '' };
const badge = (status: string) => html`<span class="badge ${BADGE[status] ?? ''}">${status}</span>`;
const lastDate = (s: { start: string; days: number }) => new Date(Date.parse(`${s.start}T00:00:00Z`) + (s.days - 1) * 86_400_000).toISOString().slice(0, 10);
const rangeText = (r: ShopSummary['request']) => `${r.start} → ${lastDate(r)} · ${r.los.map((n) => `${n}n`).join(', ')}`;

function compsetsPage(o: Signed & { sets: CompsetRow[] }): string {
  const rows = o.sets.map(
    (s) => html`<tr><td data-label="Set"><a class="breakable" href="/dashboard/compsets/${s.id}">${s.name}</a></td>
<td data-label="Your hotel"><span class="breakable">${s.own.name}</span></td>
<td data-label="Competitors"><span class="breakable">${s.competitors.map((c) => c.name).join(', ')}</span></td>
<td data-label="Created" class="num">${fmtDateTime(s.created_at)}</td></tr>`,
  );
  const body = o.sets.length
    ? html`<table class="stack"><thead><tr><th>Set</th><th>Your hotel</th><th>Competitors</th><th class="num">Created</th></tr></thead><tbody>${rows}</tbody></table>`
    : html`<p class="empty">No competitor set yet. Create one with <code>POST /v1/compsets</code> (your hotel and its competitors), then shop their prices with <code>POST /v1/compsets/{id}/shops</code>.</p>`;
  return appPage({
    title: 'Comp sets',
    section: 'compsets',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Competitor sets</h1><p class="lead">Your hotel and the hotels you price against. A set's page shows its rate shops as a heat-map.</p>
<div class="card"><h2>Your sets</h2>${body}</div>`,
  });
}

function shopTabs(set: CompsetRow, shops: ShopSummary[], current: string | null): Safe {
  if (shops.length < 2) return html``;
  return html`<nav class="tabs" aria-label="Rate shops">${shops.map(
    (s) =>
      html`<a href="/dashboard/compsets/${set.id}/shops/${s.id}" class="${s.id === current ? 'active' : ''}"${s.id === current ? html` aria-current="page"` : html``}>${rangeText(s.request)} · shopped ${s.created_at.toISOString().slice(0, 19).replace('T', ' ')} UTC</a>`,
  )}</nav>`;
}

function shopCard(set: CompsetRow, shop: Shop): Safe {
  const sum = heatSummary(shop.rows);
  const stat = (k: string, v: string | Safe, s: string) =>
    html`<div class="stat"><div class="k">${k}</div><div class="v">${v}</div><div class="s">${s}</div></div>`;
  const failures = shop.failures.length
    ? html`<p class="hint">${shop.request.sellers ? 'Items' : 'Calendars'} that failed (their cells say so): ${shop.failures.map((f) => `${shop.properties.find((p) => p.property_token === f.property_token)?.name ?? f.property_token} at ${f.los}n${'date' in f && f.date ? ` from ${f.date}` : ''}`).join(', ')}.</p>`
    : html``;
  return html`<div class="stats">${stat('Shop', badge(shop.status), `${fmtInt(shop.items_succeeded)} of ${fmtInt(shop.items_total)} ${shop.request.sellers ? 'calendars and stays’ sellers' : 'calendars'}`)}
${stat('Your price', `${fmtInt(sum.ownPriced)} of ${fmtInt(sum.stays)}`, 'stays priced')}${stat('Below median', fmtInt(sum.below), `above: ${fmtInt(sum.above)}`)}
${stat('Average rank', sum.averageRank === null ? '—' : String(sum.averageRank), `among ${fmtInt(shop.properties.length)} hotels`)}${stat('Guests', fmtInt(shop.request.adults), `market ${shop.request.market}, asked in ${shop.request.currency}`)}</div>
<div class="card"><div class="row"><h2>${rangeText(shop.request)}</h2><a class="button link" href="/dashboard/compsets/${set.id}/shops/${shop.id}/grid.csv" download>Download CSV</a></div>
${heatLegend()}${heatMap(shop.rows, shop.request.los)}${failures}
<p class="hint">Each cell: your all-in stay total, the competitors' median, your rank among the hotels priced (1 = cheapest) and your difference to the median. Hover a cell for every hotel's price. The same grid: <code class="breakable">GET ${shop.poll_url}</code> (<code>?format=csv</code>).</p></div>`;
}

function compsetPage(o: Signed & { set: CompsetRow; shops: ShopSummary[]; shop: Shop | null }): string {
  const s = o.set;
  const members = html`<p class="lead"><strong class="breakable">${s.own.name}</strong> (yours) against <span class="breakable">${s.competitors.map((c) => c.name).join(', ')}</span>. <a href="/dashboard/compsets/${s.id}/parity">Parity of your site against the agencies</a></p>`;
  const empty = html`<div class="card"><h2>No rate shop yet</h2><p class="empty">Shop the set's prices with <code>POST /v1/compsets/${s.id}/shops</code> (a range of check-in dates and lengths of stay); its grid shows here as it fills.</p></div>`;
  return appPage({
    title: s.name,
    section: 'compsets',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1 class="breakable">${s.name}</h1>${members}${shopTabs(s, o.shops, o.shop?.id ?? null)}${o.shop ? shopCard(s, o.shop) : empty}`,
  });
}

export function mountCompsets(r: Router, kit: Pick<DashboardKit, 'deps' | 'signedIn' | 'send'>): void {
  const { sql } = kit.deps;
  const notFound = (res: Response) =>
    kit.send(
      res,
      404,
      messagePage('Not found', 'This account has no competitor set or rate shop at this address.', { href: '/dashboard/compsets', label: 'Back to the sets' }),
    );
  const owned = (req: Request, account: DashboardAccount) => findCompset(sql, account.id, String(req.params.id)).catch(() => null);
  /** The set's page with one of its shops (the newest when none is named). */
  const showSet = async (req: Request, res: Response, account: DashboardAccount, csrf: string) => {
    const set = await owned(req, account);
    if (!set) return notFound(res);
    const shops = await listShops(sql, account.id, set.id, SHOPS_SHOWN, 0);
    const shopId = req.params.shop === undefined ? shops[0]?.id : String(req.params.shop);
    const row = shopId ? await findShop(sql, account.id, set.id, shopId).catch(() => null) : null;
    if (shopId && !row) return notFound(res);
    kit.send(res, 200, compsetPage({ account, csrf, set, shops, shop: row ? await readShop(sql, account.id, row) : null }));
  };

  r.get(
    '/compsets',
    kit.signedIn(async (_req, res, { session, account }) =>
      kit.send(res, 200, compsetsPage({ account, csrf: session.csrf, sets: await listCompsets(sql, account.id, SETS_SHOWN, 0) })),
    ),
  );
  r.get(
    '/compsets/:id',
    kit.signedIn((req, res, { session, account }) => showSet(req, res, account, session.csrf)),
  );
  r.get(
    '/compsets/:id/shops/:shop',
    kit.signedIn((req, res, { session, account }) => showSet(req, res, account, session.csrf)),
  );
  r.get(
    '/compsets/:id/shops/:shop/grid.csv',
    kit.signedIn(async (req, res, { account }) => {
      const row = await findShop(sql, account.id, String(req.params.id), String(req.params.shop)).catch(() => null);
      if (!row) return notFound(res);
      const shop = await readShop(sql, account.id, row);
      const csv = shopCsv(shop);
      res.status(200).set(inertHeaders(csv)).type(csv.contentType).send(csv.bytes);
    }),
  );
}
