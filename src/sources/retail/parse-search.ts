import { UpstreamContractChanged } from '../../domain/errors.js';
import { arr, arrOrNull, nonEmptyText, num, obj, type Json } from '../../domain/json.js';
import { parseDisplayedAmount } from '../shared/offer.js';

export interface RetailSearchItem {
  position: number;
  item_id: string;
  title: string | null;
  link: string | null;
  price: number | null;
  price_text: string | null;
  was_price_text: string | null;
  /** The price per unit as the page states it, unit included (e.g. "$539.00/pa"); null when it states none. */
  unit_price_text: string | null;
  rating: number | null;
  reviews: number | null;
  seller: string | null;
  availability: string | null;
  thumbnail: string | null;
  sponsored: boolean;
}

const BASE = 'https://www.walmart.com';

/** Items of `searchResult.itemStacks[].items`; ad and tile placeholders are skipped. */
export function parseRetailSearchItems(items: unknown, context: { offset?: number } = {}): RetailSearchItem[] {
  if (!Array.isArray(items)) throw new UpstreamContractChanged('retail', 'itemStacks items array');
  const out: RetailSearchItem[] = [];
  for (const raw of items) {
    const it = obj(raw);
    if (!it || (it.__typename && it.__typename !== 'Product')) continue;
    const id = nonEmptyText(it.usItemId);
    if (!id) continue;
    const price = it.priceInfo;
    const url = nonEmptyText(it.canonicalUrl);
    // The search page states the price as text (`linePrice`, `itemPrice`); the store's other
    // format (its product pages and app data) as `currentPrice {price, priceString}`: both are read.
    const shown = nonEmptyText(price, 'linePrice') ?? nonEmptyText(price, 'itemPrice') ?? nonEmptyText(price, 'currentPrice', 'priceString');
    // minPrice is 0 on items without a price range (recorded page): the shown price is the price.
    const min = num(price, 'minPrice') ?? num(price, 'currentPrice', 'price');
    out.push({
      position: (context.offset ?? 0) + out.length + 1,
      item_id: id,
      title: nonEmptyText(it.name),
      link: url ? new URL(url, BASE).toString() : null,
      price: parseDisplayedAmount(shown) ?? (min !== null && min > 0 ? min : null),
      price_text: shown,
      was_price_text: nonEmptyText(price, 'wasPrice') ?? nonEmptyText(price, 'wasPrice', 'priceString'),
      unit_price_text: nonEmptyText(price, 'unitPrice') ?? nonEmptyText(price, 'unitPrice', 'priceString'),
      rating: num(it.averageRating),
      reviews: num(it.numberOfReviews),
      seller: nonEmptyText(it.sellerName),
      availability: nonEmptyText(it, 'availabilityStatusV2', 'display') ?? nonEmptyText(it.availabilityStatusDisplayValue),
      thumbnail: nonEmptyText(it, 'imageInfo', 'thumbnailUrl'),
      sponsored: !!it.sponsoredProduct,
    });
  }
  return out;
}

/** The items of every stack in a search page's `initialData.searchResult`. */
export function retailSearchItemsFromNextData(next: Json): unknown[] {
  const stacks = arrOrNull(next, 'props', 'pageProps', 'initialData', 'searchResult', 'itemStacks');
  if (!stacks) throw new UpstreamContractChanged('retail', 'searchResult.itemStacks');
  return stacks.flatMap((s) => arr(s, 'items'));
}
