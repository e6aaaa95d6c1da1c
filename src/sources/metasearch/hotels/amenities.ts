/**
 * Hotel amenity codes of the search page (`[available 0/1, code]` pairs) → the English label the
 * same page prints on the card. Built by aligning each card's labels with its codes on the four
 * recorded result pages (all in English); every entry below was seen on at least one card.
 * A code missing here keeps its code and gets no name: names are never guessed.
 * Vacation rentals carry their labels inline and do not use this table.
 */
export const AMENITY_NAMES: Readonly<Record<number, string>> = {
  1: 'Airport shuttle',
  2: 'Air conditioning',
  4: 'Bar',
  6: 'Free breakfast',
  8: 'Fitness center',
  11: 'Kid-friendly',
  12: 'Kitchen in rooms',
  14: 'Kitchen in some rooms',
  15: 'Parking',
  16: 'Free parking',
  17: 'Parking ($)',
  18: 'Pet-friendly',
  19: 'Pool',
  20: 'Indoor pool',
  23: 'Restaurant',
  25: 'Smoke-free property',
  27: 'Accessible',
  29: 'Free Wi-Fi',
  30: 'Wi-Fi ($)',
  31: 'Full-service laundry',
  34: 'Sauna',
  54: 'Breakfast',
  150: 'Transfer',
  165: 'Breakfast ($)',
  166: 'Onsen',
  261: 'Public bath',
  262: 'Open air bath',
  263: 'Private bath',
};

export function amenityName(code: number): string | null {
  return AMENITY_NAMES[code] ?? null;
}
