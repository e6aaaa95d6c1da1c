import * as cheerio from 'cheerio';
import type { Element } from 'domhandler';
import { UpstreamBlocked, UpstreamContractChanged } from '../../domain/errors.js';
import { cleanText, htmlToText, reduceHtml } from './html-reduce.js';
import { networkJobIdFromUrl } from './job-id.js';

const SEL = {
  topCard: '.top-card-layout',
  title: '.top-card-layout__title, .topcard__title',
  orgLink: 'a.topcard__org-name-link',
  orgName: '.topcard__org-name-link, .topcard__flavor:first-child',
  flavorRow: '.topcard__flavor-row',
  location: '.topcard__flavor--bullet',
  logo: 'img.artdeco-entity-image',
  posted: '.posted-time-ago__text',
  applicants: '.num-applicants__caption',
  closed: '.closed-job__flavor--closed',
  salary: '.compensation__salary',
  salaryLabel: '.compensation__heading',
  description: '.show-more-less-html__markup',
  descriptionFallback: '.description__text',
  criteriaItem: 'li.description__job-criteria-item',
  criteriaName: '.description__job-criteria-subheader',
  criteriaValue: '.description__job-criteria-text',
  decoratedId: 'code#decoratedJobPostingId',
  companyIdMeta: 'meta[name="companyId"]',
  canonical: 'link[rel="canonical"]',
  lnkdUrl: 'meta[property="lnkd:url"]',
} as const;

/** Attributes on the apply control that say where applying happens. */
const APPLY_ATTRS = ['data-tracking-control-name', 'data-impression-id', 'data-svg-class-name'];
const OFFSITE_MARK = /apply-link-offsite|offsite-apply/;
const ONSITE_MARK = /apply-link-(?:simple_)?onsite/;
/** Pages served instead of the posting to logged-out visitors that are blocked. */
const BLOCK_MARK = /authwall|<title>[^<]*(?:Sign Up|Sign In|Security Verification)[^<]*<\/title>|checkpoint\/challenge/i;

interface NetworkCriterion {
  name: string;
  value: string;
}

export interface NetworkJob {
  job_id: string;
  title: string;
  company: string | null;
  company_id: string | null;
  company_url: string | null;
  company_logo: string | null;
  location: string | null;
  posted: string | null;
  applicants: string | null;
  closed: boolean;
  /** Absent when the page shows no apply control. */
  easy_apply?: boolean;
  salary: string | null;
  salary_label: string | null;
  seniority_level: string | null;
  employment_type: string | null;
  industries: string | null;
  criteria: NetworkCriterion[];
  description: string | null;
  description_html: string | null;
  link: string;
}

/** Drops tracking parameters (trk and friends) from a profile or company link. */
export function stripTracking(href: string | undefined): string | null {
  if (!href) return null;
  try {
    const url = new URL(href);
    url.search = '';
    url.hash = '';
    return url.toString();
  } catch {
    return null;
  }
}

/** The text of a `<code>` config block, which wraps JSON in an HTML comment. */
function codeValue(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const m = /<!--([\s\S]*?)-->/.exec(raw);
  const body = (m?.[1] ?? raw).trim();
  try {
    const v: unknown = JSON.parse(body);
    return typeof v === 'string' || typeof v === 'number' ? String(v) : null;
  } catch {
    return null;
  }
}

/** One posting from the logged-out `/jobs/view/<id>` page (or the guest jobPosting fragment). */
export function parseNetworkJob(html: string, context: { job_id?: string } = {}): NetworkJob {
  const $ = cheerio.load(html);
  const card = $(SEL.topCard).first();
  const title = cleanText(card.find(SEL.title).first().text()) ?? cleanText($(SEL.title).first().text());
  if (!title) {
    if (BLOCK_MARK.test(html)) throw new UpstreamBlocked('AuthWall', 'body:authwall');
    throw new UpstreamContractChanged('network', 'job top card title');
  }

  const canonical = $(SEL.canonical).attr('href') ?? null;
  const lnkd = $(SEL.lnkdUrl).attr('content') ?? null;
  const jobId =
    codeValue($(SEL.decoratedId).html()) ??
    (canonical ? networkJobIdFromUrl(canonical) : null) ??
    (lnkd ? networkJobIdFromUrl(lnkd) : null) ??
    context.job_id ??
    null;
  if (!jobId) throw new UpstreamContractChanged('network', 'job id');

  const orgLink = card.find(SEL.orgLink).first();
  const firstRow = card.find(SEL.flavorRow).first();

  const criteria: NetworkCriterion[] = [];
  $(SEL.criteriaItem).each((_, el) => {
    const name = cleanText($(el).find(SEL.criteriaName).text());
    const value = cleanText($(el).find(SEL.criteriaValue).text());
    if (name && value) criteria.push({ name, value });
  });
  const criterion = (name: string): string | null => criteria.find((c) => c.name.toLowerCase() === name)?.value ?? null;

  const markup = $(SEL.description).first();
  const descNode = markup.length ? markup : $(SEL.descriptionFallback).first();
  const descHtml = descNode.length ? (descNode.html() ?? '') : '';

  const job: NetworkJob = {
    job_id: jobId,
    title,
    company: cleanText(orgLink.text()) ?? cleanText(card.find(SEL.orgName).first().text()),
    company_id: $(SEL.companyIdMeta).attr('content')?.trim() || null,
    company_url: stripTracking(orgLink.attr('href')),
    company_logo: card.find(SEL.logo).first().attr('data-delayed-url') ?? card.find(SEL.logo).first().attr('src') ?? null,
    location: cleanText(firstRow.find(SEL.location).first().text()),
    posted: cleanText(card.find(SEL.posted).first().text()),
    applicants: cleanText(card.find(SEL.applicants).first().text()),
    closed: card.find(SEL.closed).length > 0,
    salary: cleanText($(SEL.salary).first().text()),
    salary_label: cleanText($(SEL.salaryLabel).first().text()),
    seniority_level: criterion('seniority level'),
    employment_type: criterion('employment type'),
    industries: criterion('industries'),
    criteria,
    description: descHtml ? htmlToText(descHtml) || null : null,
    description_html: descHtml ? reduceHtml(descHtml) || null : null,
    link: canonical ?? lnkd ?? `https://www.linkedin.com/jobs/view/${jobId}/`,
  };
  const easy = easyApply($, card);
  if (easy !== undefined) job.easy_apply = easy;
  return job;
}

/** true for the network's own quick apply, false for apply-on-company-site, undefined without a control. */
function easyApply($: cheerio.CheerioAPI, card: cheerio.Cheerio<Element>): boolean | undefined {
  const marks: string[] = [];
  card.find('*').each((_, el) => {
    for (const attr of APPLY_ATTRS) {
      const v = $(el).attr(attr);
      if (v && /apply/.test(v)) marks.push(v);
    }
  });
  if (marks.some((m) => OFFSITE_MARK.test(m))) return false;
  if (marks.some((m) => ONSITE_MARK.test(m))) return true;
  return undefined;
}
