/// <reference lib="dom" />
/**
 * The search_hotels app: one card per property in the tool's order, with its photo (when the answer
 * has one on the host the app's CSP declares, THUMBNAIL_ORIGINS), class, guest rating, the stay's
 * price and its basis, a few amenities; "Sellers and prices" has the host call get_hotel_offers for
 * the property and the same stay and shows every seller here (offers-render.ts), with a way back;
 * "Website" asks the host to open the property's own site.
 */
import type { z } from 'zod';
import type { HotelSearchView } from '../../../../../tools/views/hotel-search.js';
import { isOffers, renderOffers, type Offers } from './offers-render.js';
import { THUMBNAIL_ORIGINS } from './thumbnail-origins.js';
import type { ViewBridge } from './view-bridge.js';
import { callButton, day, h, linkButton, money, plural, startView } from './view-kit.js';
import './hotel-search.css';

type Answer = z.infer<typeof HotelSearchView>;
type Property = Answer['properties'][number];

/** The first photo on a declared origin (`https://*.example.com` matches its subdomains); others would be refused by the CSP. */
function photoOf(p: Property): string | null {
  for (const url of p.images ?? []) {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      continue;
    }
    const ok = THUMBNAIL_ORIGINS.some((o) => {
      const [scheme, host] = o.split('://');
      return u.protocol === `${scheme}:` && (host.startsWith('*.') ? u.hostname.endsWith(host.slice(1)) : u.hostname === host);
    });
    if (ok) return url;
  }
  return null;
}

function card(p: Property, a: Answer, bridge: ViewBridge, show: (offers: Offers) => void, n: number): HTMLElement {
  const price = p.price;
  const total = price?.total ?? price?.total_before_taxes ?? null;
  const photo = photoOf(p);
  const sellers =
    p.property_token &&
    callButton<Offers>(
      bridge,
      'Sellers and prices',
      'get_hotel_offers',
      {
        property_token: p.property_token,
        check_in: a.check_in,
        check_out: a.check_out,
        adults: a.adults,
        property_name: p.name,
        // the search's currency, so that the sellers' prices compare with the card's
        ...(price?.currency ? { currency: price.currency } : {}),
      },
      show,
    );
  return h(
    'li',
    { class: 'card hotel', 'data-token': p.property_token ?? undefined, 'aria-labelledby': `h-${n}` },
    photo ? h('img', { src: photo, alt: '', loading: 'lazy', width: 287, height: 192 }) : h('div', { class: 'nophoto', 'aria-hidden': 'true' }),
    h(
      'div',
      { class: 'body' },
      h('h2', { id: `h-${n}` }, p.name),
      h(
        'p',
        { class: 'muted' },
        [
          p.stars ? `${'★'.repeat(p.stars)} ${p.stars}-star` : p.type === 'vacation_rental' ? 'vacation rental' : null,
          p.rating !== null ? `rated ${p.rating}/5${p.reviews !== null ? ` (${plural(p.reviews, 'review')})` : ''}` : null,
          p.city,
        ]
          .filter(Boolean)
          .join(' · '),
      ),
      total !== null
        ? h(
            'p',
            { class: 'price' },
            h('strong', { class: 'total' }, money(total, price!.currency, true)),
            ` for the stay${price!.total !== null ? ', taxes and fees included' : ', before taxes'}`,
            price!.nightly !== null ? h('span', { class: 'muted' }, ` · ${money(price!.nightly, price!.currency)} a night`) : '',
          )
        : h('p', { class: 'price muted' }, 'No price for these dates'),
      p.amenities.length ? h('p', { class: 'muted small' }, p.amenities.slice(0, 4).join(' · ')) : null,
      h('div', { class: 'row' }, sellers || null, linkButton(bridge, p.link, 'Website', ` of ${p.name}`)),
    ),
  );
}

function render(a: Answer, bridge: ViewBridge, main: HTMLElement): void {
  main.replaceChildren(
    h('h1', {}, `Hotels: ${a.query}`),
    h(
      'p',
      { class: 'muted' },
      `${day(a.check_in)} → ${day(a.check_out)} · ${plural(a.nights, 'night')} · ${plural(a.adults, 'adult')}`,
      a.total_results !== null ? ` · ${a.total_results} results, ${a.properties.length} shown` : '',
    ),
  );
  const show = (offers: Offers) => {
    if (!isOffers(offers)) throw new Error('not offers');
    const back = h('button', { type: 'button', class: 'back' }, '← All hotels');
    back.addEventListener('click', () => render(a, bridge, main));
    main.replaceChildren(back);
    renderOffers(offers, bridge, main);
  };
  if (!a.properties.length) main.append(h('p', { role: 'status' }, 'No hotel found.'));
  else main.append(h('ol', { class: 'hotels', 'aria-label': 'Hotels' }, ...a.properties.map((p, n) => card(p, a, bridge, show, n))));
}

startView<Answer>({
  name: 'hotelrates-hotel-search',
  render(a, { bridge, main }) {
    render(a, bridge, main);
  },
});
