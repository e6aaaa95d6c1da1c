import { InvalidInput } from '../../domain/errors.js';

/** A path segment of the platform's public listing URLs: the listing number, optionally with the `ha` suffix. */
const LISTING_SEGMENT = /^\d{1,28}(ha)?$/;

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
