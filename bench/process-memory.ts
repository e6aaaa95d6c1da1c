/**
 * Memory of a process tree (the service and the Chromium processes it started), read from /proc:
 * RSS counts shared pages once per process, PSS splits them (their sum is what the tree costs).
 */
import { readFileSync, readdirSync } from 'node:fs';

function pidsUnder(root: number): number[] {
  const parent = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parent.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

/** A kB field of one process (`status` VmRSS/VmHWM, `smaps_rollup` Pss) in MB, 0 when it is gone. */
export function field(pid: number, file: string, name: string): number {
  try {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/${file}`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export interface Sample {
  serviceRss: number;
  treeRss: number;
  treePss: number;
  processes: number;
}

export function sample(pid: number): Sample {
  const pids = pidsUnder(pid);
  return {
    serviceRss: field(pid, 'status', 'VmRSS'),
    treeRss: pids.reduce((a, p) => a + field(p, 'status', 'VmRSS'), 0),
    treePss: pids.reduce((a, p) => a + field(p, 'smaps_rollup', 'Pss'), 0),
    processes: pids.length,
  };
}

/** Samples `pid`'s tree every `ms` until stopped; `peak()` is the largest of each figure seen. */
export function peakSampler(pid: number, ms = 100): { peak(): Sample; stop(): void } {
  let peak: Sample = { serviceRss: 0, treeRss: 0, treePss: 0, processes: 0 };
  const timer = setInterval(() => {
    const s = sample(pid);
    peak = {
      serviceRss: Math.max(peak.serviceRss, s.serviceRss),
      treeRss: Math.max(peak.treeRss, s.treeRss),
      treePss: Math.max(peak.treePss, s.treePss),
      processes: Math.max(peak.processes, s.processes),
    };
  }, ms);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

/** The value at fraction `p` of `xs` (0.5: the median, 0.99: p99). */
export const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];
