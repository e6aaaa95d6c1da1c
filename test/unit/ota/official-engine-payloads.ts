/**
 * Hand-written replies of the booking engines `POST /v1/official` prices besides Beds24 (no
 * recorded payload exists): shapes from a public Cloudbeds booking-engine client's zod schema and a
 * public SiteMinder direct-book GraphQL client (test/fixtures/README.md); ids, names and prices
 * invented. Stay used throughout: 2027-03-10 → 2027-03-12 (2 nights), 2 adults.
 */

export const CLOUDBEDS_CODE = 'AbCdEf';
export const CLOUDBEDS_FULL_CODE = 'FuLlUp';
export const CLOUDBEDS_EMPTY_CODE = 'NoRooms';

/** `booking/property_info` for a known code (`success`, `data.property_id` beside contact fields). */
export const CLOUDBEDS_PROPERTY_INFO = {
  success: true,
  data: { property_id: 201001, property_name: 'Example Lodge', hotel_email: 'stay@example-lodge.test', hotel_phone: '+1 555 0100' },
};
export const CLOUDBEDS_PROPERTY_INFO_FULL = { success: true, data: { property_id: '201002', hotel_email: 'full@example-lodge.test', hotel_phone: null } };
export const CLOUDBEDS_PROPERTY_INFO_EMPTY = { success: true, data: { property_id: '201003' } };
/** No room type at all for the stay. */
export const CLOUDBEDS_ROOMS_EMPTY = { total: 0, room_types: [], currency_rate: 1, ma_rates: false };
/** An unknown code. */
export const CLOUDBEDS_PROPERTY_UNKNOWN = { success: false };

/**
 * `booking/rooms` for the stay: a room with one rate per night (numbers as strings and numbers),
 * a room whose detailed rates miss a night, a sold-out room, and a room too small for 2 adults.
 */
export const CLOUDBEDS_ROOMS = {
  total: 4,
  room_types: [
    {
      room_type_id: '301',
      rate_id: '551718',
      room_type_name: 'Double Room',
      room_type_title: 'Double Room with Garden View',
      rate_basic: '95.00',
      rate_min: '110.00',
      rate_max: '120.50',
      detailed_rates: [
        { date: '2027-03-11', rate: 120.5, base_rate: 120.5 },
        { date: '2027-03-10', rate: '110.00', base_rate: '110.00' },
      ],
      num_available_now: 5,
      remaining: 3,
      max_rooms: 3,
      max_guests: 2,
      max_adults: 2,
    },
    {
      room_type_id: 302,
      rate_id: 551719,
      room_type_name: 'Family Suite',
      rate_basic: 180,
      detailed_rates: [{ date: '2027-03-10', rate: 180 }],
      num_available_now: '1',
      max_guests: 4,
      max_adults: 4,
    },
    {
      room_type_id: 303,
      rate_id: 551720,
      room_type_name: 'Bed in Dorm',
      rate_basic: 30,
      detailed_rates: [
        { date: '2027-03-10', rate: 30 },
        { date: '2027-03-11', rate: 30 },
      ],
      remaining: 0,
      max_guests: 6,
    },
    {
      room_type_id: 304,
      rate_id: 551721,
      room_type_name: 'Single Room',
      rate_basic: 70,
      detailed_rates: [
        { date: '2027-03-10', rate: 70 },
        { date: '2027-03-11', rate: 70 },
      ],
      remaining: 2,
      max_guests: 1,
      max_adults: 1,
    },
  ],
  currency_rate: 1,
  website_source_id: 0,
  ma_rates: false,
};

/** Every room sold out. */
export const CLOUDBEDS_ROOMS_FULL = {
  total: 0,
  room_types: [
    { room_type_id: 311, rate_id: 551801, room_type_name: 'Double Room', detailed_rates: [{ date: '2027-03-10', rate: 99 }, { date: '2027-03-11', rate: 99 }], remaining: 0, num_available_now: 0 },
  ],
  currency_rate: 1,
  ma_rates: false,
};

/** The older list key `accomodation_types` (sic) read by an older public client, without availability counts. */
export const CLOUDBEDS_ROOMS_LEGACY = {
  accomodation_types: [
    { room_type_id: 77, room_type_name: 'Garden Cabin', max_rooms: 2, detailed_rates: [{ date: '2027-03-10', rate: '85.10' }, { date: '2027-03-11', rate: '85.20' }] },
  ],
};

