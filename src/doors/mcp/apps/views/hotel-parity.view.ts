/// <reference lib="dom" />
/**
 * The compare_hotel_prices app: the parity verdict first (the hotel's own site cheapest, undercut
 * by which agency and by how much, or not comparable and why) with the basis it was judged on,
 * then every seller side by side (the official site marked, the cheapest starred, what each total
 * includes), the sources that failed and those left out of the comparison.
 */
import type { CompareAnswer } from '../../../../../tools/compare.js';
import { SOURCE_NAMES } from '../../../../domain/source-names.js';
import { h, money, startView } from './view-kit.js';
import './hotel-parity.css';

type Answer = CompareAnswer;

const nameOf = (alias: string) => (alias === 'official' ? 'Hotel’s own site' : (SOURCE_NAMES[alias as keyof typeof SOURCE_NAMES] ?? alias));

function verdict(a: Answer): HTMLElement {
  const p = a.parity;
  const basis = p.basis
    ? `Compared on all-in totals (taxes and fees included) in ${p.basis.currency}, ${p.basis.nights} night${p.basis.nights === 1 ? '' : 's'}, ${p.basis.adults} adult${p.basis.adults === 1 ? '' : 's'}.`
    : null;
  if (p.status === 'undercut') {
    const first = p.undercuts[0];
    return h(
      'section',
      { class: 'verdict undercut', role: 'status', 'data-status': p.status },
      h('h2', {}, `✗ Undercut by ${p.undercuts.length} agenc${p.undercuts.length === 1 ? 'y' : 'ies'}`),
      h(
        'p',
        {},
        h('strong', {}, nameOf(first.source)),
        ` sells it for ${money(first.total, first.currency, true)}, ${money(first.amount, first.currency, true)} (${first.pct}%) below the hotel’s own ${money(p.official!.total, p.official!.currency, true)}.`,
      ),
      basis && h('p', { class: 'muted' }, basis),
    );
  }
  if (p.status === 'official_cheapest')
    return h(
      'section',
      { class: 'verdict parity', role: 'status', 'data-status': p.status },
      h('h2', {}, '✓ The hotel’s own site is cheapest'),
      h(
        'p',
        {},
        `${money(p.official!.total, p.official!.currency, true)}`,
        p.cheapest_agency
          ? `; the cheapest agency, ${nameOf(p.cheapest_agency.source)}, asks ${money(p.cheapest_agency.total, p.cheapest_agency.currency, true)}.`
          : '.',
      ),
      basis && h('p', { class: 'muted' }, basis),
    );
  return h(
    'section',
    { class: 'verdict unknown', role: 'status', 'data-status': p.status },
    h('h2', {}, 'Parity not comparable'),
    h('p', {}, p.reason ?? 'The sources do not state enough to compare.'),
  );
}

function sellers(a: Answer): HTMLElement {
  const under = new Map(a.parity.undercuts.map((u) => [u.source, u]));
  const rows = a.offers.map((o) => {
    const u = under.get(o.source);
    const notes = [
      o.source === 'official' ? h('span', { class: 'badge own' }, 'official') : null,
      o.cheapest ? h('span', { class: 'badge best' }, '★ cheapest') : null,
      u ? h('span', { class: 'badge under' }, `−${money(u.amount, u.currency, true)} (${u.pct}%)`) : null,
      !o.comparable ? h('span', { class: 'muted' }, 'not comparable') : null,
    ].filter((n) => n !== null);
    return h(
      'tr',
      { 'data-source': o.source, class: o.source === 'official' ? 'own' : undefined },
      h('th', { scope: 'row' }, nameOf(o.source), h('span', { class: 'alias' }, ` ${o.source}`)),
      h('td', { class: 'num' }, o.total === null ? '—' : money(o.total, o.currency, true)),
      h('td', { class: 'num' }, o.price_per_night === null ? '—' : money(o.price_per_night, o.currency, true)),
      h('td', {}, o.taxes_and_fees_included === null ? 'not stated' : o.taxes_and_fees_included ? 'included' : 'extra'),
      h('td', {}, ...notes),
    );
  });
  const failed = a.sources
    .filter((s) => s.status === 'error')
    .map((s) =>
      h(
        'tr',
        { 'data-source': s.source, class: 'failed' },
        h('th', { scope: 'row' }, nameOf(s.source), h('span', { class: 'alias' }, ` ${s.source}`)),
        h('td', { colspan: 4, class: 'error' }, `failed: ${s.error?.detail ?? 'error'} (${s.error?.status ?? '?'})`),
      ),
    );
  return h(
    'table',
    { class: 'sellers' },
    h('caption', {}, 'Sellers, cheapest first'),
    h('thead', {}, h('tr', {}, ...['Seller', 'Stay total', 'Per night', 'Taxes & fees', ''].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows, ...failed),
  );
}

startView<Answer>({
  name: 'hotelrates-hotel-parity',
  render(a, { main }) {
    const matched = a.sources.filter((s) => s.matched);
    main.append(
      h('h1', {}, 'Price parity'),
      h(
        'p',
        { class: 'muted' },
        `${a.check_in} → ${a.check_out} · ${a.nights} night${a.nights === 1 ? '' : 's'} · ${a.adults} adult${a.adults === 1 ? '' : 's'}`,
        a.comparison_currency ? ` · ${a.comparison_currency}` : '',
        ` · ${a.sources_ok} of ${a.sources_ok + a.sources_failed} sources answered`,
      ),
      verdict(a),
      h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Sellers' }, sellers(a)),
    );
    if (a.parity.excluded.length)
      main.append(
        h('h2', {}, 'Left out of the comparison'),
        h('ul', {}, ...a.parity.excluded.map((e) => h('li', {}, h('strong', {}, nameOf(e.source)), `: ${e.reason}`))),
      );
    if (matched.length)
      main.append(
        h('h2', {}, 'Found on each site as'),
        h('ul', {}, ...matched.map((s) => h('li', {}, `${nameOf(s.source)}: ${s.matched!.name} (${s.matched!.id})`))),
      );
  },
});
