/**
 * Which real site each public alias is, in the words a person uses ("is Booking undercutting the
 * hotel's site?"): the aliases stay our public names (arguments, fields, routes), and every text
 * an agent reads names the real site beside them, so that "Booking" maps to `otaone`. The one place
 * that states these names (design.md's table); the source manifest (src/sources/<alias>/source.ts)
 * can take them over. Hosts live in config/hosts.ts.
 */

export const SOURCE_NAMES = {
  metasearch: 'Google (Hotels and Flights)',
  otaone: 'Booking.com',
  otatwo: 'Expedia',
  otathree: 'Hotels.com',
  otafour: 'Agoda',
  rentalone: 'Vrbo',
  rentaltwo: 'Airbnb',
  travelreview: 'trivago',
  hostel: 'Hostelworld',
  official: "the hotel's own website",
  network: 'LinkedIn',
  video: 'YouTube',
  apps: 'Apple App Store',
  retail: 'Walmart',
  trends: 'Google Trends',
} as const;

export type NamedSource = keyof typeof SOURCE_NAMES;

/** `otaone = Booking.com, otatwo = Expedia`: a list of aliases with their real names. */
export function aliasGlossary(aliases: readonly NamedSource[]): string {
  return aliases.map((a) => `${a} = ${SOURCE_NAMES[a]}`).join(', ');
}
