import path from 'node:path';
import { z } from 'zod';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** Every setting, mapped to its environment variable. Parsed once at start. */
const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().optional(),
  DATA_DIR: z.string().default('./.data'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).default(54329),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CREDITS_MODE: z.enum(['off', 'shadow', 'enforce']).default('shadow'),
  DEFAULT_RATE_LIMIT_PER_MIN: z.coerce.number().int().min(1).default(60),
  PUBLIC_BASE_URL: z.string().url().optional(),
  BOOTSTRAP_KEY: bool.default(true),
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(20),
});

export type RawConfig = z.infer<typeof ConfigSchema>;

export interface Config extends RawConfig {
  dataDir: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked: Record<string, string> = {};
  for (const name of Object.keys(ConfigSchema.shape)) {
    const value = env[name];
    if (value !== undefined && value !== '') picked[name] = value;
  }
  const parsed = ConfigSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  return { ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) };
}

/** Names and meanings of every setting, for the README and `--help`. */
export const CONFIG_DOC: Record<keyof RawConfig, string> = {
  PORT: 'HTTP port (0 picks a free one)',
  HOST: 'listen address',
  DATABASE_URL: 'external PostgreSQL ≥ 14; unset starts the embedded one',
  DATA_DIR: 'data directory (embedded database, diagnostics)',
  EMBEDDED_PG_PORT: 'port of the embedded PostgreSQL',
  LOG_LEVEL: 'pino log level',
  CREDITS_MODE: 'off | shadow | enforce',
  DEFAULT_RATE_LIMIT_PER_MIN: 'rate limit of new keys',
  PUBLIC_BASE_URL: 'base URL printed at start and used in links',
  BOOTSTRAP_KEY: 'create and print a first key when none exists',
  DB_POOL_MAX: 'PostgreSQL connection pool size',
};
