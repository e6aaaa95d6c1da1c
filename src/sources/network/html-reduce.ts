import * as cheerio from 'cheerio';
import { isTag, isText, type AnyNode } from 'domhandler';

/** Tags kept in reduced markup; `b` and `i` are their presentational twins. */
const KEPT_TAGS = new Set(['p', 'br', 'strong', 'em', 'u', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const RENAMED_TAGS: Record<string, string> = { b: 'strong', i: 'em' };
/** Subtrees that never carry description text. */
const DROPPED_TAGS = new Set(['script', 'style', 'noscript', 'template', 'iframe', 'svg', 'button', 'form', 'input', 'select']);
/** Elements that end a line in plain text. */
const BLOCK_TAGS = new Set([
  'p',
  'div',
  'section',
  'article',
  'li',
  'ul',
  'ol',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'tr',
  'table',
  'blockquote',
  'pre',
  'dd',
  'dt',
  'dl',
  'header',
  'footer',
]);

function escapeText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function rootNodes(html: string): AnyNode[] {
  const $ = cheerio.load(html, null, false);
  return $.root().contents().toArray();
}

/** Markup reduced to p, br, strong, em, u, lists and headings, every attribute dropped. */
export function reduceHtml(html: string): string {
  const out: string[] = [];
  const walk = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (isText(node)) {
        out.push(escapeText(node.data));
      } else if (isTag(node)) {
        const name = node.name.toLowerCase();
        if (DROPPED_TAGS.has(name)) continue;
        const tag = RENAMED_TAGS[name] ?? name;
        if (!KEPT_TAGS.has(tag)) {
          walk(node.children);
        } else if (tag === 'br') {
          out.push('<br>');
        } else {
          out.push(`<${tag}>`);
          walk(node.children);
          out.push(`</${tag}>`);
        }
      }
    }
  };
  walk(rootNodes(html));
  return out.join('').trim();
}

/** Plain text with the line structure kept: br is a line break, a block starts and ends a line. */
export function htmlToText(html: string): string {
  let s = '';
  const endLine = (): void => {
    s = s.replace(/ +$/, '');
    if (s !== '' && !s.endsWith('\n')) s += '\n';
  };
  const walk = (nodes: AnyNode[]): void => {
    for (const node of nodes) {
      if (isText(node)) {
        let t = node.data.replace(/[ \t\r\n\f\u00a0]+/g, ' ');
        if (s === '' || s.endsWith('\n') || s.endsWith(' ')) t = t.replace(/^ +/, '');
        s += t;
      } else if (isTag(node)) {
        const name = node.name.toLowerCase();
        if (DROPPED_TAGS.has(name)) continue;
        if (name === 'br') {
          s = s.replace(/ +$/, '') + '\n';
          continue;
        }
        const block = BLOCK_TAGS.has(name);
        if (block) endLine();
        walk(node.children);
        if (block) endLine();
      }
    }
  };
  walk(rootNodes(html));
  return s
    .split('\n')
    .map((line) => line.trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Text of an element with HTML whitespace collapsed. */
export function cleanText(s: string | undefined | null): string | null {
  if (s == null) return null;
  const t = s.replace(/\s+/g, ' ').trim();
  return t === '' ? null : t;
}
