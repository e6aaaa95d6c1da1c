import { loadConfig } from '../config/config.js';
import { createDashboardAccount, isEmail, normalizeEmail, resetTemporaryPassword } from '../doors/dashboard/accounts.js';
import { PLAN_CODES, type PlanCode } from '../platform/plans.js';
import { openDatabase } from '../app/service.js';
import { CommandLine } from './command-line.js';

const USAGE = `usage:
  npm run accounts -- create --email E --plan free|starter|growth|scale|enterprise [--name N]
  npm run accounts -- reset-password --email E
Prints a temporary password once; it must be changed at the first dashboard sign-in.
Works on the same DATABASE_URL or data directory as the server, running or not.`;

const cli: CommandLine = new CommandLine('accounts', USAGE);

cli.run(async () => {
  const { command, values } = cli.parse(['create', 'reset-password'], {
    email: { type: 'string' },
    plan: { type: 'string' },
    name: { type: 'string' },
  });
  const email = normalizeEmail(values.email ?? '');
  if (!isEmail(email)) cli.fail('--email must be an email address');
  if (command === 'create' && !PLAN_CODES.includes(values.plan as PlanCode)) cli.fail(`--plan must be one of ${PLAN_CODES.join(', ')}`);

  const db = await openDatabase(loadConfig());
  let output: string | null;
  try {
    if (command === 'create') {
      const issued = await createDashboardAccount(db.sql, { email, plan: values.plan as PlanCode, name: values.name });
      output = `created account ${issued.accountId} (${issued.email}, ${issued.plan} plan). Temporary password, shown once (changed at first sign-in):\n${issued.temporaryPassword}\n`;
    } else {
      const password = await resetTemporaryPassword(db.sql, email);
      output = password && `new temporary password for ${email}, shown once; its sessions have ended:\n${password}\n`;
    }
  } finally {
    await db.close();
  }
  if (!output) cli.fail(`no account with email ${email}`);
  process.stdout.write(output);
});
