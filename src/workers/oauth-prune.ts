import type PgBoss from 'pg-boss';
import type { ServiceDeps } from '../core/service-deps.js';
import { prunePendingClients } from '../doors/oauth/clients.js';
import { pruneExpired } from '../doors/oauth/codes.js';
import { startHourly } from '../jobs/hourly.js';

export const OAUTH_PRUNE_QUEUE = 'oauth-prune';

/**
 * Hourly: OAuth clients no account approved (past a week, or beyond OAUTH_PENDING_CLIENTS_MAX,
 * oldest first), expired codes and long-dead tokens. Registration is open to anyone, so its table
 * is bounded here as well as at each registration.
 */
export async function startOAuthPrune(deps: Pick<ServiceDeps, 'sql' | 'log' | 'config'>, boss: PgBoss): Promise<void> {
  await startHourly(deps.log, boss, {
    queue: OAUTH_PRUNE_QUEUE,
    cron: '43 * * * *',
    what: 'OAuth clients no account approved deleted',
    async run() {
      await pruneExpired(deps.sql);
      return prunePendingClients(deps.sql, deps.config.OAUTH_PENDING_CLIENTS_MAX);
    },
  });
}
