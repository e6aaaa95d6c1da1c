/**
 * `otaone` search-results page (server-rendered HTML): one record per `property-card`.
 * Cards carry no numeric hotel id; the page-name slug and country come from the card link.
 */
import * as cheerio from 'cheerio';
import { UpstreamContractChanged } from '../../domain/errors.js';
import { currencyFromText, parseDisplayedAmount } from '../shared/offer.js';
import { parseOtaonePageUrl } from './page-url.js';

/** Selectors, by the page's own test ids. */
const SEL = {
  container: '[data-testid="search-results"]',
  card: '[data-testid="property-card"]',
  titleLink: '[data-testid="title-link"]',
  title: '[data-testid="title"]',
  address: '[data-testid="address-link"]',
  distance: '[data-testid="distance"]',
  reviewLink: '[data-testid="review-score-link"]',
  stay: '[data-testid="price-for-x-nights"]',
  price: '[data-testid="price-and-discounted-price"]',
  taxes: '[data-testid="taxes-and-charges"]',
  units: '[data-testid="recommended-units"]',
  stars: '[data-testid="rating-stars"], [data-testid="rating-squares"]',
  cancellationIcon: '[data-testid="cancellation-policy-icon"]',
  prepaymentIcon: '[data-testid="prepayment-policy-icon"]',
} as const;

/** Policy wording of the English pages; the icon marks the line, the words say which policy. */
const FREE_CANCELLATION = /free cancellation/i;
const NO_PREPAYMENT = /no prepayment/i;

interface OtaoneCardUnit {
  name: string;
  /** Lines under the unit name (bed set-up, policies, scarcity), as displayed. */
  details: string[];
  free_cancellation: boolean;
  no_prepayment: boolean;
}

export interface OtaoneSearchCard {
  position: number;
  name: string;
  pagename: string;
  country: string;
  url: string;
  /** Cards carry no numeric id. */
  hotel_id: null;
  address: string;
  distance: string;
  review_score: number | null;
  review_word: string;
  review_count: number | null;
  /** From the accessible rating label, e.g. "3 out of 5"; null when not shown. */
  star_rating: number | null;
  /** e.g. "2 nights, 2 adults". */
  stay_text: string;
  price: number | null;
  price_text: string;
  currency: string | null;
  /** e.g. "+€ 5 taxes and charges". */
  taxes_text: string;
  taxes: number | null;
  units: OtaoneCardUnit[];
}

function clean(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Text of an element with its text nodes kept apart, so nested lines do not run together. */
interface DomNode {
  type: string;
  data?: string;
  children?: DomNode[];
}

function spaced(node: DomNode): string {
  if (node.type === 'text') return node.data ?? '';
  if (node.type === 'comment') return '';
  return (node.children ?? []).map(spaced).join(' ');
}

/** Parses the cards; an empty results container gives an empty list. */
export function parseOtaoneSearchCards(html: string): OtaoneSearchCard[] {
  const $ = cheerio.load(html);
  const cards = $(SEL.card);
  if (cards.length === 0 && $(SEL.container).length === 0) {
    throw new UpstreamContractChanged('otaone', 'search-results container and property cards');
  }
  const out: OtaoneSearchCard[] = [];
  cards.each((i, el) => {
    const card = $(el);
    const href = card.find(SEL.titleLink).attr('href') ?? '';
    const ref = parseOtaonePageUrl(href);
    if (!ref) throw new UpstreamContractChanged('otaone', 'property card link /hotel/<cc>/<pagename>.html');
    const reviewLabel = card.find(SEL.reviewLink).attr('aria-label') ?? '';
    const review = /Scored\s+([\d.,]+),\s*([^,]+),\s*([\d,.]+)\s+reviews?/i.exec(reviewLabel);
    const starsLabel = card.find(SEL.stars).closest('button').attr('aria-label') ?? card.find('[aria-label*="out of 5"]').attr('aria-label') ?? '';
    const stars = /(\d+(?:\.\d+)?)\s+out of 5/i.exec(starsLabel);
    const priceText = clean(card.find(SEL.price).first().text());
    const taxesText = clean(card.find(SEL.taxes).first().text());
    const units: OtaoneCardUnit[] = [];
    card.find(`${SEL.units} h4`).each((_, h) => {
      const head = $(h);
      const list = head.nextAll('ul').first();
      const details = list
        .find('li')
        .map((__, li) => clean(spaced(li as unknown as DomNode)))
        .get()
        .filter(Boolean);
      const policy = (icon: string, words: RegExp) =>
        list
          .find(icon)
          .closest('li')
          .toArray()
          .some((li) => words.test($(li).text()));
      units.push({
        name: clean(head.text()),
        details,
        free_cancellation: policy(SEL.cancellationIcon, FREE_CANCELLATION),
        no_prepayment: policy(SEL.prepaymentIcon, NO_PREPAYMENT),
      });
    });
    out.push({
      position: i + 1,
      name: clean(card.find(SEL.title).first().text()),
      pagename: ref.pagename,
      country: ref.country,
      url: href,
      hotel_id: null,
      address: clean(card.find(SEL.address).first().text()),
      distance: clean(card.find(SEL.distance).first().text()),
      review_score: review ? Number(review[1]!.replace(',', '.')) : null,
      review_word: review ? clean(review[2]!) : '',
      review_count: review ? Number(review[3]!.replace(/[,.]/g, '')) : null,
      star_rating: stars ? Number(stars[1]) : null,
      stay_text: clean(card.find(SEL.stay).first().text()),
      price: parseDisplayedAmount(priceText),
      price_text: priceText,
      currency: currencyFromText(priceText),
      taxes_text: taxesText,
      taxes: parseDisplayedAmount(taxesText),
      units,
    });
  });
  return out;
}
