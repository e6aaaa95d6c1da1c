/// <reference lib="dom" />
/**
 * The get_hotel_offers and get_stay_price app. Offers: every seller side by side
 * (offers-render.ts), a Book button per seller that asks the host to open the seller's link
 * (ui/open-link: the frame itself opens nothing). Stay price: the headline total and its split,
 * the cheapest seller with its Book button, and a button that asks the host for every seller
 * (get_hotel_offers with the same stay, a read-only tool).
 */
import type { StayResult } from '../../../../sources/metasearch/hotels/offers-run.js';
import { isOffers, renderOffers, stayLine, type Offers } from './offers-render.js';
import type { ViewBridge } from './view-bridge.js';
import { callButton, h, linkButton, money, startView } from './view-kit.js';
import './hotel-offers.css';

type Stay = StayResult;
type Answer = Offers | Stay;

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
        linkButton(bridge, c.link, 'Book', ` on ${c.raw_source}`),
      ),
    );
  const all =
    a.sellers_count > 1 &&
    callButton<Offers>(bridge, 'Compare every seller', 'get_hotel_offers', args, (offers) => {
      if (!isOffers(offers)) throw new Error('not offers');
      main.replaceChildren();
      renderOffers(offers, bridge, main);
    });
  if (all) main.append(h('p', {}, all, h('span', { class: 'muted' }, ' (calls get_hotel_offers for this stay)')));
}

startView<Answer>({
  name: 'hotelrates-hotel-offers',
  render(a, ctx) {
    if (isOffers(a)) renderOffers(a, ctx.bridge, ctx.main);
    else renderStay(a, ctx);
  },
});
