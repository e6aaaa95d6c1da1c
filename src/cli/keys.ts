import { loadConfig } from '../config/config.js';
import { createKey, listKeys, revokeKey, rotateKey } from '../platform/keys.js';
import { PLAN_CODES, type PlanCode } from '../platform/plans.js';
import { openDatabase } from '../app/service.js';
import { CommandLine } from './command-line.js';

const USAGE = `usage:
  npm run keys -- create --name N [--rate-limit 60] [--role user|admin] [--plan free|starter|growth|scale|enterprise|none]
  npm run keys -- list
  npm run keys -- rotate --name N
  npm run keys -- revoke --name N
Works on the same DATABASE_URL or data directory as the server, running or not.`;

const cli: CommandLine = new CommandLine('keys', USAGE);

cli.run(async () => {
  const { command, values } = cli.parse(['create', 'list', 'rotate', 'revoke'], {
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    role: { type: 'string' },
    plan: { type: 'string' },
  });
  if (command !== 'list' && !values.name) cli.fail('--name is required');
  const rateLimit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit > 0)) cli.fail('--rate-limit must be a positive integer');
  if (values.role && values.role !== 'user' && values.role !== 'admin') cli.fail('--role must be user or admin');
  const plan = values.plan ?? 'free';
  if (plan !== 'none' && !PLAN_CODES.includes(plan as PlanCode)) cli.fail(`--plan must be one of ${PLAN_CODES.join(', ')}, none`);

  const config = loadConfig();
  const db = await openDatabase(config);
  try {
    if (command === 'list') {
      for (const k of await listKeys(db.sql)) {
        const state = k.revoked_at ? `revoked ${k.revoked_at.toISOString()}` : 'active';
        process.stdout.write(
          `${k.name}\t${k.prefix}…\t${k.role}\t${k.rate_limit_per_min}/min\t${k.plan ?? 'no account'}\t${k.created_at.toISOString()}\t${state}\n`,
        );
      }
    } else if (command === 'create') {
      const created = await createKey(db.sql, {
        name: values.name!,
        rateLimit,
        role: values.role as 'user' | 'admin' | undefined,
        plan: plan === 'none' ? null : (plan as PlanCode),
      }).catch((err) => {
        if ((err as { code?: string }).code === '23505') cli.fail(`a live key named ${values.name} already exists (rotate or revoke it)`);
        throw err;
      });
      process.stdout.write(
        `created key ${created.name} (${created.prefix}…, ${created.rate_limit_per_min}/min, ${created.role}); shown once:\n${created.key}\n`,
      );
    } else if (command === 'rotate') {
      const created = await rotateKey(db.sql, values.name!);
      if (!created) cli.fail(`no live key named ${values.name}`);
      process.stdout.write(`rotated ${created.name}; the old key stops now. New key, shown once:\n${created.key}\n`);
    } else {
      if (!(await revokeKey(db.sql, values.name!))) cli.fail(`no live key named ${values.name}`);
      process.stdout.write(`revoked ${values.name}\n`);
    }
  } finally {
    await db.close();
  }
});
