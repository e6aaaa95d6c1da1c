import { html, type Safe } from './html.js';
import { timeTicks, type TimeTick } from './time-ticks.js';

/** One check of a watch: the cheapest price it saw (null: nothing priced) and whether its rule fired. */
export interface PricePoint {
  at: Date;
  price: number | null;
  currency: string | null;
  fired: boolean;
  /** The official site's all-in total the check's parity compared (compare watches); null: none stated or not comparable. */
  official?: number | null;
}

/**
 * Two drawings: `wide` for screens, `narrow` for phones (CSS shows one), each with labels that fit
 * it. `lane`: the band under the plot where checks that priced nothing sit (never on a gridline,
 * which would read as a price); `line`: the height of one line of x labels.
 */
const BOXES = {
  wide: { width: 960, height: 260, left: 70, right: 24, top: 16, bottom: 18, labels: 8, font: 12, dot: 4.5, lane: 36, line: 15 },
  narrow: { width: 420, height: 260, left: 56, right: 14, top: 16, bottom: 20, labels: 3, font: 15, dot: 5, lane: 42, line: 18 },
};
type Box = (typeof BOXES)['wide'];
const COLORS = { line: '#3b7be8', fired: '#d64545', official: '#1d7a4f', grid: '#e8ecf1', axis: '#5b6776', empty: '#6b7785' };

/** A 1, 2, 2.5 or 5 × 10^k step so that four steps cover the span. */
function niceStep(span: number): number {
  const raw = Math.max(span, 1e-9) / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 2.5, 5, 10].map((m) => m * p).find((v) => v >= raw)!;
}

const fmtPrice = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2 });

type Priced = PricePoint & { price: number };

/**
 * The price seen at each check as a line with a point per check (red where the rule fired), the
 * official site's price beside it where the check compared one, and the checks that priced nothing
 * in a band of their own under the plot; inline SVG without scripts, a wide and a narrow drawing.
 */
export function priceChart(points: PricePoint[]): Safe {
  const priced = points.filter((p): p is Priced => p.price !== null);
  if (!priced.length) return html`<p class="empty">No priced check yet: the chart starts with the first check that saw a price.</p>`;
  const currency = priced[priced.length - 1].currency ?? '';
  const values = [...priced.map((p) => p.price), ...points.flatMap((p) => (typeof p.official === 'number' ? [p.official] : []))];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const hasOfficial = points.some((p) => typeof p.official === 'number');
  const hasEmpty = priced.length < points.length;
  const unit = currency ? ` (${currency})` : '';
  const aria =
    `Cheapest price at each of ${points.length} checks, ${fmtPrice(lo)} to ${fmtPrice(hi)} ${currency}${hasEmpty ? `; ${points.length - priced.length} priced nothing` : ''}`.trim();
  const legend = [
    html`<span><i style="background:${COLORS.line}"></i>Cheapest price per check${unit}</span>`,
    hasOfficial ? html`<span><i style="background:${COLORS.official}"></i>Official site${unit}</span>` : html``,
    html`<span><i style="background:${COLORS.fired}"></i>Rule fired</span>`,
    hasEmpty ? html`<span><i style="background:#fff;border:2px solid ${COLORS.empty}"></i>Nothing priced</span>` : html``,
  ];
  return html`<div class="chart">${drawing(points, { lo, hi, hasEmpty }, BOXES.wide, 'wide', aria)}${drawing(points, { lo, hi, hasEmpty }, BOXES.narrow, 'narrow', aria)}
<div class="legend">${legend}</div></div>`;
}

/** Runs of consecutive points that all have a value: a line never bridges a check without one. */
function runs<T>(points: T[], value: (p: T) => number | null | undefined): T[][] {
  const out: T[][] = [[]];
  for (const p of points) {
    if (typeof value(p) === 'number') out[out.length - 1].push(p);
    else if (out[out.length - 1].length) out.push([]);
  }
  return out.filter((r) => r.length);
}

