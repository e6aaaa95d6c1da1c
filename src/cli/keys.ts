import { loadConfig } from '../config/config.js';
import { createKey, listKeys, revokeKey, rotateKey, setKeyToolSets } from '../platform/keys.js';
import { MCP_TOOL_SETS, type McpToolSet } from '../domain/mcp-tool-sets.js';
import { PLAN_CODES, type PlanCode } from '../platform/plans.js';
import { openDatabase } from '../app/service.js';
import { CommandLine } from './command-line.js';

const USAGE = `usage:
  npm run keys -- create --name N [--rate-limit 60] [--role user|admin] [--plan free|starter|growth|scale|enterprise|none]
  npm run keys -- list
  npm run keys -- rotate --name N
  npm run keys -- revoke --name N
  npm run keys -- tool-sets --name N --sets watches|none   (opt-in MCP tool sets the key lists beside the default 18)
Works on the same DATABASE_URL or data directory as the server, running or not.`;

const cli: CommandLine = new CommandLine('keys', USAGE);

cli.run(async () => {
  const { command, values } = cli.parse(['create', 'list', 'rotate', 'revoke', 'tool-sets'], {
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    role: { type: 'string' },
    plan: { type: 'string' },
    sets: { type: 'string' },
  });
  if (command !== 'list' && !values.name) cli.fail('--name is required');
  const rateLimit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
  if (rateLimit !== undefined && !(Number.isInteger(rateLimit) && rateLimit > 0)) cli.fail('--rate-limit must be a positive integer');
  if (values.role && values.role !== 'user' && values.role !== 'admin') cli.fail('--role must be user or admin');
  const plan = values.plan ?? 'free';
  if (plan !== 'none' && !PLAN_CODES.includes(plan as PlanCode)) cli.fail(`--plan must be one of ${PLAN_CODES.join(', ')}, none`);

  const sets = (values.sets ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s && s !== 'none');
  if (command === 'tool-sets' && values.sets === undefined) cli.fail('--sets is required (comma-separated, or none)');
  const unknownSet = sets.find((s) => !(MCP_TOOL_SETS as readonly string[]).includes(s));
  if (unknownSet) cli.fail(`--sets: unknown set ${unknownSet} (known: ${MCP_TOOL_SETS.join(', ')}, or none)`);

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
    } else if (command === 'tool-sets') {
      if (!(await setKeyToolSets(db.sql, values.name!, sets as McpToolSet[]))) cli.fail(`no live key named ${values.name}`);
      process.stdout.write(`${values.name}: MCP tool sets ${sets.length ? sets.join(', ') : 'none'} beside the default 18\n`);
    } else {
      if (!(await revokeKey(db.sql, values.name!))) cli.fail(`no live key named ${values.name}`);
      process.stdout.write(`revoked ${values.name}\n`);
    }
  } finally {
    await db.close();
  }
});
