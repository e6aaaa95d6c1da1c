/// <reference lib="dom" />
/**
 * The search_flights / get_return_flights / get_booking_options app. Itineraries: cheapest first as
 * the tool answers them, the engine's best picks marked, the whole-trip price for all passengers,
 * each leg (times, airports, airline and flight, aircraft, legroom, overnight, often delayed) with
 * the layovers between; a button that has the host call the next read-only tool with the
 * itinerary's token (get_return_flights, get_booking_options) and shows its answer here. Booking
 * options: each option's whole-itinerary total and its tickets, each with a Book button that asks
 * the host to open the ticket's signed booking link (ui/open-link; a GET page that posts the
 * seller's form from the person's browser).
 */
import type { BookingOptionsView } from '../../../../../tools/views/booking-options.js';
import type { FlightsView } from '../../../../../tools/views/flights.js';
import type { z } from 'zod';
import type { ViewBridge } from './view-bridge.js';
import { callButton, day, h, linkButton, money, plural, startView } from './view-kit.js';
import './flights.css';

type Flights = z.infer<typeof FlightsView>;
type Options = z.infer<typeof BookingOptionsView>;
type Answer = Flights | Options;
type Itinerary = Flights['flights'][number];
type Ctx = { bridge: ViewBridge; main: HTMLElement; back: (() => void) | null };

const isOptions = (a: Answer): a is Options => Array.isArray((a as Options).options);

