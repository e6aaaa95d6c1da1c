import { describe, expect, it } from 'vitest';
import { priceChart, type PricePoint } from '../../../../src/doors/dashboard/price-chart.js';
import { timeTicks } from '../../../../src/doors/dashboard/time-ticks.js';

/** The watch chart (issue 42, defect 7), read back from its SVG. */
const H = 3_600_000;
const start = Date.parse('2027-03-01T06:00:00Z');
const point = (h: number, price: number | null, extra: Partial<PricePoint> = {}): PricePoint => ({
  at: new Date(start + h * H),
  price,
  currency: 'EUR',
  fired: false,
  ...extra,
});

const svg = (points: PricePoint[], kind: 'wide' | 'narrow' = 'wide') => {
  const all = String(priceChart(points));
  return all.slice(all.indexOf(`<svg class="${kind}"`), all.indexOf('</svg>', all.indexOf(`<svg class="${kind}"`)));
};
const gridYs = (s: string) => [...s.matchAll(/<line x1="\d+" x2="\d+" y1="([\d.]+)"/g)].map((m) => Number(m[1]));
const xLabels = (s: string) =>
  [...s.matchAll(/<text class="x"[^>]*>([^<]*)(?:<tspan[^>]*>([^<]*)<\/tspan>)?<\/text>/g)].map((m) => (m[2] ? `${m[1]} ${m[2]}` : m[1]));
const xPositions = (s: string) => [...s.matchAll(/<text class="x" x="([\d.]+)"/g)].map((m) => Number(m[1]));

describe('the price chart of a watch', () => {
  it('puts a check that priced nothing in its own band under the plot, never on a gridline', () => {
    const s = svg([point(0, 140), point(24, null), point(48, 120), point(72, 130)]);
    const empty = /<g class="empty"><title>[^<]*nothing priced<\/title><circle cx="[\d.]+" cy="([\d.]+)"/.exec(s);
    expect(empty).not.toBeNull();
    const cy = Number(empty![1]);
    const lines = gridYs(s);
    // below the axis (the lowest line) and on none of the gridlines
    expect(cy).toBeGreaterThan(Math.max(...lines) + 4);
    expect(s).toContain('>none</text>');
    // the price line does not bridge the unpriced check: two runs
    expect(s.match(/<polyline/g)).toHaveLength(2);
    expect(String(priceChart([point(0, 140), point(24, null)]))).toContain('Nothing priced');
  });

  it('labels the whole range, oldest to newest, with no label twice', () => {
    // 60 checks every 6 hours: 15 days
    const pts = Array.from({ length: 60 }, (_, i) => point(i * 6, 100 + (i % 7)));
    for (const kind of ['wide', 'narrow'] as const) {
      const s = svg(pts, kind);
      const labels = xLabels(s);
      expect(labels.length).toBeGreaterThanOrEqual(kind === 'wide' ? 4 : 2);
      expect(new Set(labels).size).toBe(labels.length);
      const xs = xPositions(s);
      const width = kind === 'wide' ? 960 : 420;
      // the first label sits in the older half, the last in the newer half
      expect(xs[0]).toBeLessThan(width * 0.35);
      expect(xs[xs.length - 1]).toBeGreaterThan(width * 0.65);
    }
  });

  it('dates the labels of a range under two days (the time, and the date where the day changes)', () => {
    const pts = Array.from({ length: 12 }, (_, i) => point(i * 3, 100 + i));
    const labels = xLabels(svg(pts));
    expect(labels[0]).toMatch(/^\d\d:\d\d Mar 1$/);
    expect(labels.some((l) => l.endsWith('Mar 2'))).toBe(true);
    // a time names its day by the date under it or under an earlier label: no two name the same instant
    let day = '';
    const instants = labels.map((l) => {
      const [time, ...date] = l.split(' ');
      if (date.length) day = date.join(' ');
      return `${day} ${time}`;
    });
    expect(new Set(instants).size).toBe(labels.length);
    // checks within a minute: one label with its date
    const close = [point(0, 100), { ...point(0, 101), at: new Date(start + 20_000) }];
    expect(xLabels(svg(close))).toEqual(['06:00 Mar 1']);
  });

  it('draws the official site’s price of a parity watch beside the cheapest', () => {
    const pts = [point(0, 140, { official: 150 }), point(24, 135, { official: 150, fired: true }), point(48, 138, { official: null })];
    const s = svg(pts);
    expect(s.match(/<g class="official">/g)).toHaveLength(2);
    expect(s).toContain('official site 150 EUR');
    expect(String(priceChart(pts))).toContain('Official site (EUR)');
    // the axis covers the official price too
    const top = Math.max(...[...s.matchAll(/text-anchor="end" font-size="12" fill="#5b6776">([\d,.]+)</g)].map((m) => Number(m[1].replace(',', ''))));
    expect(top).toBeGreaterThanOrEqual(150);
    // a chart without official prices says nothing of them
    expect(String(priceChart([point(0, 1), point(1, 2)]))).not.toContain('Official site');
  });
});

describe('time ticks', () => {
  it('uses whole days for weeks of checks and never more than asked', () => {
    const t = timeTicks(start, start + 20 * 24 * H, { width: 866, font: 12, max: 8 });
    expect(t.length).toBeLessThanOrEqual(8);
    expect(t.every((x) => x.date === null && /^[A-Z][a-z]{2} \d+$/.test(x.text))).toBe(true);
    expect(t.every((x) => x.at % (24 * H) === 0)).toBe(true);
  });
});
