/**
 * The 18 pricing markets: the currency the metasearch engine prices in there and whether
 * hotel prices are conventionally shown including taxes and fees.
 */
export interface PricingMarket {
  code: string;
  name: string;
  currency: string;
  rates_include_tax: boolean;
  gl: string;
}

const M = (code: string, name: string, currency: string, rates_include_tax: boolean): PricingMarket => ({
  code,
  name,
  currency,
  rates_include_tax,
  gl: code.toLowerCase(),
});

export const PRICING_MARKETS: PricingMarket[] = [
  M('AG', 'Antigua and Barbuda', 'USD', false),
  M('AT', 'Austria', 'EUR', true),
  M('AU', 'Australia', 'AUD', true),
  M('BE', 'Belgium', 'EUR', true),
  M('BZ', 'Belize', 'USD', false),
  M('CA', 'Canada', 'CAD', false),
  M('CH', 'Switzerland', 'CHF', true),
  M('DE', 'Germany', 'EUR', true),
  M('ES', 'Spain', 'EUR', true),
  M('FR', 'France', 'EUR', true),
  M('GB', 'United Kingdom', 'GBP', true),
  M('IE', 'Ireland', 'EUR', true),
  M('IT', 'Italy', 'EUR', true),
  M('MX', 'Mexico', 'MXN', true),
  M('NL', 'Netherlands', 'EUR', true),
  M('NZ', 'New Zealand', 'NZD', true),
  M('PT', 'Portugal', 'EUR', true),
  M('US', 'United States', 'USD', false),
];

export const PRICING_MARKET_CODES = PRICING_MARKETS.map((m) => m.code) as [string, ...string[]];

export function pricingMarket(code: string): PricingMarket | undefined {
  return PRICING_MARKETS.find((m) => m.code === code);
}

/** The market whose currency this is, for requests that give a currency but no market. */
export function marketForCurrency(currency: string): PricingMarket | undefined {
  const preferred: Record<string, string> = { USD: 'US', EUR: 'DE' };
  const code = preferred[currency] ?? PRICING_MARKETS.find((m) => m.currency === currency)?.code;
  return code ? pricingMarket(code) : undefined;
}
