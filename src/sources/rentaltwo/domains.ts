/**
 * The rental platform's regional hosts (the `rentaltwo_domain` values of the compatible API:
 * the global host plus country hosts and language subdomains, 94 in all). Part of the upstream
 * host table: the host picks the market and default currency of links, not the prices we fetch
 * (requests go to the configured base host with an explicit currency).
 */
export const DEFAULT_DOMAIN = 'airbnb.com';

const DOMAIN = /^(?:[a-z]{2}\.)?airbnb\.(?:com|[a-z]{2,3}|com\.[a-z]{2}|co\.[a-z]{2})$/;

export function isRentaltwoDomain(value: string): boolean {
  return DOMAIN.test(value);
}

/** Scheme and host used in the links we return. */
export function domainOrigin(domain: string): string {
  return domain.split('.').length > 2 && !domain.startsWith('airbnb.') ? `https://${domain}` : `https://www.${domain}`;
}
