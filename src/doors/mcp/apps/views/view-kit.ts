/// <reference lib="dom" />
/**
 * What every app shares: the host's theme applied (its CSS variables, light or dark), a small
 * element builder, money and date formats in the host's locale, and the start-up that renders a
 * tool result once the host sends it. Each app is one entry (<name>.view.ts) bundled with this
 * into one self-contained HTML page by the build (scripts/build.mjs): no request leaves it.
 */
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import { connectView, type ViewBridge } from './view-bridge.js';
import './view.css';

type Child = Node | string | number | null | undefined | false;

/** An element with attributes (`class`, `aria-*`, `data-*` …; a function for `on*`) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2), value as EventListener);
    else el.setAttribute(name, value === true ? '' : typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) el.append(typeof child === 'number' ? String(child) : child);
  return el;
}

let locale: string | undefined;

/** A price in its currency; whole units unless `exact` (the upstream's own precision). */
export function money(value: number, currency: string | null, exact = false): string {
  const digits = exact ? { minimumFractionDigits: Number.isInteger(value) ? 0 : 2 } : { maximumFractionDigits: 0 };
  try {
    if (currency) return new Intl.NumberFormat(locale, { style: 'currency', currency, ...digits }).format(value);
  } catch {
    // a code Intl does not know: the number and the code as the upstream stated them
  }
  return `${new Intl.NumberFormat(locale, digits).format(value)}${currency ? ` ${currency}` : ''}`;
}

/** A calendar date (YYYY-MM-DD) in words, in UTC so that the day never shifts. */
export function day(date: string, opts: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short' }): string {
  return new Intl.DateTimeFormat(locale, { ...opts, timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
}

/** The host's theme: its CSS variables on the root, light or dark for what it leaves unset. */
function applyContext(context: McpUiHostContext): void {
  const root = document.documentElement;
  if (context.theme) {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) if (value) root.style.setProperty(name, value);
  if (context.locale) {
    locale = context.locale;
    root.lang = context.locale;
  }
}

export interface ViewStart<T> {
  name: string;
  /** Renders the tool's structuredContent into the page's main element; called again for each new result. */
  render(answer: T, ctx: { bridge: ViewBridge; args: Record<string, unknown>; main: HTMLElement }): void;
}

/** Connects to the host and renders each tool result it sends; an error result is said as such. */
export function startView<T>(view: ViewStart<T>): void {
  const main = document.querySelector('main')!;
  let args: Record<string, unknown> = {};
  let bridge: ViewBridge | null = null;
  let waiting: Parameters<Parameters<typeof connectView>[1]['toolResult']>[0] | null = null;
  const show = (result: NonNullable<typeof waiting>) => {
    if (!bridge) return void (waiting = result);
    main.replaceChildren();
    main.removeAttribute('aria-busy');
    if (result.isError || !result.structuredContent) {
      const text = result.content?.find((c) => c.type === 'text');
      main.append(h('p', { class: 'error', role: 'alert' }, text && 'text' in text ? text.text : 'The tool answered no result.'));
    } else view.render(result.structuredContent as T, { bridge, args, main });
    document.body.dataset.rendered = 'true';
  };
  void connectView({ name: view.name, version: '1.0.0' }, { toolInput: (a) => (args = a), toolResult: show, context: applyContext }).then((connected) => {
    bridge = connected;
    if (waiting) show(waiting);
  });
}

/**
 * A button that asks the host to open a link (ui/open-link: a sandboxed frame opens nothing
 * itself); null where the host lets apps open no link. `hidden` completes its name for screen readers.
 */
export function linkButton(bridge: ViewBridge, url: string | null, visible: string, hidden: string): HTMLElement | null {
  if (!url || !bridge.hostCapabilities.openLinks) return null;
  const button = h('button', { type: 'button', class: 'book', 'data-link': url }, visible, h('span', { class: 'sr-only' }, hidden), ' ↗');
  button.addEventListener('click', () => void bridge.request('ui/open-link', { url }).catch(() => (button.textContent = 'The host did not open it')));
  return button;
}

/**
 * A button that has the host call one of our read-only tools and hands its structuredContent on;
 * null where the host lets apps call no tool. While it waits it says so; a failure lets it try again.
 */
export function callButton<T>(bridge: ViewBridge, label: string, name: string, args: Record<string, unknown>, then: (answer: T) => void): HTMLElement | null {
  if (!bridge.hostCapabilities.serverTools) return null;
  const button = h('button', { type: 'button', class: 'next' }, label);
  button.addEventListener('click', () => {
    button.setAttribute('disabled', '');
    button.textContent = 'Asking…';
    void bridge
      .request('tools/call', { name, arguments: args })
      .then((result) => {
        const answer = (result as { structuredContent?: T; isError?: boolean }).structuredContent;
        if (!answer || (result as { isError?: boolean }).isError) throw new Error('no result');
        then(answer);
      })
      .catch(() => {
        button.removeAttribute('disabled');
        button.textContent = `${label}: failed, try again`;
      });
  });
  return button;
}

/** "n thing(s)". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;
