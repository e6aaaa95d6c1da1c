import type { z } from 'zod';
import { InvalidInput } from '../../domain/errors.js';

/** A path segment of the platform's public listing URLs: the listing number, optionally with the `ha` suffix. */
const LISTING_SEGMENT = /^\d{1,28}(ha)?$/;
/** Vrbo and its sister sites of the same family, whose listing numbers the quote resolves. */
const VRBO_HOST =
  /(?:^|\.)(?:vrbo\.com|vrbo\.[a-z]{2,3}(?:\.[a-z]{2})?|homeaway\.[a-z]{2,3}(?:\.[a-z]{2})?|abritel\.fr|fewo-direkt\.de|stayz\.com\.au|bookabach\.co\.nz)$/;
/** The other rental platform's sites (airbnb.com, airbnb.co.uk, fr.airbnb.ch …). */
const AIRBNB_HOST = /(?:^|\.)airbnb\.(?:com|[a-z]{2,3}|com\.[a-z]{2}|co\.[a-z]{2})$/;
/**
 * Airbnb's listing ids since 2022 are 18–19 digits (search_rentals gives them); Vrbo's listing
 * numbers and internal property ids are under 12. An id of 15 digits or more came from the other platform.
 */
const AIRBNB_LONG_ID = /^\d{15,}$/;

const WRONG_PLATFORM =
  'get_rental_quote quotes Vrbo listings; an Airbnb listing (search_rentals properties[].id, airbnb.com/rooms/<id>) is priced by get_rental_calendar';

/**
 * The quote's listing checked against the platform it belongs to: an Airbnb URL or an Airbnb-long
 * id (what search_rentals hands out) is refused with the tool that prices it, rather than sent to
 * Vrbo; a URL of any other site is not a Vrbo listing. Each problem names its field.
 */
export function checkListingPlatform(v: { url?: string | null; listing_id?: string | null; property_id?: string | null }, ctx: z.RefinementCtx): void {
  for (const field of ['property_id', 'listing_id'] as const) {
    const id = v[field];
    if (id && AIRBNB_LONG_ID.test(id.replace(/ha$/, '')))
      ctx.addIssue({ code: 'custom', path: [field], message: `Value error, an Airbnb listing id: ${WRONG_PLATFORM}` });
  }
  if (!v.url) return;
  const host = new URL(v.url).hostname.toLowerCase();
  if (AIRBNB_HOST.test(host)) ctx.addIssue({ code: 'custom', path: ['url'], message: `Value error, an Airbnb listing URL: ${WRONG_PLATFORM}` });
  else if (!VRBO_HOST.test(host))
    ctx.addIssue({
      code: 'custom',
      path: ['url'],
      message: 'Value error, not a Vrbo listing URL: its host should be vrbo.com (or a sister site: homeaway, abritel, fewo-direkt, stayz, bookabach)',
    });
}

/**
 * The quote input with `url` (the public listing URL a person has) turned into the listing_id it
 * carries; an explicit listing_id or property_id is kept as given.
 */
export function listingFromUrl<T extends { url?: string | null; listing_id?: string | null; property_id?: string | null }>(v: T): Omit<T, 'url'> {
  const { url, ...rest } = v;
  if (!url || rest.listing_id || rest.property_id) return rest;
  const segment = new URL(url).pathname.split('/').find((s) => LISTING_SEGMENT.test(s));
  if (!segment)
    throw new InvalidInput([
      {
        type: 'value_error',
        loc: ['body', 'url'],
        msg: 'Value error, not a listing URL: its path should hold the listing number, e.g. /321456ha',
        input: url.slice(0, 100),
      },
    ]);
  return { ...rest, listing_id: segment };
}
