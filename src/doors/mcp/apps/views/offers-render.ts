/// <reference lib="dom" />
/**
 * get_hotel_offers' answer as the offers app (hotel-offers.view.ts) and the hotel search app
 * (hotel-search.view.ts) show it: every seller side by side under its own name (Booking.com, the
 * hotel's own site …), cheapest stay total first with the basis it is stated on (all-in or before
 * taxes), the official site marked, free cancellation and its deadline, ads said as such, the rooms
 * a seller names, and a Book button that asks the host to open the seller's link.
 */
import type { OffersResult } from '../../../../sources/metasearch/hotels/offers-run.js';
import type { ViewBridge } from './view-bridge.js';
import { day, h, linkButton, money, plural } from './view-kit.js';
import './offers-render.css';

type Offer = OffersResult['offers'][number];
/** The structured result over MCP: the operation's answer without what only a program reads. */
export type Offers = Omit<OffersResult, 'wire_bytes' | 'elapsed_s'>;

export const isOffers = (a: object): a is Offers => Array.isArray((a as Offers).offers);

function cancellation(o: Pick<Offer, 'has_free_cancellation' | 'free_cancellation_until' | 'free_cancellation_time'>): HTMLElement {
  if (o.has_free_cancellation === null) return h('span', { class: 'muted' }, 'not stated');
  if (!o.has_free_cancellation) return h('span', {}, 'not free');
  const until = [o.free_cancellation_until, o.free_cancellation_time].filter(Boolean).join(', ');
  return h('span', { class: 'good' }, '✓ free', until ? ` until ${until}` : '');
}

function basisOf(a: Offers): string {
  if (a.display_basis === 'all_in' || a.rates_include_tax) return 'all-in totals (taxes and fees included)';
  if (a.display_basis === 'before_taxes') return 'totals before taxes and fees';
  return 'totals as each seller states them';
}

function offersTable(a: Offers, bridge: ViewBridge): HTMLElement {
  const sorted = a.offers
    .map((o, n) => ({ o, n }))
    .sort((x, y) => (x.o.total ?? Infinity) - (y.o.total ?? Infinity) || x.n - y.n)
    .map(({ o }) => o);
  const cheapest = sorted[0]?.total ?? null;
  const rows = sorted.map((o) => {
    const badges = [
      o.is_official ? h('span', { class: 'badge own' }, 'official site') : null,
      cheapest !== null && o.total === cheapest ? h('span', { class: 'badge best' }, '★ cheapest') : null,
      o.sponsored ? h('span', { class: 'badge' }, 'ad') : null,
      o.has_member_rate ? h('span', { class: 'badge' }, 'member rate') : null,
    ];
    const rooms = o.rooms.length
      ? h(
          'ul',
          { class: 'rooms' },
          ...o.rooms.map((r) =>
            h('li', {}, r.name, ' ', h('span', { class: 'muted' }, r.price_total !== null ? money(r.price_total, o.currency, true) : (r.price_text ?? ''))),
          ),
        )
      : null;
    return h(
      'tr',
      { 'data-source': o.source, class: o.is_official ? 'own' : undefined },
      h('th', { scope: 'row' }, o.raw_source, h('div', {}, ...badges), rooms),
      h('td', { class: 'num total', 'data-label': 'Stay' }, o.total === null ? '—' : money(o.total, o.currency, true)),
      h('td', { class: 'num night', 'data-label': 'Per night' }, o.price_per_night === null ? '—' : money(o.price_per_night, o.currency, true)),
      h('td', { class: 'cancel', 'data-label': 'Free cancellation' }, cancellation(o)),
      h('td', { class: 'act' }, linkButton(bridge, o.link, 'Book', ` on ${o.raw_source}`)),
    );
  });
  return h(
    'table',
    { class: 'sellers offers' },
    h('caption', {}, `Sellers, cheapest first: ${basisOf(a)}`),
    h('thead', {}, h('tr', {}, ...['Seller', 'Stay total', 'Per night', 'Free cancellation', ''].map((t) => h('th', { scope: 'col' }, t)))),
    h('tbody', {}, ...rows),
  );
}

export function stayLine(a: { check_in: string; check_out: string; nights: number; adults: number }): string {
  return `${day(a.check_in)} → ${day(a.check_out)} · ${plural(a.nights, 'night')} · ${plural(a.adults, 'adult')}`;
}

export function renderOffers(a: Offers, bridge: ViewBridge, main: HTMLElement): void {
  const stars = a.hotel_class_stars ? `${'★'.repeat(a.hotel_class_stars)} ` : '';
  main.append(
    h('h1', {}, a.name),
    h(
      'p',
      { class: 'muted' },
      stayLine(a),
      a.currency ? ` · ${a.currency}` : '',
      a.hotel_class ? ` · ${stars}${a.hotel_class}` : '',
      a.rating !== null ? ` · rated ${a.rating}${a.reviews !== null ? ` (${a.reviews} reviews)` : ''}` : '',
    ),
  );
  if (!a.offers.length) main.append(h('p', { role: 'status' }, 'No seller offers this stay.'));
  else main.append(h('div', { class: 'scroll', tabindex: 0, role: 'region', 'aria-label': 'Sellers' }, offersTable(a, bridge)));
  const range = a.price_insights.typical_price_range;
  if (range) main.append(h('p', { class: 'muted' }, `Typical price for this hotel: ${range.low_price}–${range.high_price} a night.`));
  if (a.missing_sources.length) main.append(h('p', { class: 'muted' }, `Expected but not listed: ${a.missing_sources.join(', ')}.`));
  for (const w of a.warnings) main.append(h('p', { class: 'muted' }, w));
}
