/**
 * get_booking_options as an agent gets it: each option with the total of the whole itinerary
 * (separate tickets: the tickets added up, each stated by the page), its tickets, and for each
 * ticket the link a person opens (booking_link, GET, short-lived) beside the POST a program sends
 * (booking_request). A summary never quotes one ticket of a two-ticket option as a price.
 */
import { z } from 'zod';
import type { McpView } from '../../src/core/define-tool.js';
import type { BookingOutput } from '../../src/sources/metasearch/flights/schemas.js';

type Booking = z.infer<typeof BookingOutput>;
type Side = NonNullable<Booking['booking_options'][number]['together']>;

const Ticket = z.object({
  book_with: z.string(),
  airline: z.boolean().optional(),
  price: z.number().nullable().describe('this ticket, all passengers'),
  fare: z.string().optional(),
  flights: z.array(z.string()),
  booking_link: z
    .object({ url: z.string(), method: z.literal('GET'), expires_at: z.string() })
    .optional()
    .describe('open this to book (a person)'),
  booking_request: z.object({ url: z.string(), post_data: z.string().optional() }).describe('the POST behind the link (a program)'),
});

export const BookingOptionsView = z.object({
  search: z.record(z.string(), z.string()),
  currency: z.string().nullable(),
  options: z.array(
    z.object({
      total: z.number().nullable().describe('the whole itinerary, all passengers; null when a ticket is unpriced'),
      separate_tickets: z.literal(true).optional(),
      tickets: z.array(Ticket),
    }),
  ),
});
type View = z.infer<typeof BookingOptionsView>;

function ticket(s: Side): z.infer<typeof Ticket> {
  return {
    book_with: s.book_with,
    ...(s.airline !== undefined ? { airline: s.airline } : {}),
    price: s.price,
    ...(s.option_title ? { fare: s.option_title } : {}),
    flights: s.marketed_as,
    ...(s.booking_link ? { booking_link: s.booking_link } : {}),
    booking_request: s.booking_request,
  };
}

export const bookingOptionsView: McpView<unknown, Booking> = {
  output: BookingOptionsView,
  shape(o) {
    const { engine: _engine, booking_token: _token, ...search } = o.search_parameters;
    const view: View = {
      search,
      currency: o.pricing.currency,
      options: o.booking_options.flatMap((opt) => {
        const sides = opt.together ? [opt.together] : [opt.departing, opt.returning].filter((s): s is Side => !!s);
        if (!sides.length) return [];
        const prices = sides.map((s) => s.price);
        const total = prices.every((p): p is number => p !== null) ? Math.round(prices.reduce((a, b) => a + b, 0) * 100) / 100 : null;
        return [{ total, ...(opt.separate_tickets ? { separate_tickets: true as const } : {}), tickets: sides.map(ticket) }];
      }),
    };
    return view;
  },
};

export function bookingOptionsSummary(a: Record<string, unknown>): string {
  const v = a as View;
  if (!v.options.length) return 'No booking option.';
  const totals = v.options.map((o) => o.total).filter((t): t is number => t !== null);
  const range = totals.length ? `, whole-itinerary totals ${Math.min(...totals)}–${Math.max(...totals)} ${v.currency ?? ''}`.trimEnd() : '';
  const linked = v.options.some((o) => o.tickets.some((t) => t.booking_link));
  const route = [v.search.departure_id, v.search.arrival_id].filter(Boolean).join(' → ');
  return `${v.options.length} booking option${v.options.length === 1 ? '' : 's'}${route ? ` for ${route}` : ''}${range}; ${
    linked
      ? "to book, open a ticket's booking_link (a GET link, valid until its expires_at; booking_request is the POST behind it, for programs)"
      : 'booking_request is a POST of post_data to url (a program can send it; no link could be made for this call)'
  }.`;
}

/** One line per option: its total, then each ticket with its seller, price and the link to open. */
export function bookingOptionsText(a: Record<string, unknown>): string[] {
  const v = a as View;
  return [
    JSON.stringify({ ...v.search, currency: v.currency }),
    `options (${v.options.length}), totals for the whole itinerary and all passengers in ${v.currency ?? 'the currency stated'}:`,
    ...v.options.map((o) => {
      const tickets = o.tickets.map(
        (t) =>
          `${t.book_with}${t.airline ? ' (airline)' : ''} ${t.price ?? 'unpriced'}${t.fare ? ` ${t.fare}` : ''} [${t.flights.join(', ')}]${t.booking_link ? ` open ${t.booking_link.url} (until ${t.booking_link.expires_at})` : ` POST ${t.booking_request.url}${t.booking_request.post_data ? ` ${t.booking_request.post_data}` : ''}`}`,
      );
      return `- total ${o.total ?? 'unknown'}${o.separate_tickets ? `, ${o.tickets.length} separate tickets` : ''}: ${tickets.join('; ')}`;
    }),
  ];
}
