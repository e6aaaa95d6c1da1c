/** Polls until `check` returns a value, for state that settles asynchronously (no fixed sleeps). */
export async function waitFor<T>(check: () => Promise<T | null | undefined | false>, opts: { timeoutMs?: number; what?: string } = {}): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  let delay = 20;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(250, delay * 2);
  }
}
