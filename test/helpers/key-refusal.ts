/**
 * A key asked without pause from now on, to check a revocation's bound: when it was first refused,
 * and how many requests sent at or after `boundMs` were still accepted. What the bound limits is
 * when a request is sent, not when its answer arrives (a loaded machine may take its time
 * answering), so that is what is measured. Stops once a request sent after the bound is refused.
 */
export async function refusal(ask: () => Promise<number>, boundMs: number): Promise<{ firstRefusedMs: number; acceptedAfterBound: number }> {
  const started = performance.now();
  let firstRefusedMs = Infinity;
  let acceptedAfterBound = 0;
  for (;;) {
    const sentMs = performance.now() - started;
    const status = await ask();
    if (status === 401) firstRefusedMs = Math.min(firstRefusedMs, sentMs);
    else if (sentMs >= boundMs) acceptedAfterBound += 1;
    if ((sentMs >= boundMs && status === 401) || sentMs > boundMs + 10_000) return { firstRefusedMs, acceptedAfterBound };
  }
}
