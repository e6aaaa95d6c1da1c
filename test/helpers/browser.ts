/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS, PAGE_WAIT_MS, SHOTS, hasChromium } from './chromium.js';

export { BROWSER_SUITE, hasChromium } from './chromium.js';
export const skippedNote = hasChromium ? '' : ' [SKIPPED: chromium not installed]';

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 820 };

/** Debian's Chromium with the service's flags; every page and context it opens waits up to PAGE_WAIT_MS on a condition. */
export async function launchChromium(extraArgs: string[] = []): Promise<Browser> {
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extraArgs] });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(PAGE_WAIT_MS);
    context.setDefaultNavigationTimeout(PAGE_WAIT_MS);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    page.setDefaultTimeout(PAGE_WAIT_MS);
    page.setDefaultNavigationTimeout(PAGE_WAIT_MS);
    return page;
  };
  return browser;
}

export function screenshot(page: Page, name: string, opts: { fullPage?: boolean } = {}): Promise<Buffer> {
  return page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: opts.fullPage ?? true });
}

/** How far the page is wider than its viewport (0 when nothing overflows sideways). */
export function horizontalOverflow(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - window.innerWidth);
}

export interface LowContrast {
  text: string;
  ratio: number;
  color: string;
  background: string;
}

/**
 * Every visible text of the page whose colour against its effective background (the first
 * opaque background up the tree, blended through translucent ones; white at the root) is
 * under `min`:1 by the WCAG formula.
 */
export function lowContrastText(page: Page, min = 4.5): Promise<LowContrast[]> {
  return page.evaluate((min) => {
    type Rgba = [number, number, number, number];
    const parse = (c: string): Rgba => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) throw new Error(`unparsed colour ${c}`);
      const [r, g, b, a = 1] = m[1]
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [r, g, b, a];
    };
    const over = (top: Rgba, below: Rgba): Rgba => {
      const a = top[3];
      return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a)).concat(1) as Rgba;
    };
    const background = (el: Element | null): Rgba => {
      const layers: Rgba[] = [];
      for (let e = el; e; e = e.parentElement) {
        const bg = parse(getComputedStyle(e).backgroundColor);
        if (bg[3] > 0) layers.push(bg);
        if (bg[3] >= 1) break;
      }
      return layers.reduceRight<Rgba>((acc, layer) => over(layer, acc), [255, 255, 255, 1]);
    };
    const luminance = ([r, g, b]: Rgba) => {
      const f = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
      return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
    };
    const out: { text: string; ratio: number; color: string; background: string }[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent?.trim();
      const el = node.parentElement;
      if (!text || !el) continue;
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      if (style.visibility === 'hidden' || style.display === 'none' || box.width === 0 || box.height === 0 || Number(style.opacity) === 0) continue;
      const bg = background(el);
      // SVG text is painted with fill, HTML text with color
      const fg = over(parse(el instanceof SVGElement ? style.fill : style.color), bg);
      const [hi, lo] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
      const ratio = (hi + 0.05) / (lo + 0.05);
      if (ratio < min)
        out.push({ text: text.slice(0, 60), ratio: Math.round(ratio * 100) / 100, color: style.color, background: `rgb(${bg.slice(0, 3).join(', ')})` });
    }
    return out;
  }, min);
}

const AXE_SOURCE = (await import('axe-core')).default.source;

/** axe-core's serious and critical findings on the page, as "rule (nodes)". */
async function seriousAxeFindings(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: { run(d: Document, o: object): Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> } }).axe.run(
      document,
      { resultTypes: ['violations'] },
    ),
  );
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.nodes.length})`);
}

/**
 * What a dashboard page must not have at its viewport, each named by `name`: anything wider than the
 * screen, a table cell beyond its card, text under 4.5:1 contrast, a serious axe-core finding.
 */
export async function dashboardPageProblems(page: Page, name: string): Promise<string[]> {
  const problems: string[] = [];
  const overflow = await horizontalOverflow(page);
  if (overflow > 0) problems.push(`${name}: ${overflow} px wider than the screen`);
  const clipped = await page.evaluate(() =>
    [...document.querySelectorAll('.card td, .card th')]
      .filter((td) => td.getBoundingClientRect().right > td.closest('.card')!.getBoundingClientRect().right + 0.5)
      .map((td) => td.textContent!.trim().slice(0, 40)),
  );
  for (const c of clipped) problems.push(`${name}: cell "${c}" beyond its card`);
  for (const low of await lowContrastText(page)) problems.push(`${name}: "${low.text}" ${low.ratio}:1`);
  for (const finding of await seriousAxeFindings(page)) problems.push(`${name}: axe ${finding}`);
  return problems;
}
