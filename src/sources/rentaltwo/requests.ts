/**
 * Request parts for the rental platform's persisted GraphQL operations. The operation hash
 * rotates with the site's releases, so it is an argument here, not a constant; the host comes
 * from the upstream host table and the web API key header from the upstream client.
 */

export interface CalendarRequest {
  listingId: string;
  month: number;
  year: number;
  /** Months to return, 1-12. */
  count: number;
  locale?: string;
  currency?: string;
}

/** Path and query of `GET /api/v3/PdpAvailabilityCalendar/<hash>`. */
export function rentaltwoCalendarPath(req: CalendarRequest, operationHash: string): string {
  const variables = { request: { count: req.count, listingId: req.listingId, month: req.month, year: req.year } };
  const extensions = { persistedQuery: { version: 1, sha256Hash: operationHash } };
  const q = new URLSearchParams({ operationName: 'PdpAvailabilityCalendar' });
  if (req.locale) q.set('locale', req.locale);
  if (req.currency) q.set('currency', req.currency);
  q.set('variables', JSON.stringify(variables));
  q.set('extensions', JSON.stringify(extensions));
  return `/api/v3/PdpAvailabilityCalendar/${operationHash}?${q.toString()}`;
}

export interface StaysSearchRequest {
  query?: string;
  /** [[ne_lat, ne_lng], [sw_lat, sw_lng]]. */
  boundingBox?: [[number, number], [number, number]];
  checkIn?: string;
  checkOut?: string;
  adults?: number;
  children?: number;
  infants?: number;
  pets?: number;
  priceMin?: number;
  priceMax?: number;
  cursor?: string;
  /** Flexible trip length instead of exact dates. */
  timePeriod?: 'weekend_trip' | 'one_week' | 'one_month';
  /** The site's "type of place" filter value. */
  roomType?: string;
  /** The site's numeric property-type ids. */
  propertyTypeIds?: number[];
  minBedrooms?: number;
  minBeds?: number;
  minBathrooms?: number;
  amenityIds?: number[];
}

export interface RawParam {
  filterName: string;
  filterValues: string[];
}

/** The `rawParams` filters of `staysSearchRequest`, named as the site's own search sends them. */
export function staysSearchRawParams(req: StaysSearchRequest): RawParam[] {
  const p: RawParam[] = [];
  const add = (name: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') p.push({ filterName: name, filterValues: [String(value)] });
  };
  add('checkin', req.checkIn);
  add('checkout', req.checkOut);
  add('adults', req.adults);
  add('children', req.children);
  add('infants', req.infants);
  add('pets', req.pets);
  add('priceMin', req.priceMin);
  add('priceMax', req.priceMax);
  if (req.timePeriod) {
    add('datePickerType', 'flexible_dates');
    add('flexibleTripLengths', req.timePeriod);
  }
  add('roomTypes', req.roomType);
  if (req.propertyTypeIds?.length) p.push({ filterName: 'l2PropertyTypeIds', filterValues: req.propertyTypeIds.map(String) });
  add('minBedrooms', req.minBedrooms);
  add('minBeds', req.minBeds);
  add('minBathrooms', req.minBathrooms);
  if (req.amenityIds?.length) p.push({ filterName: 'amenities', filterValues: req.amenityIds.map(String) });
  if (req.boundingBox) {
    const [[neLat, neLng], [swLat, swLng]] = req.boundingBox;
    add('neLat', neLat);
    add('neLng', neLng);
    add('swLat', swLat);
    add('swLng', swLng);
    add('searchByMap', 'true');
  } else add('query', req.query);
  add('refinementPaths', '/homes');
  return p;
}

/** JSON body of `POST /api/v3/StaysSearch/<hash>?operationName=StaysSearch`. */
export function staysSearchBody(req: StaysSearchRequest, operationHash: string): object {
  const staysSearchRequest: Record<string, unknown> = {
    requestedPageType: 'STAYS_SEARCH',
    metadataOnly: false,
    rawParams: staysSearchRawParams(req),
  };
  if (req.cursor) staysSearchRequest.cursor = req.cursor;
  return {
    operationName: 'StaysSearch',
    variables: { staysSearchRequest },
    extensions: { persistedQuery: { version: 1, sha256Hash: operationHash } },
  };
}

export interface PdpQuoteRequest {
  listingId: string;
  checkIn: string;
  checkOut: string;
  adults: number;
  children?: number;
  infants?: number;
  pets?: number;
  currency?: string;
}

/**
 * Path and query of `GET /api/v3/StaysPdpSections/<hash>` asking only for the booking section
 * (`BOOK_IT_SIDEBAR`), the listing's own price for one stay, as public clients request it.
 */
export function rentaltwoQuotePath(req: PdpQuoteRequest, operationHash: string): string {
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const variables = {
    id: b64(`StayListing:${req.listingId}`),
    demandStayListingId: b64(`DemandStayListing:${req.listingId}`),
    pdpSectionsRequest: {
      adults: String(req.adults),
      children: req.children ? String(req.children) : null,
      infants: req.infants ? String(req.infants) : null,
      pets: req.pets ?? 0,
      layouts: ['SIDEBAR', 'SINGLE_COLUMN'],
      sectionIds: ['BOOK_IT_SIDEBAR'],
      checkIn: req.checkIn,
      checkOut: req.checkOut,
    },
    checkIn: req.checkIn,
    checkOut: req.checkOut,
  };
  const extensions = { persistedQuery: { version: 1, sha256Hash: operationHash } };
  const q = new URLSearchParams({ operationName: 'StaysPdpSections', locale: 'en' });
  if (req.currency) q.set('currency', req.currency);
  q.set('variables', JSON.stringify(variables));
  q.set('extensions', JSON.stringify(extensions));
  return `/api/v3/StaysPdpSections/${operationHash}?${q.toString()}`;
}
