/**
 * Hotel amenity codes of the search page (`[available 0/1, code]` pairs) → the English label the
 * same page prints on the card. Built by aligning each card's labels with its codes on the four
 * recorded result pages (all in English); every entry below is printed with its name on cards of
 * at least two of them (test/unit/sources/fidelity/inferred-meanings.test.ts computes it). Codes seen
 * named on one page only (1 Airport shuttle, 6 Free breakfast, 8 Fitness center, 15 Parking,
 * 19 Pool, 20 Indoor pool, 30 Wi-Fi ($), 34 Sauna, 166 Onsen, 262 Open air bath, 263 Private
 * bath) are left out until a second page shows them. A code missing here keeps its code and gets
 * no name: names are never guessed.
 * Vacation rentals carry their labels inline and do not use this table.
 */
export const AMENITY_NAMES: Readonly<Record<number, string>> = {
  2: 'Air conditioning',
  4: 'Bar',
  11: 'Kid-friendly',
  12: 'Kitchen in rooms',
  14: 'Kitchen in some rooms',
  16: 'Free parking',
  17: 'Parking ($)',
  18: 'Pet-friendly',
  23: 'Restaurant',
  25: 'Smoke-free property',
  27: 'Accessible',
  29: 'Free Wi-Fi',
  31: 'Full-service laundry',
  54: 'Breakfast',
  150: 'Transfer',
  165: 'Breakfast ($)',
  261: 'Public bath',
};

export function amenityName(code: number): string | null {
  return AMENITY_NAMES[code] ?? null;
}
