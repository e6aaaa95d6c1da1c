import { z } from 'zod';
import { ALIASES, type Alias } from './hosts.js';

/**
 * How a source reaches its upstream: `http` (the plain client only), `browser` (headless Chromium
 * only: the page's own script makes the request) or `auto` (plain first; the browser when the plain
 * reply is refused, left to a signed script, or a script challenge).
 */
export const UPSTREAM_MODES = ['http', 'browser', 'auto'] as const;
export type UpstreamMode = (typeof UPSTREAM_MODES)[number];

export type ModeEnvName<A extends string = Alias> = `UPSTREAM_${Uppercase<A>}_MODE`;

function modeEnvName<A extends Alias>(alias: A): ModeEnvName<A> {
  return `UPSTREAM_${alias.toUpperCase()}_MODE` as ModeEnvName<A>;
}

const mode = z.enum(UPSTREAM_MODES).default('auto');

/** Zod fields `UPSTREAM_<ALIAS>_MODE`, spread into the config schema. */
export const MODE_FIELDS = Object.fromEntries(ALIASES.map((a) => [modeEnvName(a), mode])) as {
  [A in Alias as ModeEnvName<A>]: typeof mode;
};

export const MODE_DOC = Object.fromEntries(
  ALIASES.map((a) => [
    modeEnvName(a),
    `how the ${a} source is reached: http | browser | auto (plain first, headless Chromium when refused, signed or challenged)`,
  ]),
) as { [A in Alias as ModeEnvName<A>]: string };

/** Mode per alias from the parsed settings. */
export function resolveModes(settings: { [A in Alias as ModeEnvName<A>]: UpstreamMode }): Record<Alias, UpstreamMode> {
  return Object.fromEntries(ALIASES.map((a) => [a, settings[modeEnvName(a)]])) as Record<Alias, UpstreamMode>;
}
