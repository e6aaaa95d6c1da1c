import type { DashboardAccount } from './accounts.js';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for element content and quoted attributes. */
const esc = (value: string | number | boolean | null | undefined) => String(value ?? '').replace(/[&<>"']/g, (c) => ESCAPES[c]);

/** A fragment of HTML that is already safe; `html` leaves it as is and escapes everything else. */
export class Safe {
  constructor(readonly text: string) {}
  toString() {
    return this.text;
  }
}

/** What a page template takes: text and numbers (escaped), safe fragments, lists of them; null, undefined and false print nothing. */
export type HtmlValue = Safe | string | number | boolean | null | undefined | readonly HtmlValue[];

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): Safe {
  let out = strings[0];
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1];
  });
  return new Safe(out);
}

function render(v: HtmlValue): string {
  if (v instanceof Safe) return v.text;
  if (isList(v)) return v.map(render).join('');
  if (v === null || v === undefined || v === false) return '';
  return esc(v);
}

// Array.isArray does not narrow a readonly array type out of a union
const isList = (v: HtmlValue): v is readonly HtmlValue[] => Array.isArray(v);

export const fmtInt = (n: number) => n.toLocaleString('en-US');
export const fmtDate = (d: Date) => d.toISOString().slice(0, 10);
export const fmtDateTime = (d: Date) => `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
export const fmtMs = (ms: number | null) => (ms === null ? '—' : `${fmtInt(Math.round(ms))} ms`);

const CSS = `
*{box-sizing:border-box}
body{margin:0;background:#f4f6f9;color:#1d2733;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
a{color:#1f5fd1;text-decoration:none}a:hover{text-decoration:underline}
header{background:#fff;border-bottom:1px solid #e2e6ec}
/* the bar is wider than the page's column: seven sections and the account's e-mail fit in it at 1280 px */
.bar{max-width:1280px;margin:0 auto;padding:0 24px;height:58px;display:flex;align-items:center;gap:20px}
.brand{font-weight:650;color:#1d2733;display:flex;align-items:center;gap:10px;white-space:nowrap}
.logo{width:22px;height:22px;border-radius:6px;background:linear-gradient(135deg,#2b6de8,#17a2b8)}
nav{display:flex;gap:4px;flex:1}
nav a{color:#4b5663;padding:6px 10px;border-radius:6px;font-weight:500;white-space:nowrap}
nav a:hover{background:#f0f3f7;text-decoration:none}
nav a.active{background:#e8effd;color:#1f5fd1}
.who{display:flex;align-items:center;gap:10px;color:#5b6776;font-size:14px;white-space:nowrap;min-width:0}
/* a long e-mail address gives way (cut short) rather than push the bar past the screen */
.who>span:first-child{min-width:0;overflow:hidden;text-overflow:ellipsis}
.who a{color:#4b5663}
main{max-width:1080px;margin:0 auto;padding:28px 24px 56px}
h1{font-size:22px;margin:0 0 4px;font-weight:650}
h2{font-size:16px;margin:0 0 14px;font-weight:620}
.lead{color:#5b6776;margin:0 0 22px}
.card{background:#fff;border:1px solid #e2e6ec;border-radius:10px;padding:20px 24px;margin-bottom:20px}
table{width:100%;border-collapse:collapse;font-size:14px}
th{text-align:left;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#5b6776;padding:8px 10px;border-bottom:1px solid #e2e6ec}
td{padding:9px 10px;border-bottom:1px solid #eef1f5;vertical-align:middle}
tr:last-child td{border-bottom:0}
.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
code,.mono{font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.muted{color:#5b6776}
.empty{color:#5b6776;padding:18px 0 6px}
button,.button{display:inline-block;border:1px solid transparent;border-radius:7px;padding:8px 16px;font:inherit;font-weight:550;cursor:pointer;background:#1f5fd1;color:#fff}
button:hover{background:#1a52b8}
button.secondary{background:#fff;color:#1d2733;border-color:#cfd6df}
button.secondary:hover{background:#f4f6f9}
button.link,a.button.link{background:none;color:#5b6776;padding:4px 8px;border-color:#dde2e8;font-weight:500;font-size:13px}
form.inline{display:inline}
label{display:block;font-weight:550;font-size:14px;margin:14px 0 6px}
input[type=email],input[type=password]{width:100%;padding:9px 11px;border:1px solid #cfd6df;border-radius:7px;font:inherit;background:#fff}
input:focus{outline:2px solid #9dbcf5;border-color:#1f5fd1}
.hint{font-size:13px;color:#5b6776;margin-top:6px}
.alert{border-radius:8px;padding:12px 16px;margin-bottom:18px;font-size:14px}
.alert.error{background:#fdecec;border:1px solid #f5c2c2;color:#8a1f1f}
.alert.ok{background:#e9f7ef;border:1px solid #b7e2c6;color:#185c33}
.secret{display:block;margin:10px 0 8px;padding:12px 14px;background:#0f1722;color:#e8f0ff;border-radius:7px;font-size:15px;word-break:break-all;user-select:all}
.stats{display:grid;grid-template-columns:repeat(5,1fr);gap:14px;margin-bottom:20px}
.stat{background:#fff;border:1px solid #e2e6ec;border-radius:10px;padding:14px 16px}
.stat .k{font-size:12px;color:#5b6776;text-transform:uppercase;letter-spacing:.04em;font-weight:600}
.stat .v{font-size:22px;font-weight:650;margin-top:4px;font-variant-numeric:tabular-nums}
.stat .s{font-size:12px;color:#5b6776}
.tabs{display:flex;gap:6px;margin-bottom:18px}
.tabs a{padding:5px 12px;border:1px solid #d6dce4;border-radius:999px;font-size:13px;color:#4b5663;background:#fff}
.tabs a.active{background:#1d2733;color:#fff;border-color:#1d2733}
.badge{display:inline-block;padding:2px 9px;border-radius:999px;font-size:12px;font-weight:600;background:#eef1f5;color:#4b5663}
.badge.succeeded,.badge.delivered{background:#e3f5ea;color:#1c6b3c}
.badge.running{background:#e6eefc;color:#1f5fd1}
.badge.partial{background:#fdf3dc;color:#8a5a00}
.badge.failed{background:#fdecec;color:#a12828}
.progress{height:8px;background:#edf0f4;border-radius:99px;overflow:hidden;display:flex;min-width:160px}
.progress .ok{background:#2f9e5b}.progress .ko{background:#d64545}
.amount.pos{color:#1c6b3c}.amount.neg{color:#a12828}
.auth{max-width:420px;margin:9vh auto 40px;padding:0 16px}
.auth .brand{justify-content:center;margin-bottom:22px;font-size:18px}
.auth .card{padding:28px 30px}
.auth .card button{width:100%;margin-top:22px;padding:10px}
.card h2+.empty{padding-top:2px}
.foot{text-align:center;font-size:13px;color:#5b6776;margin-top:16px}
.row{display:flex;justify-content:space-between;align-items:center;gap:16px;flex-wrap:wrap}
.chart svg{display:block;width:100%;height:auto}
.chart svg.narrow{display:none}
.legend{display:flex;gap:16px;font-size:13px;color:#5b6776;margin-top:8px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:6px;vertical-align:-1px}
a.button:hover{text-decoration:none}
.button.secondary{background:#fff;color:#1d2733;border-color:#cfd6df}
.actions{display:flex;gap:10px;flex-wrap:wrap;margin-top:16px}
.card{overflow-x:auto}
.inline-actions{display:flex;gap:6px;justify-content:flex-end}
td .badge{white-space:nowrap}
/* a watch without a name shows its id: one long word that must wrap rather than widen the table past its card */
.breakable{overflow-wrap:anywhere}
.row>.inline-actions{margin-bottom:14px}
button.link.danger,a.button.link.danger{color:#a12828;border-color:#f1c4c4}
button.danger:not(.link){background:#b42323}button.danger:not(.link):hover{background:#962020}
.copy-row{display:flex;gap:10px;align-items:center;flex-wrap:wrap}
.copy-row .secret{flex:1 1 260px;margin:10px 0 8px}
/* the rate shop's heat-map: dark text on light tints (the tint repeats the signed difference written in the cell) */
table.heat{table-layout:fixed;margin-top:8px}
table.heat caption{text-align:left;font-size:13px;color:#5b6776;padding-bottom:8px}
table.heat th[scope=row],table.heat thead th:first-child{font-weight:600;white-space:nowrap;font-variant-numeric:tabular-nums;width:150px}
table.heat .dow{display:inline-block;width:34px;color:#5b6776}
table.heat td{border:2px solid #fff;border-radius:6px;padding:6px 8px;font-size:12px;line-height:1.35;vertical-align:top;font-variant-numeric:tabular-nums}
table.heat td span{display:block}
table.heat td .own{font-size:14px;font-weight:650}
table.heat td .diff{font-weight:600}
.h-p3{background:#f6c9b8}.h-p2{background:#fbe2cc}.h-0{background:#eef1f5}.h-n2{background:#d8efe1}.h-n3{background:#b8e2c8}.h-none{background:#f7f8fa;color:#5b6776}
nav.tabs{flex-wrap:wrap}nav.tabs a{max-width:100%;white-space:normal;overflow-wrap:anywhere}
.heat-legend{display:flex;flex-wrap:wrap;gap:6px 16px;font-size:13px;color:#4b5663;margin:4px 0 6px}
.heat-legend i{display:inline-block;width:14px;height:14px;border-radius:3px;margin-right:6px;vertical-align:-2px;border:1px solid #d6dce4}
/* the parity page: a price with its provenance under it, and the comparison that shows a disparity again */
.priced .own{display:block;font-weight:600}
.prov{display:block;font-size:12px;color:#5b6776}
.prov code{font-size:12px}
pre.breakable{white-space:pre-wrap;text-align:left;margin:6px 0 0;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
@media (max-width:760px){
table.stack thead{display:none}
table.stack,table.stack tbody,table.stack tr{display:block;width:100%}
table.stack tr{padding:8px 0;border-bottom:1px solid #eef1f5}
table.stack tr:last-child{border-bottom:0}
table.stack td{display:flex;justify-content:space-between;align-items:baseline;gap:14px;padding:3px 0;border:0;text-align:right;white-space:normal;min-width:0}
table.stack td>*{min-width:0;overflow-wrap:anywhere}
table.stack td::before{content:attr(data-label);flex:none;font-size:12px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#5b6776;text-align:left}
table.stack td:not([data-label]){justify-content:flex-end}
table.stack td:not([data-label])::before{content:none}
.bar{height:auto;flex-wrap:wrap;padding:10px 16px;gap:6px 14px}
nav{order:3;flex:1 1 100%;flex-wrap:wrap}
nav a{white-space:nowrap;padding:6px 10px}
.who{flex-wrap:wrap;white-space:normal;gap:8px;min-width:0}
.who>span:first-child{overflow-wrap:anywhere}
main{padding:20px 16px 40px}
.card{padding:16px}
.stats{grid-template-columns:repeat(2,minmax(0,1fr))}
.tabs{flex-wrap:wrap}
.chart svg.wide{display:none}.chart svg.narrow{display:block}
table.heat,table.heat tbody,table.heat caption{display:block}
table.heat thead{display:none}
table.heat tr{display:grid;grid-template-columns:repeat(auto-fill,minmax(104px,1fr));gap:4px;padding:8px 0;border-bottom:1px solid #eef1f5}
table.heat th[scope=row]{grid-column:1/-1;width:auto;padding:0}
table.heat.parity tr{grid-template-columns:repeat(auto-fill,minmax(170px,1fr))}
table.heat td{border:0}
table.heat td::before{content:attr(data-label);display:block;font-size:11px;font-weight:600;text-transform:uppercase;letter-spacing:.04em;color:#4b5663}
.auth .card{padding:22px 18px}
}
`;

export type Section = 'api' | 'usage' | 'jobs' | 'watches' | 'compsets' | 'apps' | 'sources';

const NAV: [Section, string, string][] = [
  ['api', 'API access', '/dashboard/api'],
  ['usage', 'Usage', '/dashboard/usage'],
  ['jobs', 'Jobs', '/dashboard/jobs'],
  ['watches', 'Watches', '/dashboard/watches'],
  ['compsets', 'Comp sets', '/dashboard/compsets'],
  ['apps', 'Apps', '/dashboard/apps'],
  ['sources', 'Sources', '/dashboard/sources'],
];

function head(title: string): Safe {
  return html`<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} · Hotel-rate API dashboard</title><style>${new Safe(CSS)}</style></head>`;
}

const brand = html`<span class="brand"><span class="logo"></span>Hotel-rate API</span>`;

export function signOutForm(csrf: string): Safe {
  return html`<form class="inline" method="post" action="/dashboard/sign-out"><input type="hidden" name="_csrf" value="${csrf}"><button class="link" type="submit">Sign out</button></form>`;
}

/** A signed-in page: top bar with the sections, the account and sign-out. */
export function appPage(o: { title: string; section: Section; account: DashboardAccount; csrf: string; body: Safe }): string {
  const nav = NAV.map(([id, label, href]) => html`<a href="${href}" class="${id === o.section ? 'active' : ''}">${label}</a>`);
  return html`${head(o.title)}<body><header><div class="bar">${brand}<nav>${nav}</nav>
<div class="who"><span>${o.account.email}</span><span class="badge">${o.account.plan}</span><a href="/dashboard/password">Password</a>${signOutForm(o.csrf)}</div></div></header>
<main>${o.body}</main></body></html>`.text;
}

/** Sign-in and password pages: one centered card. */
export function authPage(o: { title: string; body: Safe }): string {
  return html`${head(o.title)}<body><div class="auth">${brand}${o.body}</div></body></html>`.text;
}

export function alert(kind: 'error' | 'ok', message: string | null | undefined): Safe {
  return message ? html`<div class="alert ${kind}" role="${kind === 'error' ? 'alert' : 'status'}">${message}</div>` : html``;
}

export const csrfField = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;
