/**
 * The rate shop's grid as a heat-map (server-rendered, no scripts, no external assets): one row
 * per check-in date, one column per length of stay; each cell the own hotel's all-in price, the
 * competitors' median, its rank among the priced properties and its difference to that median,
 * tinted by how far it sits below or above the median. The tint only repeats what the cell says
 * in words (the signed difference), so nothing depends on seeing colour. A cell whose own price
 * is missing says why, and holds no number the upstream did not state.
 */
import type { CellState, GridRow } from '../../domain/rate-shop.js';
import { html, type Safe } from './html.js';

/** Bands of the difference to the competitors' median, in percent: [class, lower bound, words]. */
const BANDS: [string, number, string][] = [
  ['h-p3', 10, '10 % or more above the median'],
  ['h-p2', 3, '3–10 % above'],
  ['h-0', -3, 'within 3 % of the median'],
  ['h-n2', -10, '3–10 % below'],
  ['h-n3', -Infinity, '10 % or more below the median'],
];

const WHY_UNPRICED: Record<CellState, string> = {
  priced: 'priced in another currency',
  unavailable: 'no price stated',
  failed: 'calendar failed',
  pending: 'not fetched yet',
};

export const num = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });
export const signed = (v: number) => (v > 0 ? `+${num(v)}` : v < 0 ? `−${num(-v)}` : '±0');
export const nights = (los: number) => `${los} night${los === 1 ? '' : 's'}`;
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const weekday = (date: string) => WEEKDAYS[new Date(`${date}T00:00:00Z`).getUTCDay()];

function band(pct: number | null): string {
  if (pct === null) return 'h-none';
  return BANDS.find(([, from]) => pct >= from)![0];
}

/** Every property's price that stay, for the cell's tooltip. */
function setPrices(row: GridRow): string {
  return row.cells.map((c) => `${c.name}${c.own ? ' (yours)' : ''}: ${c.total === null ? WHY_UNPRICED[c.state] : `${num(c.total)} ${c.currency}`}`).join('\n');
}

function cell(row: GridRow): Safe {
  const label = nights(row.los);
  const own = row.cells.find((c) => c.own);
  const median = row.competitors_median === null ? 'no competitor priced' : `median ${num(row.competitors_median)}`;
  if (row.own_total === null) {
    const why = own ? WHY_UNPRICED[own.state] : WHY_UNPRICED.unavailable;
    return html`<td class="h-none" data-label="${label}" title="${setPrices(row)}"><span class="own">—</span><span>${why}</span><span>${median}</span></td>`;
  }
  const diff =
    row.diff_to_median === null
      ? html`<span>nothing to compare</span>`
      : html`<span class="diff">${signed(row.diff_to_median)} (${signed(row.diff_to_median_pct ?? 0)} %)</span>`;
  return html`<td class="${band(row.diff_to_median_pct)}" data-label="${label}" title="${setPrices(row)}"><span class="own">${num(row.own_total)} ${row.currency}</span><span>${median}</span><span>rank ${row.own_rank} of ${row.priced}</span>${diff}</td>`;
}

/**
 * Stays as a table: check-in dates down, lengths of stay across, `cell` drawing each stay's cell
 * (a date without that length: a dash). The rate shop's heat-map and the parity page's verdicts.
 */
export function stayTable<R extends { date: string; los: number }>(rows: R[], lengths: number[], caption: string, cell: (row: R) => Safe, kind = ''): Safe {
  const byDate = new Map<string, Map<number, R>>();
  for (const r of rows) {
    if (!byDate.has(r.date)) byDate.set(r.date, new Map());
    byDate.get(r.date)!.set(r.los, r);
  }
  const body = [...byDate].map(
    ([date, perLos]) =>
      html`<tr><th scope="row"><span class="dow">${weekday(date)}</span> ${date}</th>${lengths.map((los) => {
        const r = perLos.get(los);
        return r ? cell(r) : html`<td class="h-none" data-label="${nights(los)}">—</td>`;
      })}</tr>`,
  );
  return html`<table class="heat${kind ? ` ${kind}` : ''}"><caption>${caption}</caption>
<thead><tr><th scope="col">Check-in</th>${lengths.map((los) => html`<th scope="col">${nights(los)}</th>`)}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The grid as a table: dates down, lengths of stay across. */
export function heatMap(rows: GridRow[], lengths: number[]): Safe {
  return stayTable(rows, lengths, "Your all-in price per check-in date and length of stay, against the competitors' median", cell);
}

/** A legend of tints: each [class, words], then what an untinted cell means. */
export function tintLegend(tints: [string, string][], none: string): Safe {
  return html`<div class="heat-legend">${tints.map(([cls, words]) => html`<span><i class="${cls}"></i>${words}</span>`)}<span><i class="h-none"></i>${none}</span></div>`;
}

export function heatLegend(): Safe {
  return tintLegend(
    BANDS.map(([cls, , words]) => [cls, words]),
    'no comparison',
  );
}

export interface HeatSummary {
  stays: number;
  ownPriced: number;
  below: number;
  above: number;
  averageRank: number | null;
}

/** What the grid says in a few numbers: how often the own hotel is priced, below or above the median, its average rank. */
export function heatSummary(rows: GridRow[]): HeatSummary {
  const priced = rows.filter((r) => r.own_rank !== null);
  return {
    stays: rows.length,
    ownPriced: priced.length,
    below: rows.filter((r) => r.diff_to_median !== null && r.diff_to_median < 0).length,
    above: rows.filter((r) => r.diff_to_median !== null && r.diff_to_median > 0).length,
    averageRank: priced.length ? Math.round((priced.reduce((s, r) => s + r.own_rank!, 0) / priced.length) * 10) / 10 : null,
  };
}
