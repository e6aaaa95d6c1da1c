/**
 * Small hand-written upstream payloads for the OTA, rental and official integration tests, each
 * mirroring a real upstream structure (sources in test/fixtures/README.md). Recorded payloads are
 * read only through test/helpers/fixtures.ts and reshaped here when a route needs another shape.
 */
import { addDays } from '../../src/domain/dates.js';

/** First OTA property page: room data in the page script, rows by block id (see the README). */
export const OTAONE_PROPERTY_PAGE = `<html><head>
<script type="application/ld+json">{"@context":"https://schema.org","@type":"Hotel","name":"Hotel Example Centre"}</script>
<script>
  b_hotel_id: '4242001',
  b_selected_currency: 'EUR',
  b_rooms_available_and_soldout: [{"b_id":424200101,"b_name":"Double Room","b_blocks":[{"b_block_id":"424200101_91000001_2_1_0","b_raw_price":"172.50","b_price":"€ 172.50","b_max_persons":2,"b_mealplan_included_name":"breakfast","b_cancellation_type":"free_cancellation"},{"b_block_id":"424200101_91000002_2_0_0","b_raw_price":"150","b_price":"€ 150","b_max_persons":2,"b_mealplan_included_name":null,"b_cancellation_type":"non_refundable"}]}],
</script></head><body>
<table class="hprt-table">
<tr data-block-id="424200101_91000001_2_1_0"><td><span class="hprt-roomtype-icon-link">Double Room</span><div class="hprt-roomtype-bed">1 large double bed</div></td><td>Free cancellation before 12 November. No prepayment needed – pay at the property</td></tr>
<tr data-block-id="424200101_91000002_2_0_0"><td>Non-refundable</td></tr>
</table></body></html>`;

/** The group's `PropertyFilteredReviewsQuery` reply (fields of the public query text). */
export const OTATHREE_REVIEWS = [
  {
    data: {
      propertyReviewSummaries: [{ totalCount: { raw: 149 } }],
      propertyInfo: {
        id: '9209612',
        reviewInfo: {
          reviews: [
            {
              id: 'rev-1',
              locale: 'en_US',
              title: 'Great view',
              text: 'Quiet room with a balcony.',
              reviewScoreWithDescription: { label: '10/10 Excellent', value: '10/10 Excellent' },
              submissionTime: { longDateFormat: 'Dec 9, 2023' },
              themes: [{ label: 'Liked: Cleanliness' }],
              reviewFooter: { messages: [{ seoStructuredData: null, text: { text: 'Stayed 3 nights in Dec 2023' } }] },
              reviewAuthorAttribution: { text: 'Anna' },
              managementResponses: [{ response: 'Thank you, Anna!' }],
              reviewInteractionSections: [{ primaryDisplayString: '4', reviewInteractionType: 'HELPFUL_REVIEW' }],
              propertyReviewSource: { text: { value: 'Verified traveler' } },
            },
            {
              id: 'rev-2',
              locale: 'de_DE',
              title: '',
              text: 'Gut.',
              reviewScoreWithDescription: { label: '8/10 Very good', value: '8/10 Very good' },
              submissionTime: { longDateFormat: 'Nov 2, 2023' },
              themes: [],
              reviewFooter: { messages: [] },
              reviewAuthorAttribution: { text: 'Jan' },
              managementResponses: [],
              reviewInteractionSections: [],
              propertyReviewSource: null,
            },
          ],
        },
      },
    },
  },
];

/** The group's suggestion service (`sr[]`), one hotel and one region. */
export const TYPEAHEAD = {
  q: 'golden',
  rid: 'x',
  rc: 'OK',
  sr: [
    { index: '0', type: 'HOTEL', hotelId: '9209612', gaiaId: '1000', regionNames: { fullName: 'Golden Time Hotel, Ho Chi Minh City, Vietnam', shortName: 'Golden Time Hotel', displayName: 'Golden Time Hotel', primaryDisplayName: 'Golden Time Hotel' }, coordinates: { lat: '10.77', long: '106.69' } },
    { index: '1', type: 'CITY', gaiaId: '1634', regionNames: { fullName: 'Golden, Colorado, United States', shortName: 'Golden' }, coordinates: { lat: '39.75', long: '-105.22' } },
  ],
};

/** Reshapes the recorded group `propertyOffers` reply so its unit sits in `singleUnitOffer`, as a rental does. */
export function asRental(payload: any): any {
  const copy = structuredClone(payload);
  const root = copy.data.propertyOffers;
  const unit = root.units[0];
  root.singleUnitOffer = { id: root.id, header: unit.header, ratePlans: unit.ratePlans };
  root.units = [];
  return copy;
}

/** The rental listing page carries the group property id in its embedded state. */
export const RENTALONE_LISTING_PAGE = '<html><head><script>window.__STATE__={"propertyId":"9209612","listingId":"321456ha"};</script></head><body>Listing</body></html>';

