import * as cheerio from 'cheerio';
import { UpstreamContractChanged } from '../../domain/errors.js';
import { cleanText } from './html-reduce.js';
import { stripTracking } from './parse-job.js';

const SEL = {
  card: '[data-entity-urn^="urn:li:jobPosting:"]',
  link: 'a.base-card__full-link',
  title: '.base-search-card__title',
  company: '.base-search-card__subtitle',
  companyLink: '.base-search-card__subtitle a',
  location: '.job-search-card__location',
  listdate: 'time.job-search-card__listdate, time.job-search-card__listdate--new',
  salary: '.job-search-card__salary-info',
  benefits: '.job-posting-benefits__text',
  logo: 'img.artdeco-entity-image',
} as const;

const URN = /^urn:li:jobPosting:(\d+)$/;

export interface NetworkJobCard {
  position: number;
  job_id: string;
  title: string;
  company: string | null;
  company_url: string | null;
  company_logo: string | null;
  location: string | null;
  /** Date the card shows (YYYY-MM-DD), from the datetime attribute. */
  posted_date: string | null;
  /** Relative age as shown. */
  posted: string | null;
  salary: string | null;
  benefits: string | null;
  link: string | null;
}

/**
 * Cards of the guest search fragment (`seeMoreJobPostings`). An empty fragment is an empty
 * page (the end of the results), not an error.
 */
export function parseNetworkSearch(html: string, context: { start?: number } = {}): NetworkJobCard[] {
  const $ = cheerio.load(html);
  const cards: NetworkJobCard[] = [];
  const offset = context.start ?? 0;
  $(SEL.card).each((_, el) => {
    const c = $(el);
    const m = URN.exec(c.attr('data-entity-urn') ?? '');
    const title = cleanText(c.find(SEL.title).first().text());
    if (!m || !title) return;
    const time = c.find(SEL.listdate).first();
    cards.push({
      position: offset + cards.length + 1,
      job_id: m[1]!,
      title,
      company: cleanText(c.find(SEL.company).first().text()),
      company_url: stripTracking(c.find(SEL.companyLink).first().attr('href')),
      company_logo: c.find(SEL.logo).first().attr('data-delayed-url') ?? c.find(SEL.logo).first().attr('src') ?? null,
      location: cleanText(c.find(SEL.location).first().text()),
      posted_date: time.attr('datetime') ?? null,
      posted: cleanText(time.text()),
      salary: cleanText(c.find(SEL.salary).first().text()),
      benefits: cleanText(c.find(SEL.benefits).first().text()),
      link: stripTracking(c.find(SEL.link).first().attr('href')),
    });
  });
  // Cards present in the markup but none readable means the card markup moved.
  if (cards.length === 0 && $(SEL.card).length > 0) {
    throw new UpstreamContractChanged('network', 'search card fields');
  }
  return cards;
}
