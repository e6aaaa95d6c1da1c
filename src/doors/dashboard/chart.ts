import { html, type Safe } from './html.js';
import type { BucketUsage } from './usage.js';

/** Two drawings of one chart: `wide` for screens, `narrow` for phones (CSS shows one), each with labels that fit it. */
const BOXES = {
  wide: { width: 960, height: 230, left: 48, right: 10, top: 14, bottom: 28, labels: 10, font: 11 },
  narrow: { width: 420, height: 250, left: 46, right: 8, top: 14, bottom: 34, labels: 4, font: 14 },
};
type Box = (typeof BOXES)['wide'];
const COLORS = { ok: '#3b7be8', error: '#d64545', grid: '#e8ecf1', axis: '#5b6776' };
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A whole 1, 2 or 5 × 10^k step so that four steps cover `max`: the axis only shows whole counts. */
function axisStep(max: number): number {
  if (max <= 4) return 1;
  const raw = max / 4;
  const p = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * p).find((v) => v >= raw)!;
}

const label = (b: BucketUsage) =>
  b.unit === 'hour' ? `${b.start.slice(11, 13)}:00` : `${MONTHS[Number(b.start.slice(5, 7)) - 1]} ${Number(b.start.slice(8, 10))}`;
const when = (b: BucketUsage) => (b.unit === 'hour' ? `${b.start.slice(0, 10)} ${b.start.slice(11, 13)}:00 UTC` : b.start.slice(0, 10));

/** Requests per hour or day as stacked bars (successful below, errors above), inline SVG without scripts. */
export function requestsChart(days: BucketUsage[]): Safe {
  const total = days.reduce((s, d) => s + d.requests, 0);
  const unit = days[0]?.unit ?? 'day';
  const aria = `Requests and errors per ${unit}: ${total} requests in ${days.length} ${unit}s`;
  return html`<div class="chart">${drawing(days, BOXES.wide, 'wide', aria)}${drawing(days, BOXES.narrow, 'narrow', aria)}
<div class="legend"><span><i style="background:${COLORS.ok}"></i>Successful requests</span><span><i style="background:${COLORS.error}"></i>Errors (status ≥ 400)</span></div></div>`;
}

function drawing(days: BucketUsage[], box: Box, kind: 'wide' | 'narrow', aria: string): Safe {
  const { width, height, left, right, top, bottom } = box;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const step = axisStep(Math.max(0, ...days.map((d) => d.requests)));
  const max = step * 4;
  const y = (v: number) => top + plotH - (v / max) * plotH;
  const slot = plotW / Math.max(1, days.length);
  const barW = Math.max(2, Math.min(28, slot * 0.68));
  const grid = [0, 1, 2, 3, 4].map((i) => {
    const v = step * i;
    return html`<line x1="${left}" x2="${width - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="${COLORS.grid}"/>
<text x="${left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" font-size="${box.font}" fill="${COLORS.axis}">${v.toLocaleString('en-US')}</text>`;
  });
  // labels from the newest back, a whole step apart, so that the last two never crowd each other
  const every = Math.ceil(days.length / box.labels);
  const labelled = new Set<number>();
  for (let i = days.length - 1; i >= 0; i -= every) labelled.add(i);
  const bars = days.map((d, i) => {
    const x = left + i * slot + (slot - barW) / 2;
    const ok = d.requests - d.errors;
    const tip = `${when(d)}: ${d.requests} requests, ${d.errors} errors`;
    // on a phone the newest label ends at the plot's edge instead of running past it
    const last = i === days.length - 1 && kind === 'narrow';
    const tick = labelled.has(i)
      ? html`<text class="x" x="${(last ? width - right : x + barW / 2).toFixed(1)}" y="${height - 9}" text-anchor="${last ? 'end' : 'middle'}" font-size="${box.font}" fill="${COLORS.axis}">${label(d)}</text>`
      : html``;
    return html`<g><title>${tip}</title>
${ok > 0 ? html`<rect x="${x.toFixed(1)}" y="${y(ok).toFixed(1)}" width="${barW.toFixed(1)}" height="${(plotH - (y(ok) - top)).toFixed(1)}" rx="2" fill="${COLORS.ok}"/>` : html``}
${d.errors > 0 ? html`<rect x="${x.toFixed(1)}" y="${y(d.requests).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(ok) - y(d.requests)).toFixed(1)}" rx="2" fill="${COLORS.error}"/>` : html``}
${tick}</g>`;
  });
  return html`<svg class="${kind}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${aria}" xmlns="http://www.w3.org/2000/svg" font-family="system-ui,sans-serif">
${grid}<line x1="${left}" x2="${width - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#c9d1db"/>${bars}</svg>`;
}