function drawing(points: PricePoint[], range: { lo: number; hi: number; hasEmpty: boolean }, box: Box, kind: 'wide' | 'narrow', aria: string): Safe {
  const { width, left, right, top, font } = box;
  const { lo, hi, hasEmpty } = range;
  const plotW = width - left - right;
  const plotH = box.height - top - box.bottom - 2 * box.line;
  const lane = hasEmpty ? box.lane : 0;
  const height = box.height + lane;
  const axisY = top + plotH;
  const step = niceStep(hi - lo || Math.max(1, hi * 0.1));
  const min = Math.floor(lo / step) * step - (hi === lo ? step : 0);
  const max = min + step * Math.max(4, Math.ceil((hi - min) / step));
  const y = (v: number) => top + plotH - ((v - min) / (max - min)) * plotH;
  const t0 = points[0].at.getTime();
  const t1 = points[points.length - 1].at.getTime();
  const xAt = (t: number) => left + (t1 === t0 ? plotW / 2 : ((t - t0) / (t1 - t0)) * plotW);
  const x = (d: Date) => xAt(d.getTime());
  const gridLines = Math.round((max - min) / step);
  const grid = Array.from({ length: gridLines + 1 }, (_, i) => {
    const v = min + step * i;
    return html`<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${COLORS.grid}"/>
<text x="${left - 8}" y="${(y(v) + font / 3).toFixed(1)}" text-anchor="end" font-size="${font}" fill="${COLORS.axis}">${fmtPrice(v)}</text>`;
  });
  // the band's middle, clear of the lowest price label above it
  const laneY = axisY + lane / 2 + font / 3;
  const laneLabel = hasEmpty
    ? html`<text x="${left - 8}" y="${(laneY + font / 3).toFixed(1)}" text-anchor="end" font-size="${font}" fill="${COLORS.axis}">none</text>`
    : html``;
  const polyline = (run: PricePoint[], v: (p: PricePoint) => number, color: string, dash: string) =>
    html`<polyline points="${run.map((p) => `${x(p.at).toFixed(1)},${y(v(p)).toFixed(1)}`).join(' ')}" fill="none" stroke="${color}" stroke-width="2.5" stroke-linejoin="round"${dash ? html` stroke-dasharray="${dash}"` : html``}/>`;
  const lines = runs(points, (p) => p.price).map((r) => polyline(r, (p) => p.price!, COLORS.line, ''));
  const officialLines = runs(points, (p) => p.official).map((r) => polyline(r, (p) => p.official!, COLORS.official, '6 4'));
  const officialMarks = points.flatMap((p) => {
    if (typeof p.official !== 'number') return [];
    const s = box.dot * 1.6;
    const tip = `${p.at.toISOString().slice(0, 16).replace('T', ' ')} UTC: official site ${fmtPrice(p.official)} ${p.currency ?? ''}`;
    return [
      html`<g class="official"><title>${tip}</title><rect x="${(x(p.at) - s / 2).toFixed(1)}" y="${(y(p.official) - s / 2).toFixed(1)}" width="${s.toFixed(1)}" height="${s.toFixed(1)}" fill="${COLORS.official}" stroke="#fff" stroke-width="1"/></g>`,
    ];
  });
  const dots = points.map((p) => {
    const tip = `${p.at.toISOString().slice(0, 16).replace('T', ' ')} UTC: ${p.price === null ? 'nothing priced' : `${fmtPrice(p.price)} ${p.currency ?? ''}`}${p.fired ? ' (rule fired)' : ''}`;
    if (p.price === null) {
      return html`<g class="empty"><title>${tip}</title><circle cx="${x(p.at).toFixed(1)}" cy="${laneY.toFixed(1)}" r="${box.dot}" fill="#fff" stroke="${COLORS.empty}" stroke-width="2"/></g>`;
    }
    const fill = p.fired ? COLORS.fired : COLORS.line;
    return html`<g class="${p.fired ? 'fired' : 'priced'}"><title>${tip}</title><circle cx="${x(p.at).toFixed(1)}" cy="${y(p.price).toFixed(1)}" r="${p.fired ? box.dot * 1.5 : box.dot}" fill="${fill}" stroke="#fff" stroke-width="1.5"/></g>`;
  });
  const labelTop = axisY + lane + box.line + 2;
  const labels = timeTicks(t0, t1, { width: plotW, font, max: box.labels }).map((t) => xLabel(t, xAt(t.at), { box, labelTop }));
  return html`<svg class="${kind}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${aria}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif">
${grid}<line x1="${left}" x2="${width - right}" y1="${axisY}" y2="${axisY}" stroke="#c9d1db"/>${laneLabel}
${lines}${officialLines}${officialMarks}${dots}${labels}</svg>`;
}

/** One x label: the time (and under it the date where the day changes), kept inside the drawing at either end. */
function xLabel(t: TimeTick, px: number, o: { box: Box; labelTop: number }): Safe {
  const { box, labelTop } = o;
  const w = Math.max(t.text.length, t.date?.length ?? 0) * box.font * 0.62;
  const anchor = px - w / 2 < 2 ? 'start' : px + w / 2 > box.width - 2 ? 'end' : 'middle';
  const ax = anchor === 'start' ? Math.max(px, 2) : anchor === 'end' ? Math.min(px, box.width - 2) : px;
  const date = t.date ? html`<tspan x="${ax.toFixed(1)}" dy="${box.line}">${t.date}</tspan>` : html``;
  return html`<text class="x" x="${ax.toFixed(1)}" y="${labelTop.toFixed(1)}" text-anchor="${anchor}" font-size="${box.font}" fill="${COLORS.axis}">${t.text}${date}</text>`;
}
