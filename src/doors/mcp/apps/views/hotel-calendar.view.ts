/// <reference lib="dom" />
/**
 * The get_hotel_calendar app: the tool's answer as month grids, each night tinted from cheap to
 * dear, the cheapest nights starred, unavailable nights struck, nights that only sell longer
 * flagged with their minimum stay; a switch to the week (or month) statistics. The default answer
 * prices only the cheapest nights; with nights "list" it prices every night, and a host that
 * lets apps call tools gets a button asking for that list.
 */
import type { HotelCalendarAnswer } from '../../../../../tools/views/hotel-calendar.js';
import { day, h, money, startView } from './view-kit.js';
import './hotel-calendar.css';

type Night = { date: string; rate_total: number | null; min_length_of_stay?: number; nights?: number };

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** What the answer says of each night of its range: its price when listed, unavailable, its minimum stay. */
function nightsOf(a: HotelCalendarAnswer): Map<string, Night & { known: boolean }> {
  const out = new Map<string, Night & { known: boolean }>();
  if (!a.first_date || !a.last_date) return out;
  for (let d = a.first_date; d <= a.last_date; d = addDays(d, 1)) out.set(d, { date: d, rate_total: null, known: false });
  for (const n of a.nights ?? []) out.set(n.date, { ...(n as Night), known: true });
  for (const c of a.cheapest) out.set(c.date, { ...out.get(c.date)!, rate_total: c.rate_total, known: true });
  for (const d of a.unavailable) if (out.has(d)) out.set(d, { date: d, rate_total: null, known: true });
  for (const l of a.longer_stay_only) if (out.has(l.date)) out.get(l.date)!.min_length_of_stay = l.min_length_of_stay;
  return out;
}

function cell(n: (Night & { known: boolean }) | undefined, date: string, a: HotelCalendarAnswer, rank: number): HTMLTableCellElement {
  if (!n) return h('td', { class: 'out' });
  const unavailable = a.unavailable.includes(date);
  const dayNo = Number(date.slice(8));
  const labels = [day(date, { weekday: 'long', day: 'numeric', month: 'long' })];
  const attrs: Record<string, unknown> = { 'data-date': date };
  let price: Node | string = '·';
  if (unavailable) {
    labels.push('unavailable');
    attrs.class = 'none';
    price = '—';
  } else if (n.rate_total !== null) {
    const span = (a.max ?? 0) - (a.min ?? 0);
    const heat = span > 0 ? Math.round(((n.rate_total - a.min!) / span) * 100) : 0;
    attrs.style = `--heat:${heat}%`;
    attrs.class = rank ? `priced cheap${rank === 1 ? ' cheapest' : ''}` : 'priced';
    attrs['data-price'] = n.rate_total;
    if (rank) attrs['data-rank'] = rank;
    price = money(n.rate_total, a.currency);
    labels.push(`${money(n.rate_total, a.currency, true)}${n.nights && n.nights > 1 ? ` for ${n.nights} nights` : ''}`);
    if (rank === 1) labels.push('the cheapest night');
    else if (rank) labels.push(`cheapest ${rank}`);
  } else {
    labels.push('price not listed');
    attrs.class = 'unknown';
  }
  if (n.min_length_of_stay && n.min_length_of_stay > 1) labels.push(`sells only for ${n.min_length_of_stay} nights or more`);
  return h(
    'td',
    { ...attrs, 'aria-label': labels.join(', '), title: labels.join(', ') },
    h('span', { class: 'd', 'aria-hidden': 'true' }, dayNo, rank === 1 ? ' ★' : ''),
    h('span', { class: 'p', 'aria-hidden': 'true' }, price),
    n.min_length_of_stay && n.min_length_of_stay > 1 ? h('span', { class: 'm', 'aria-hidden': 'true' }, `min ${n.min_length_of_stay}`) : null,
  );
}

/** One table per month the range touches, weeks from Monday. */
function months(a: HotelCalendarAnswer): HTMLElement {
  const nights = nightsOf(a);
  const ranks = new Map(a.cheapest.map((c, i) => [c.date, i + 1]));
  const wrap = h('div', { class: 'months' });
  if (!a.first_date || !a.last_date) return wrap;
  for (let first = `${a.first_date.slice(0, 7)}-01`; first <= a.last_date; first = addDays(first, 32).slice(0, 8) + '01') {
    const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7;
    const rows: HTMLTableRowElement[] = [];
    let row = h('tr');
    for (let i = 0; i < lead; i++) row.append(h('td', { class: 'out' }));
    for (let d = first; d.slice(0, 7) === first.slice(0, 7); d = addDays(d, 1)) {
      row.append(cell(nights.get(d), d, a, ranks.get(d) ?? 0));
      if (row.children.length === 7) {
        rows.push(row);
        row = h('tr');
      }
    }
    if (row.children.length) rows.push(row);
    wrap.append(
      h(
        'table',
        { class: 'month' },
        h('caption', {}, day(first, { month: 'long', year: 'numeric' })),
        h('thead', {}, h('tr', {}, ...WEEKDAYS.map((w) => h('th', { scope: 'col' }, w)))),
        h('tbody', {}, ...rows),
      ),
    );
  }
  return wrap;
}

