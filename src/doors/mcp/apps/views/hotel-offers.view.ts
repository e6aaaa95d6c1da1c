/// <reference lib="dom" />
/**
 * The get_hotel_offers and get_stay_price app. Offers: every seller side by side under its own
 * name (Booking.com, the hotel's own site …), cheapest stay total first with the basis it is stated
 * on (all-in or before taxes), the official site marked, free cancellation and its deadline, ads
 * said as such, the rooms a seller names, and a Book button that asks the host to open the seller's
 * link (ui/open-link: the frame itself opens nothing). Stay price: the headline total and its split,
 * the cheapest seller with its Book button, and a button that asks the host for every seller
 * (get_hotel_offers with the same stay, a read-only tool).
 */
import type { OffersResult, StayResult } from '../../../../sources/metasearch/hotels/offers-run.js';
import type { ViewBridge } from './view-bridge.js';
import { day, h, money, startView } from './view-kit.js';
import './hotel-offers.css';

type Offer = OffersResult['offers'][number];
type Offers = Omit<OffersResult, 'wire_bytes' | 'elapsed_s'>;
type Stay = StayResult;
type Answer = Offers | Stay;

const isOffers = (a: Answer): a is Offers => Array.isArray((a as Offers).offers);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** A Book button: the host opens the seller's page (where it lets apps open links), never the frame. */
function bookButton(bridge: ViewBridge, link: string | null, seller: string): HTMLElement | null {
  if (!link || !bridge.hostCapabilities.openLinks) return null;
  const button = h('button', { type: 'button', class: 'book', 'data-link': link }, 'Book', h('span', { class: 'sr-only' }, ` on ${seller}`), ' ↗');
  button.addEventListener('click', () => void bridge.request('ui/open-link', { url: link }).catch(() => (button.textContent = 'The host did not open it')));
  return button;
}

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
      h('td', { class: 'act' }, bookButton(bridge, o.link, o.raw_source)),
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

function stayLine(a: { check_in: string; check_out: string; nights: number; adults: number }): string {
  return `${day(a.check_in)} → ${day(a.check_out)} · ${plural(a.nights, 'night')} · ${plural(a.adults, 'adult')}`;
}

function renderOffers(a: Offers, bridge: ViewBridge, main: HTMLElement): void {
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

function renderStay(a: Stay, ctx: { bridge: ViewBridge; args: Record<string, unknown>; main: HTMLElement }): void {
  const { bridge, args, main } = ctx;
  main.append(h('h1', {}, a.name), h('p', { class: 'muted' }, stayLine(a)));
  const p = a.price;
  if (!a.available || !p) {
    main.append(h('p', { role: 'status', class: 'headline' }, 'Not available for these dates.'));
    return;
  }
  const total = p.total ?? p.total_before_taxes;
  main.append(
    h(
      'section',
      { class: 'headline', role: 'status' },
      h('span', { class: 'big' }, total ? money(total.amount, p.currency, true) : '—'),
      ` for the stay${p.total ? ', taxes and fees included' : p.total_before_taxes ? ', before taxes and fees' : ''}`,
      p.nightly ? h('span', { class: 'muted' }, ` · ${money(p.nightly.amount, p.currency, true)} a night`) : '',
    ),
  );
  const split = (
    [
      ['Before taxes', p.total_before_taxes],
      ['Taxes', p.taxes],
      ['Fees', p.fees],
    ] as const
  ).filter(([, f]) => f !== null);
  if (split.length)
    main.append(
      h('dl', { class: 'split' }, ...split.flatMap(([label, f]) => [h('dt', {}, label), h('dd', { class: 'num' }, money(f!.amount, p.currency, true))])),
    );
  const c = a.cheapest_seller;
  if (c)
    main.append(
      h(
        'p',
        { class: 'row cheapest', 'data-source': c.source },
        h(
          'span',
          {},
          'Cheapest: ',
          h('strong', {}, c.raw_source),
          c.is_official ? ' (the hotel’s own site)' : '',
          c.total !== null ? ` at ${money(c.total, a.currency, true)}` : '',
        ),
        bookButton(bridge, c.link, c.raw_source),
      ),
    );
  if (a.sellers_count > 1 && bridge.hostCapabilities.serverTools) {
    const all = h('button', { type: 'button', class: 'more' }, 'Compare every seller');
    all.addEventListener('click', () => {
      all.setAttribute('disabled', '');
      all.textContent = 'Asking…';
      void bridge
        .request('tools/call', { name: 'get_hotel_offers', arguments: args })
        .then((result) => {
          const offers = (result as { structuredContent?: Offers }).structuredContent;
          if (!offers || !isOffers(offers)) throw new Error('no result');
          main.replaceChildren();
          renderOffers(offers, bridge, main);
        })
        .catch(() => {
          all.removeAttribute('disabled');
          all.textContent = 'Could not load the sellers; try again';
        });
    });
    main.append(h('p', {}, all, h('span', { class: 'muted' }, ' (calls get_hotel_offers for this stay)')));
  }
}

startView<Answer>({
  name: 'hotelrates-hotel-offers',
  render(a, ctx) {
    if (isOffers(a)) renderOffers(a, ctx.bridge, ctx.main);
    else renderStay(a, ctx);
  },
});
