/**
 * The public listing page (`/<listing id>`, e.g. `/321456ha`) names the group property id the
 * quote operation needs. Keys, strongest first, as the group's pages and links carry them.
 */
import { UpstreamContractChanged } from '../../domain/errors.js';

const PROPERTY_ID_PATTERNS: RegExp[] = [
  /"expediaPropertyId"\s*:\s*"?(\d+)/,
  /[?&]expediaPropertyId=(\d+)/,
  /"pinnedPropertyId"\s*:\s*"(\d+)"/,
  /"propertyId"\s*:\s*"(\d+)"/,
];

export function parseRentaloneListingPage(html: string): string {
  for (const re of PROPERTY_ID_PATTERNS) {
    const m = re.exec(html);
    if (m) return m[1]!;
  }
  throw new UpstreamContractChanged('rentalone', 'property id in the listing page');
}
