/**
 * A parity range's verdicts as a grid (server-rendered, no scripts): one row per check-in date, one
 * column per length of stay (heat-map.ts's stay table), each cell your official all-in total, each
 * agency's verdict with its price against yours, and the price the metasearch displays, apart. The
 * tint repeats the worst verdict the cell states in words (a disparity, an agency selling while
 * your site is sold out, a meet, your site cheapest), so nothing depends on seeing colour. A stay
 * not compared says why and holds no number the comparison did not state.
 */
import type { RangeStay } from '../../domain/parity-range.js';
import { nights, num, signed, stayTable, tintLegend } from './heat-map.js';
import { html, type Safe } from './html.js';

type Verdict = RangeStay['agencies'][number];

/** The tint of a stay by its worst verdict, and the legend's words for it. */
const TINTS: [string, string, (o: Verdict['outcome'][]) => boolean][] = [
  ['h-p3', 'a disparity: an agency under your site by more than the tolerance', (o) => o.includes('loss')],
  ['h-p2', 'an agency sells while your site is sold out', (o) => o.includes('selling_while_sold_out')],
  ['h-0', 'an agency meets your price (within the tolerance)', (o) => o.includes('meet')],
  ['h-n2', 'your site is cheaper than every agency compared', (o) => o.includes('win')],
];

/** The tint class of a stay (h-none: nothing compared). */
export function stayTint(stay: RangeStay): string {
  const outcomes = stay.agencies.map((a) => a.outcome);
  return TINTS.find(([, , has]) => has(outcomes))?.[0] ?? 'h-none';
}

/** An agency's verdict in words: its price against yours (agency minus official), as the range states it. */
export function verdictLine(a: Verdict): string {
  switch (a.outcome) {
    case 'win':
    case 'meet':
    case 'loss':
      return `${a.source} ${a.outcome} ${signed(-a.amount!)} (${signed(-a.pct!)} %)`;
    case 'selling_while_sold_out':
      return `${a.source} sells at ${num(a.total!)}${a.currency ? ` ${a.currency}` : ''}`;
    default:
      return `${a.source} not compared`;
  }
}

/** What a cell says of your own site: its all-in total, sold out, or why there is none. */
export function officialLine(s: RangeStay): string {
  if (s.official) return `${num(s.official.total)} ${s.official.currency}`;
  if (s.status === 'official_sold_out') return 'sold out';
  return '—';
}

export function metasearchLine(s: RangeStay): string {
  return s.metasearch ? `metasearch shows ${num(s.metasearch.total)}${s.metasearch.currency ? ` ${s.metasearch.currency}` : ''}` : 'metasearch: no price';
}

function cell(s: RangeStay): Safe {
  const why = [s.reason, ...s.agencies.filter((a) => a.reason).map((a) => `${a.source}: ${a.reason}`)].filter((x) => x).join('\n');
  const status = s.status === 'pending' ? 'not compared yet' : s.status === 'failed' ? 'comparison failed' : null;
  return html`<td class="${stayTint(s)}" data-label="${nights(s.los)}"${why ? html` title="${why}"` : html``}><span class="own">${officialLine(s)}</span>${
    status ? html`<span>${status}</span>` : html``
  }${s.agencies.map((a) => html`<span${a.outcome === 'loss' ? html` class="diff"` : html``}>${verdictLine(a)}</span>`)}<span>${metasearchLine(s)}</span></td>`;
}

/** The range's stays as a table: dates down, lengths of stay across. */
export function parityGrid(stays: RangeStay[], lengths: number[]): Safe {
  return stayTable(
    stays,
    lengths,
    "Your site's all-in total per check-in date and length of stay, each agency's verdict and its price against yours",
    cell,
    'parity',
  );
}

export function parityLegend(): Safe {
  return tintLegend(
    TINTS.map(([cls, words]) => [cls, words]),
    'not compared',
  );
}
