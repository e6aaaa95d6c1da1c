/**
 * The booking links of get_booking_options: each side of an option whose click-out is a POST
 * (booking_request with post_data) gets a short-lived GET link a person can open
 * (platform/booking-links.ts), minted for the caller at each call, never kept in a cached answer.
 * Only for an absolute http(s) target (isClickOutUrl); none under zero_retention (a link is a stored record) or where this service's address is unknown.
 */
import type { ToolContext } from '../src/core/define-tool.js';
import { serviceOrigin } from '../src/core/service-origin.js';
import { isClickOutUrl, mintBookingLinks, type BookingLink } from '../src/platform/booking-links.js';

interface Side {
  booking_request: { url: string; post_data?: string };
  booking_link?: BookingLink;
}
interface Option {
  together?: Side;
  departing?: Side;
  returning?: Side;
}

export async function withBookingLinks<T extends { booking_options: Option[] }>(body: T, ctx: ToolContext): Promise<T> {
  const origin = serviceOrigin(ctx);
  if (ctx.zeroRetention || !ctx.key.account_id || !origin) return body;
  const posts = body.booking_options
    .flatMap((o) => [o.together, o.departing, o.returning])
    .filter((s): s is Side => !!s?.booking_request.post_data && isClickOutUrl(s.booking_request.url));
  const links = await mintBookingLinks(
    ctx.deps.sql,
    ctx.key.account_id,
    origin,
    posts.map((s) => s.booking_request),
  );
  const linkOf = new Map(posts.map((s, i) => [s, links[i]]));
  const side = (s: Side | undefined) => (s && linkOf.has(s) ? { ...s, booking_link: linkOf.get(s) } : s);
  return {
    ...body,
    booking_options: body.booking_options.map((o) => {
      const out = { ...o };
      for (const k of ['together', 'departing', 'returning'] as const) if (o[k]) out[k] = side(o[k]);
      return out;
    }),
  };
}
