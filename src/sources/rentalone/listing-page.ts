/**
 * The public listing page (`/<listing id>`, e.g. `/321456ha`) names the group property id the
 * quote operation needs. Evidence, strongest first: the page state's `expediaPropertyId` (also as a
 * link parameter); the numeric page the site redirected the listing to (`/<digits>`: public price
 * clients pass that path's number as the `propertyId` of the offers operation); then the page
 * state's `pinnedPropertyId` and `propertyId`.
 */
import { UpstreamContractChanged } from '../../platform/errors.js';

const EXPLICIT: RegExp[] = [/"expediaPropertyId"\s*:\s*"?(\d+)/, /[?&]expediaPropertyId=(\d+)/];
const STATE_KEYS: RegExp[] = [/"pinnedPropertyId"\s*:\s*"(\d+)"/, /"propertyId"\s*:\s*"(\d+)"/];

/** The property page a listing redirected to: a purely numeric last path segment other than the listing id. */
function redirectedId(listingId: string, finalUrl: string): string | null {
  let last: string;
  try {
    last = new URL(finalUrl).pathname.replace(/\/+$/, '').split('/').pop() ?? '';
  } catch {
    return null;
  }
  return /^\d+$/.test(last) && last !== listingId ? last : null;
}

export function parseRentaloneListingPage(html: string, listingId = '', finalUrl = ''): string {
  for (const re of EXPLICIT) {
    const m = re.exec(html);
    if (m) return m[1];
  }
  const redirected = redirectedId(listingId, finalUrl);
  if (redirected) return redirected;
  for (const re of STATE_KEYS) {
    const m = re.exec(html);
    if (m) return m[1];
  }
  throw new UpstreamContractChanged('rentalone', 'property id in the listing page');
}
