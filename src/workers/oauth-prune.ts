import type PgBoss from 'pg-boss';
import type { AppDeps } from '../app/deps.js';
import { prunePendingClients } from '../doors/oauth/clients.js';
import { pruneExpired } from '../doors/oauth/codes.js';
import { startHourly } from '../jobs/hourly.js';

export const OAUTH_PRUNE_QUEUE = 'oauth-prune';

/**
 * Hourly: OAuth clients no account approved (past a week, or beyond OAUTH_PENDING_CLIENTS_MAX,
 * oldest first), expired codes and long-dead tokens. Registration is open to anyone, so its table
 * is bounded here as well as at each registration.
 */
export async function startOAuthPrune(deps: AppDeps, boss: PgBoss): Promise<void> {
  await startHourly(deps, boss, {
    queue: OAUTH_PRUNE_QUEUE,
    cron: '43 * * * *',
    what: 'OAuth clients no account approved deleted',
    async run(d) {
      await pruneExpired(d.sql);
      return prunePendingClients(d.sql, d.config.OAUTH_PENDING_CLIENTS_MAX);
    },
  });
}