/** The fourth OTA's room-grid JSON (`roomGridData.masterRooms[].rooms[]`) as public clients read it. */
export const OTAFOUR_SECONDARY_DATA = {
  hotelInfo: { hotelId: 2454174, name: 'Example Riverside Hotel' },
  roomGridData: {
    currencyCode: 'EUR',
    currencySymbol: '€',
    masterRooms: [
      {
        id: 1,
        name: 'Deluxe Double',
        rooms: [
          { uid: 'r-1', isFit: true, inclusivePrice: { display: 118.4 }, pricing: { displayPrice: 100 }, totalPrice: { display: 236.8 }, isFreeCancellation: true, discount: { percent: 15 } },
          { uid: 'r-2', isFit: false, inclusivePrice: { display: 90 } },
        ],
      },
      { id: 2, name: 'Twin Room', rooms: [{ uid: 'r-3', isFit: true, pricing: { displayPrice: 95.5 }, isFreeCancellation: false }] },
      { id: 3, name: 'Suite', rooms: [] },
    ],
  },
};

/** MCP Streamable HTTP replies of the metasearch's search tool server. */
export const MCP_INIT = { jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'metasearch-mcp', version: '1.0.0' } } };

export function mcpToolEvent(accommodations: unknown): string {
  const message = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: 'Show each accommodation as a card.' }], structuredContent: accommodations } };
  return `event: message\nid: 2\ndata: ${JSON.stringify(message)}\n\n`;
}

/** A rental calendar of two future months (dates relative to today), in the recorded calendar's shape. */
export function futureCalendar(today: string): any {
  const day = (offset: number, over: Record<string, unknown> = {}) => ({
    __typename: 'MerlinCalendarDay',
    calendarDate: addDays(today, offset),
    available: true,
    availableForCheckin: true,
    availableForCheckout: true,
    bookable: true,
    minNights: 1,
    maxNights: 30,
    price: { __typename: 'MerlinCalendarDayPrice', localPriceFormatted: null },
    ...over,
  });
  const days = [
    day(-1, { available: false, availableForCheckin: false, availableForCheckout: false, bookable: false }),
    day(10),
    day(11),
    day(12, { available: false, availableForCheckin: false, bookable: false }),
    day(13, { availableForCheckin: false }),
    day(14, { minNights: 2 }),
    day(15),
    day(16),
    day(17),
  ];
  const [y, m] = today.split('-').map(Number);
  return {
    data: {
      merlin: {
        __typename: 'MerlinQuery',
        pdpAvailabilityCalendar: {
          __typename: 'MerlinPdpAvailabilityCalendarResponse',
          calendarMonths: [{ __typename: 'MerlinCalendarMonth', month: m, year: y, listingId: '38817969', days }],
        },
      },
    },
  };
}

/** The listing's booking section (`StaysPdpSections`, BOOK_IT_SIDEBAR) with a structured price. */
export function pdpQuote(nights: number, perNight: string, total: string): any {
  return {
    data: {
      presentation: {
        stayProductDetailPage: {
          sections: {
            sections: [
              {
                sectionId: 'BOOK_IT_SIDEBAR',
                section: {
                  __typename: 'BookItSection',
                  structuredDisplayPrice: {
                    primaryLine: { __typename: 'QualifiedDisplayPriceLine', price: total, qualifier: 'total' },
                    explanationData: {
                      priceDetails: [
                        { items: [{ __typename: 'DefaultExplanationLineItem', description: `${nights} nights x ${perNight}`, priceString: total }] },
                        { items: [{ __typename: 'HighlightExplanationLineItem', description: 'Total', priceString: total }] },
                      ],
                    },
                  },
                },
              },
            ],
          },
        },
      },
    },
  };
}

/** The booking engine's public availability reply: rooms keyed by id beside request echoes. */
export const BEDS24_AVAILABILITY = {
  checkIn: '20270310',
  lastNight: '20270311',
  checkOut: '20270312',
  propId: '123456',
  numAdult: '2',
  '500101': { roomId: '500101', propId: '123456', roomsavail: '2', price: 240 },
  '500102': { roomId: '500102', propId: '123456', roomsavail: '0', price: null },
  '500103': { roomId: '500103', propId: '123456', roomsavail: '1', price: 199.5 },
};

export const HOTEL_SITE_BEDS24 = '<html><body><h1>Example Inn</h1><a href="https://beds24.com/booking2.php?propid=123456&referer=site">Book now</a></body></html>';
/** A one-line hotel page whose only booking link is `href`. */
export const hotelSite = (href: string) => `<html><body><h1>Example Hotel</h1><a href="${href}">Book now</a></body></html>`;
export const HOTEL_SITE_CLOUDBEDS = hotelSite('https://hotels.cloudbeds.com/reservation/AbCdEf');
export const HOTEL_SITE_SITEMINDER = hotelSite('https://direct-book.com/properties/exampleinndirect?locale=en');
/** An engine that stays unpriced (SynXis). */
export const HOTEL_SITE_OTHER_ENGINE = '<html><body><a href="https://be.synxis.com/?Hotel=10868&amp;Chain=24447&amp;locale=en-US">Book</a></body></html>';
export const HOTEL_SITE_NO_ENGINE = '<html><body><p>Call us to book.</p></body></html>';