function duration(minutes: number | null): string {
  if (minutes === null) return '';
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60 ? `${minutes % 60} min` : ''}`.trim() : `${minutes} min`;
}

/** "2026-07-15 20:30" → its time, and the day when it is not the trip's first day. */
function clock(when: string | null, firstDay: string | undefined): string {
  if (!when) return '?';
  const [date, time] = when.split(' ');
  return date && date !== firstDay ? `${time ?? ''} (${day(date)})`.trim() : (time ?? date);
}

function searchLine(s: Record<string, string>, what: string): HTMLElement {
  const people = Number(s.adults ?? 1) + Number(s.children ?? 0) + Number(s.infants_in_seat ?? 0) + Number(s.infants_on_lap ?? 0);
  const dates = [s.outbound_date, s.return_date].filter(Boolean).map((d) => day(d));
  return h(
    'p',
    { class: 'muted' },
    [dates.join(' → '), s.flight_type?.replace('_', ' '), s.travel_class?.replace('_', ' '), plural(people, 'passenger'), what].filter(Boolean).join(' · '),
  );
}

/** A button that has the host call the next read-only tool and shows its answer here, with a way back. */
function nextButton(ctx: Ctx, label: string, name: string, args: Record<string, unknown>, shown: Answer): HTMLElement | null {
  return callButton<Answer>(ctx.bridge, label, name, args, (answer) => render(answer, { ...ctx, back: () => render(shown, ctx) }));
}

function itinerary(f: Itinerary, a: Flights, ctx: Ctx, n: number): HTMLElement {
  const firstDay = f.legs[0]?.departs?.split(' ')[0];
  const legs: HTMLElement[] = [];
  f.legs.forEach((l, i) => {
    const notes = [l.airplane, l.legroom && `${l.legroom} legroom`, l.overnight && 'overnight', l.often_delayed && 'often delayed 30+ min'].filter(Boolean);
    legs.push(
      h(
        'li',
        { class: 'leg' },
        h('span', { class: 'when' }, `${clock(l.departs, firstDay)} → ${clock(l.arrives, firstDay)}`),
        h('span', {}, ` ${l.from} → ${l.to}`),
        h('span', { class: 'muted' }, ` · ${[l.airline, l.flight_number].filter(Boolean).join(' ')} · ${duration(l.minutes)}`),
        notes.length ? h('div', { class: 'muted small' }, notes.join(' · ')) : null,
      ),
    );
    const stop = f.layovers[i];
    if (i < f.legs.length - 1 && stop)
      legs.push(h('li', { class: 'layover' }, `Change at ${stop.airport ?? '?'}: ${duration(stop.minutes)}${stop.overnight ? ', overnight' : ''}`));
  });
  const next = f.departure_token
    ? nextButton(ctx, 'Choose a return flight', 'get_return_flights', { departure_token: f.departure_token }, a)
    : f.booking_token
      ? nextButton(ctx, 'Booking options', 'get_booking_options', { booking_token: f.booking_token }, a)
      : null;
  return h(
    'li',
    { class: 'card itinerary', 'data-price': f.price ?? undefined, 'aria-labelledby': `it-${n}` },
    h(
      'div',
      { class: 'row head' },
      h('strong', { class: 'price', id: `it-${n}` }, f.price === null ? 'Price not stated' : money(f.price, a.currency, true)),
      f.best ? h('span', { class: 'badge best' }, 'best') : null,
      h('span', { class: 'muted' }, `${f.stops === 0 ? 'nonstop' : plural(f.stops, 'stop')} · ${duration(f.minutes)}`),
      f.carbon_vs_typical_percent !== null
        ? h('span', { class: 'muted' }, `CO₂ ${f.carbon_vs_typical_percent > 0 ? '+' : ''}${f.carbon_vs_typical_percent}% vs typical`)
        : null,
    ),
    h('ol', { class: 'legs' }, ...legs),
    next,
  );
}

function renderFlights(a: Flights, ctx: Ctx): void {
  const first = a.flights[0]?.legs[0];
  const last = a.flights[0]?.legs.at(-1);
  // the legs' own airports: a return search's itineraries fly the way back
  const route = `${first?.from ?? a.search.departure_id ?? '?'} → ${last?.to ?? a.search.arrival_id ?? '?'}`;
  const insights = a.price_insights;
  ctx.main.append(
    h('h1', {}, `${a.search.departure_token ? 'Return flights' : 'Flights'} ${route}`),
    searchLine(a.search, `prices for the whole trip, all passengers${a.currency ? `, ${a.currency}` : ''}`),
    insights?.price_level
      ? h(
          'p',
          { class: 'muted' },
          `Prices are ${insights.price_level} now`,
          insights.typical_price_range?.every((p) => p !== null)
            ? ` (typically ${money(insights.typical_price_range[0], a.currency)}–${money(insights.typical_price_range[1], a.currency)})`
            : '',
          '.',
        )
      : '',
  );
  if (!a.flights.length) ctx.main.append(h('p', { role: 'status' }, 'No itinerary found.'));
  else ctx.main.append(h('ol', { class: 'cards', 'aria-label': 'Itineraries, cheapest first' }, ...a.flights.map((f, n) => itinerary(f, a, ctx, n))));
  if (a.omitted_flights) ctx.main.append(h('p', { class: 'muted' }, `${a.omitted_flights} more itineraries not shown (ask for more with max_flights).`));
}

function bookButton(ctx: Ctx, t: Options['options'][number]['tickets'][number]): HTMLElement {
  if (!t.booking_link) return h('span', { class: 'muted small' }, 'no link for this call');
  return linkButton(ctx.bridge, t.booking_link.url, 'Book', ` with ${t.book_with}`) ?? h('span', { class: 'muted small' }, t.booking_link.url);
}

function renderOptions(a: Options, ctx: Ctx): void {
  ctx.main.append(
    h('h1', {}, `Booking options ${[a.search.departure_id, a.search.arrival_id].filter(Boolean).join(' → ')}`),
    searchLine(a.search, `totals for the whole itinerary, all passengers${a.currency ? `, ${a.currency}` : ''}`),
  );
  if (!a.options.length) {
    ctx.main.append(h('p', { role: 'status' }, 'No booking option.'));
    return;
  }
  const expiry = a.options.flatMap((o) => o.tickets.flatMap((t) => (t.booking_link ? [t.booking_link.expires_at] : []))).sort()[0];
  const cards = a.options.map((o, n) =>
    h(
      'li',
      { class: 'card option', 'aria-labelledby': `op-${n}` },
      h(
        'div',
        { class: 'row head' },
        h('strong', { class: 'price', id: `op-${n}` }, o.total === null ? 'Total not stated' : money(o.total, a.currency, true)),
        o.separate_tickets ? h('span', { class: 'badge' }, `${o.tickets.length} separate tickets`) : null,
      ),
      h(
        'ul',
        { class: 'tickets' },
        ...o.tickets.map((t) =>
          h(
            'li',
            { class: 'ticket row', 'data-seller': t.book_with },
            h(
              'span',
              { class: 'grow' },
              h('strong', {}, t.book_with),
              t.airline ? ' ' : null,
              t.airline ? h('span', { class: 'badge own' }, 'airline') : null,
              t.fare ? ` ${t.fare}` : '',
              h('span', { class: 'muted' }, ` · ${t.flights.join(', ')}`),
              o.tickets.length > 1 && t.price !== null ? h('span', { class: 'muted' }, ` · ${money(t.price, a.currency, true)}`) : null,
            ),
            bookButton(ctx, t),
          ),
        ),
      ),
    ),
  );
  ctx.main.append(h('ol', { class: 'cards', 'aria-label': 'Booking options' }, ...cards));
  if (expiry)
    ctx.main.append(
      h(
        'p',
        { class: 'muted small' },
        `Book links work until ${new Date(expiry).toLocaleTimeString(document.documentElement.lang || undefined, { hour: '2-digit', minute: '2-digit' })}; ask again after that.`,
      ),
    );
}

function render(a: Answer, ctx: Ctx): void {
  ctx.main.replaceChildren();
  if (ctx.back) {
    const back = h('button', { type: 'button', class: 'back' }, '← Back');
    back.addEventListener('click', ctx.back);
    ctx.main.append(back);
  }
  if (isOptions(a)) renderOptions(a, ctx);
  else renderFlights(a, ctx);
}

startView<Answer>({
  name: 'hotelrates-flights',
  render(a, { bridge, main }) {
    render(a, { bridge, main, back: null });
  },
});
