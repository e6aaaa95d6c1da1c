import type { Router } from 'express';
import { OK_SHARE, readSourcesStatus, type SourceState, type SourceStatus } from '../../ops/outcome-store.js';
import type { DashboardKit } from './connected-apps.js';
import { appPage, fmtDateTime, html } from './html.js';
import type { DashboardAccount } from './accounts.js';

/** The state badges reuse the dashboard's status colours: green, amber, red, grey. */
const BADGE: Record<SourceState, string> = { ok: 'succeeded', degraded: 'partial', failing: 'failed', unknown: '' };

const when = (iso: string | null) => (iso ? fmtDateTime(new Date(iso)) : '—');

function sourcesPage(o: { account: DashboardAccount; csrf: string; sources: SourceStatus[] }): string {
  const rows = o.sources.map(
    (s) => html`<tr><td data-label="Source"><code>${s.source}</code></td><td data-label="State"><span class="badge ${BADGE[s.state]}">${s.state}</span></td>
<td data-label="Last success" class="num">${when(s.last_success_at)}</td><td data-label="Last contract change" class="num">${when(s.last_contract_change_at)}</td></tr>`,
  );
  return appPage({
    title: 'Sources',
    section: 'sources',
    account: o.account,
    csrf: o.csrf,
    body: html`<h1>Sources</h1><p class="lead">How each upstream source answered in the last hour, all requests of the platform together.</p>
<div class="card"><table class="stack"><thead><tr><th>Source</th><th>State</th><th class="num">Last success</th><th class="num">Last contract change</th></tr></thead><tbody>${rows}</tbody></table>
<p class="hint">ok: at least ${OK_SHARE * 100}% of requests answered and read; degraded: fewer, or a reply whose structure changed; failing: none answered; unknown: no request.
The same as <code>GET /v1/sources/status</code>.</p></div>`,
  });
}

export function mountSources(r: Router, kit: Pick<DashboardKit, 'deps' | 'signedIn' | 'send'>): void {
  r.get(
    '/sources',
    kit.signedIn(async (_req, res, { session, account }) => {
      await kit.deps.ops.outcomes.flush();
      kit.send(res, 200, sourcesPage({ account, csrf: session.csrf, sources: await readSourcesStatus(kit.deps.sql) }));
    }),
  );
}
