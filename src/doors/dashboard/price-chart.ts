import { html, type Safe } from './html.js';

/** One check of a watch: the cheapest price it saw (null: nothing priced) and whether its rule fired. */
export interface PricePoint {
  at: Date;
  price: number | null;
  currency: string | null;
  fired: boolean;
}

/** Two drawings: `wide` for screens, `narrow` for phones (CSS shows one), each with labels that fit it. */
const BOXES = {
  wide: { width: 960, height: 260, left: 70, right: 24, top: 16, bottom: 34, labels: 6, font: 12, dot: 4.5 },
  narrow: { width: 420, height: 260, left: 56, right: 14, top: 16, bottom: 38, labels: 3, font: 15, dot: 5 },
};
type Box = (typeof BOXES)['wide'];
const COLORS = { line: '#3b7be8', fired: '#d64545', grid: '#e8ecf1', axis: '#5b6776', empty: '#9aa5b1' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A 1, 2, 2.5 or 5 × 10^k step so that four steps cover the span. */
function niceStep(span: number): number {
  const raw = Math.max(span, 1e-9) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((v) => v >= raw)!;
}

const fmtPrice = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Short axis label: the time of day when the checks span under two days, else the date. */
function tick(d: Date, short: boolean): string {
  return short ? d.toISOString().slice(11, 16) : `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}`;
}

/**
 * The price seen at each check as a line with a point per check (red where the rule fired),
 * inline SVG without scripts; a wide and a narrow drawing, CSS shows the one that fits.
 */
export function priceChart(points: PricePoint[]): Safe {
  const priced = points.filter((p) => p.price !== null) as (PricePoint & { price: number })[];
  if (!priced.length) return html`<p class="empty">No priced check yet: the chart starts with the first check that saw a price.</p>`;
  const currency = priced[priced.length - 1].currency ?? '';
  const lo = Math.min(...priced.map((p) => p.price));
  const hi = Math.max(...priced.map((p) => p.price));
  const aria = `Cheapest price at each of ${points.length} checks, ${fmtPrice(lo)} to ${fmtPrice(hi)} ${currency}`.trim();
  return html`<div class="chart">${drawing(points, priced, BOXES.wide, 'wide', aria)}${drawing(points, priced, BOXES.narrow, 'narrow', aria)}
<div class="legend"><span><i style="background:${COLORS.line}"></i>Cheapest price per check${currency ? ` (${currency})` : ''}</span><span><i style="background:${COLORS.fired}"></i>Rule fired</span></div></div>`;
}

function drawing(points: PricePoint[], priced: (PricePoint & { price: number })[], box: Box, kind: 'wide' | 'narrow', aria: string): Safe {
  const { width, height, left, right, top, bottom } = box;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const lo = Math.min(...priced.map((p) => p.price));
  const hi = Math.max(...priced.map((p) => p.price));
  const step = niceStep(hi - lo || Math.max(1, hi * 0.1));
  const min = Math.floor(lo / step) * step - (hi === lo ? step : 0);
  const max = min + step * Math.max(4, Math.ceil((hi - min) / step));
  const y = (v: number) => top + plotH - ((v - min) / (max - min)) * plotH;
  const t0 = points[0].at.getTime();
  const t1 = points[points.length - 1].at.getTime();
  const x = (d: Date) => left + (t1 === t0 ? plotW / 2 : ((d.getTime() - t0) / (t1 - t0)) * plotW);
  const gridLines = Math.round((max - min) / step);
  const grid = Array.from({ length: gridLines + 1 }, (_, i) => {
    const v = min + step * i;
    return html`<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${COLORS.grid}"/>
<text x="${left - 8}" y="${(y(v) + box.font / 3).toFixed(1)}" text-anchor="end" font-size="${box.font}" fill="${COLORS.axis}">${fmtPrice(v)}</text>`;
  });
  const line = priced.map((p) => `${x(p.at).toFixed(1)},${y(p.price).toFixed(1)}`).join(' ');
  const dots = points.map((p) => {
    const tip = `${p.at.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${p.price === null ? 'nothing priced' : `${fmtPrice(p.price)} ${p.currency ?? ''}`}${p.fired ? ' (rule fired)' : ''}`;
    const cy = p.price === null ? top + plotH : y(p.price);
    const fill = p.price === null ? COLORS.empty : p.fired ? COLORS.fired : COLORS.line;
    return html`<g class="${p.fired ? 'fired' : ''}"><title>${tip}</title><circle cx="${x(p.at).toFixed(1)}" cy="${cy.toFixed(1)}" r="${p.fired ? box.dot * 1.5 : box.dot}" fill="${fill}" stroke="#fff" stroke-width="1.5"/></g>`;
  });
  const short = t1 - t0 < 2 * 86_400_000;
  // labels from the newest back, each kept only where it does not touch the one after it (checks
  // close in time sit close on the axis); the newest ends at the plot's edge
  const labelWidth = (text: string) => text.length * box.font * 0.62;
  const labels: Safe[] = [];
  let edge = Infinity;
  for (let i = points.length - 1; i >= 0 && labels.length < box.labels; i--) {
    const text = tick(points[i].at, short);
    const w = labelWidth(text);
    const newest = i === points.length - 1;
    const px = x(points[i].at);
    const [from, to] = newest ? [px - w, px] : [px - w / 2, px + w / 2];
    if (to > edge - box.font || from < left - box.font) continue;
    edge = from;
    labels.push(
      html`<text class="x" x="${px.toFixed(1)}" y="${height - 12}" text-anchor="${newest ? 'end' : 'middle'}" font-size="${box.font}" fill="${COLORS.axis}">${text}</text>`,
    );
  }
  return html`<svg class="${kind}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${aria}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif">
${grid}<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#c9d1db"/>
<polyline points="${line}" fill="none" stroke="${COLORS.line}" stroke-width="2.5" stroke-linejoin="round"/>${dots}${labels}</svg>`;
}
