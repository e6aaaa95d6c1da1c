import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * Runs a doc's shell block as written (bash -euo pipefail) against a started service: the doc's
 * placeholders `sk_...` and `127.0.0.1:8080` become the service's first key and port, each
 * numbered step (`# 3. …`) is preceded by a `--- step 3` marker, and `vars` (shell variables the
 * doc sets) are printed last under `--- vars`. Answers each step's output by its marker.
 */
export async function runDocSteps(
  block: string,
  o: { key: string; url: string; vars: string[]; cwd: string; timeoutMs: number },
): Promise<{ steps: Record<string, string>; vars: string[]; stdout: string }> {
  const port = new URL(o.url).port;
  const script = block
    .replace(/^# (\d)\. /gm, 'echo; echo "--- step $1"\n# ')
    .replaceAll('sk_...', o.key)
    .replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`);
  const vars = o.vars.map((v) => `$${v}`).join(' ');
  const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', `${script}\necho; echo "--- vars"; echo "${vars}"`], { cwd: o.cwd, timeout: o.timeoutMs });
  const steps = Object.fromEntries(
    stdout
      .split(/^--- /m)
      .slice(1)
      .map((s) => [s.slice(0, s.indexOf('\n')), s.slice(s.indexOf('\n') + 1).trim()]),
  );
  return { steps, vars: (steps.vars ?? '').split(' '), stdout };
}

/** The JSON documents curl printed one after another (without newlines between them). */
export function jsonValues(text: string): any[] {
  const out: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if ((c === '}' || c === ']') && --depth === 0) out.push(JSON.parse(text.slice(start, i + 1)));
  }
  return out;
}
