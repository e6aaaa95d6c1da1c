import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamContractChanged } from '../../domain/errors.js';

/**
 * Class names of the search engine's rendered job-card list (the `ibp=htl;jobs` view), as public
 * scrapers read them: cards `.PwjeAc` inside the list `.gws-plugins-horizon-jobs__tl-lvc`, title
 * `.BjJfJf`, company `.vNEEBe`, location then "via <site>" in `.Qk80Jf`, chips `.LL4CDc` labelled
 * by aria-label ("Posted …", "Employment type …"), apply links `a.pMhGee` (in the detail pane
 * `#tl_ditsc` of the selected card, or inside a card).
 */
const SEL = {
  list: '.gws-plugins-horizon-jobs__tl-lvc',
  card: '.PwjeAc',
  title: '.BjJfJf',
  company: '.vNEEBe',
  locationVia: '.Qk80Jf',
  chip: '.LL4CDc',
  apply: 'a.pMhGee',
  detailPane: '#tl_ditsc',
  selected: '[aria-selected="true"]',
} as const;

const POSTED_LABEL = /^posted\b/i;
const EMPLOYMENT_LABEL = /^employment type\b/i;
/** Relative ages only ("3 days ago", "22 hours ago", "30+ days ago"); a calendar date is not kept. */
const RELATIVE_AGE = /\bago\b|^\d+\+?\s*(?:h|d|hr|hrs|hours?|days?|weeks?|months?)\b/i;

interface JobCardApplyOption {
  source: string | null;
  link: string;
}

export interface JobCard {
  title: string;
  company: string | null;
  location: string | null;
  via: string | null;
  posted: string | null;
  employment_type: string | null;
  apply_options: JobCardApplyOption[];
}

function clean(s: string | undefined | null): string | null {
  const t = (s ?? '').replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}

function applyOptions($: cheerio.CheerioAPI, links: cheerio.Cheerio<Element>, pageUrl: string): JobCardApplyOption[] {
  const out: JobCardApplyOption[] = [];
  links.each((_, el) => {
    const href = $(el).attr('href');
    if (!href) return;
    let link: string;
    try {
      link = new URL(href, pageUrl).toString();
    } catch {
      return;
    }
    if (out.some((o) => o.link === link)) return;
    const text = clean($(el).text());
    out.push({ source: text ? text.replace(/^apply\s+(?:directly\s+)?on\s+/i, '') : null, link });
  });
  return out;
}

/**
 * Job cards of the rendered results page. A page with the list but no card is an empty result;
 * a page without the list at all means the markup moved.
 */
export function parseJobCards(html: string, context: { url: string }): JobCard[] {
  const $ = cheerio.load(html);
  const cards = $(SEL.card);
  if (cards.length === 0) {
    if ($(SEL.list).length > 0) return [];
    throw new UpstreamContractChanged('jobsearch', 'job card list');
  }
  const pane = $(SEL.detailPane).find(SEL.apply);
  const out: JobCard[] = [];
  cards.each((_, el) => {
    const card = $(el);
    const title = clean(card.find(SEL.title).first().text());
    if (!title) return;
    const item = card.closest('li').length ? card.closest('li') : card;
    const places = card
      .find(SEL.locationVia)
      .toArray()
      .map((p) => clean($(p).text()));
    const viaText = places.find((p) => p && /^via\s/i.test(p)) ?? null;
    const location = places.find((p) => p && p !== viaText) ?? null;
    let posted: string | null = null;
    let employment: string | null = null;
    card.find(SEL.chip).each((_, chip) => {
      const label = $(chip).attr('aria-label') ?? '';
      const text = clean($(chip).text());
      if (POSTED_LABEL.test(label) && text && RELATIVE_AGE.test(text)) posted ??= text;
      else if (EMPLOYMENT_LABEL.test(label)) employment ??= text;
    });
    const selected = item.is(SEL.selected) || item.find(SEL.selected).length > 0;
    const own = applyOptions($, item.find(SEL.apply), context.url);
    const fromPane = selected ? applyOptions($, pane, context.url) : [];
    out.push({
      title,
      company: clean(card.find(SEL.company).first().text()),
      location,
      via: viaText ? viaText.replace(/^via\s+/i, '') : null,
      posted,
      employment_type: employment,
      apply_options: [...own, ...fromPane.filter((p) => !own.some((o) => o.link === p.link))],
    });
  });
  if (out.length === 0) throw new UpstreamContractChanged('jobsearch', 'job card titles');
  return out;
}