function periodsTable(a: HotelCalendarAnswer): HTMLElement {
  const v = (n: number | null) => (n === null ? '—' : money(n, a.currency));
  return h(
    'table',
    { class: 'periods' },
    h('thead', {}, h('tr', {}, ...['From', 'To', 'Priced', 'Min', 'Median', 'Max'].map((t) => h('th', { scope: 'col' }, t)))),
    h(
      'tbody',
      {},
      ...a.periods.map((p) =>
        h(
          'tr',
          {},
          h('td', {}, day(p.from)),
          h('td', {}, day(p.to)),
          h('td', {}, p.priced),
          h('td', {}, v(p.min)),
          h('td', {}, v(p.median)),
          h('td', {}, v(p.max)),
        ),
      ),
    ),
  );
}

startView<HotelCalendarAnswer>({
  name: 'hotelrates-hotel-calendar',
  render(a, { bridge, args, main }) {
    const grid = months(a);
    const stats = periodsTable(a);
    stats.hidden = true;
    const weekly = a.periods.length > 0 && a.periods.every((p) => addDays(p.from, 6) >= p.to);
    const toggle = (showGrid: boolean) => () => {
      grid.hidden = !showGrid;
      stats.hidden = showGrid;
      gridButton.setAttribute('aria-pressed', String(showGrid));
      statsButton.setAttribute('aria-pressed', String(!showGrid));
    };
    const gridButton = h('button', { type: 'button', 'aria-pressed': 'true', onclick: toggle(true) }, 'Calendar');
    const statsButton = h('button', { type: 'button', 'aria-pressed': 'false', onclick: toggle(false) }, weekly ? 'By week' : 'By month');
    const best = a.cheapest[0];
    main.append(
      ...[
        h('h1', {}, 'Nightly prices'),
        h(
          'p',
          { class: 'muted' },
          `${a.priced} of ${a.nights_requested} nights priced`,
          a.first_date ? ` · ${day(a.first_date)} – ${day(a.last_date!)}` : '',
          a.currency ? ` · ${a.currency}` : '',
          ` · ${a.market}`,
        ),
        a.priced
          ? h('p', {}, 'From ', h('strong', {}, money(a.min!, a.currency)), ` · median ${money(a.median!, a.currency)} · up to ${money(a.max!, a.currency)}`)
          : h('p', {}, 'No night is priced in this range.'),
        best
          ? h(
              'p',
              { class: 'best' },
              '★ Cheapest: ',
              h(
                'strong',
                { 'data-cheapest': best.date },
                `${day(best.date, { weekday: 'long', day: 'numeric', month: 'long' })}, ${money(best.rate_total, a.currency, true)}`,
              ),
            )
          : null,
        h('div', { class: 'row', role: 'group', 'aria-label': 'View' }, gridButton, statsButton),
        h(
          'p',
          { class: 'legend muted', 'aria-hidden': 'true' },
          h('span', { class: 'swatch' }),
          ' cheap → dear · ★ cheapest · — unavailable · min N: sells for N nights or more · ·: price not listed',
        ),
        grid,
        stats,
      ].filter((n): n is HTMLElement => n !== null),
    );
    if (!a.nights && a.priced > a.cheapest.length && bridge.hostCapabilities.serverTools) {
      const more = h('button', { type: 'button', class: 'more' }, 'Show every night’s price');
      more.addEventListener('click', () => {
        more.disabled = true;
        more.textContent = 'Asking…';
        void bridge
          .request('tools/call', { name: 'get_hotel_calendar', arguments: { ...args, nights: 'list' } })
          .then((result) => {
            const answer = (result as { structuredContent?: HotelCalendarAnswer }).structuredContent;
            if (!answer) throw new Error('no result');
            main.replaceChildren();
            this.render(answer, { bridge, args: { ...args, nights: 'list' }, main });
          })
          .catch(() => {
            more.disabled = false;
            more.textContent = 'Could not load every night; try again';
          });
      });
      main.append(h('p', {}, more, h('span', { class: 'muted' }, ' (calls get_hotel_calendar again with nights "list")')));
    }
  },
});