/** The engine's form replies by request, as the replay server answers them. */
export function cloudbedsReply(path: string, body: string): object {
  const form = new URLSearchParams(body);
  if (path.endsWith('/property_info')) {
    const code = form.get('property_code');
    const known: Record<string, object> = { [CLOUDBEDS_CODE]: CLOUDBEDS_PROPERTY_INFO, [CLOUDBEDS_FULL_CODE]: CLOUDBEDS_PROPERTY_INFO_FULL, [CLOUDBEDS_EMPTY_CODE]: CLOUDBEDS_PROPERTY_INFO_EMPTY };
    return known[code ?? ''] ?? CLOUDBEDS_PROPERTY_UNKNOWN;
  }
  const rooms: Record<string, object> = { '201001': CLOUDBEDS_ROOMS, '201003': CLOUDBEDS_ROOMS_EMPTY };
  return rooms[form.get('widget_property') ?? ''] ?? CLOUDBEDS_ROOMS_FULL;
}

export const SITEMINDER_CHANNEL = 'exampleinndirect';
export const SITEMINDER_FULL_CHANNEL = 'fullhousedirect';
export const SITEMINDER_EMPTY_CHANNEL = 'noroomsdirect';

/** `roomTypes`: two room types, three rates (the rate `uuid` is the quote's integer roomRateId). */
export const SITEMINDER_ROOM_TYPES = {
  data: {
    roomTypes: [
      {
        uuid: '5f0c2a9e-1d4b-4c1e-9a57-0b6f3e2d9c11',
        name: 'Queen Room',
        category: 'ROOM',
        minAvailability: 0,
        maxOccupancy: 2,
        rates: [
          { uuid: '880001', name: 'Best Available Rate', ratePlanId: '41', promotional: false },
          { uuid: '880002', name: 'Stay Longer and Save', ratePlanId: '42', promotional: true },
        ],
      },
      {
        uuid: '9a3e7b20-6c1f-4f0a-8d2e-5e4b1c7a8f33',
        name: 'King Suite',
        category: 'ROOM',
        minAvailability: 0,
        maxOccupancy: 3,
        rates: [{ uuid: '880003', name: 'Best Available Rate', ratePlanId: '41', promotional: false }],
      },
    ],
  },
};

/** The full house: one room type whose only rate quotes with an error. */
export const SITEMINDER_ROOM_TYPES_FULL = {
  data: { roomTypes: [{ uuid: 'c1d2e3f4-0000-4000-8000-000000000001', name: 'Queen Room', category: 'ROOM', minAvailability: 0, maxOccupancy: 2, rates: [{ uuid: '880003', name: 'Best Available Rate', ratePlanId: '41', promotional: false }] }] },
};

export const SITEMINDER_ROOM_TYPES_EMPTY = { data: { roomTypes: [] } };

export const SITEMINDER_UNKNOWN_CHANNEL = {
  errors: [{ message: 'Channel not found', path: ['roomTypes'], extensions: { code: 'NOT_FOUND' } }],
  data: { roomTypes: null },
};

export const SITEMINDER_VALIDATION_FAILED = {
  errors: [{ message: 'Cannot query field "minAvailability" on type "RoomType".', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }],
};

/** `quote` by roomRateId: two clean quotes (gross = net + tax) and one carrying an error. */
export const SITEMINDER_QUOTES: Record<number, object> = {
  880001: { data: { quote: { roomRateId: 880001, name: 'Best Available Rate', price: { net: 375, tax: 37.5, gross: 412.5, amount: 412.5 }, errors: [] } } },
  880002: { data: { quote: { roomRateId: 880002, name: 'Stay Longer and Save', price: { net: '345.45', tax: '34.55', gross: '380.00', amount: '380.00' }, errors: [] } } },
  880003: { data: { quote: { roomRateId: 880003, name: 'Best Available Rate', price: { net: 0, tax: 0, gross: 0, amount: 0 }, errors: [{ type: 'AVAILABILITY', key: 'room_unavailable' }] } } },
};

/** The GraphQL endpoint's replies by operation and variables, as the replay server answers them. */
export function siteminderReply(body: string): object {
  const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, any> };
  if (/^\s*query roomTypes\b/.test(query)) {
    if (variables.channelCode === SITEMINDER_CHANNEL) return SITEMINDER_ROOM_TYPES;
    if (variables.channelCode === SITEMINDER_FULL_CHANNEL) return SITEMINDER_ROOM_TYPES_FULL;
    if (variables.channelCode === SITEMINDER_EMPTY_CHANNEL) return SITEMINDER_ROOM_TYPES_EMPTY;
    return SITEMINDER_UNKNOWN_CHANNEL;
  }
  return SITEMINDER_QUOTES[variables.roomRateId] ?? { data: { quote: null }, errors: [{ message: 'Rate not found' }] };
}
