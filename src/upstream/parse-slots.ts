/** A reply this large is read into text and parsed only in one of the slots below. */
export const LARGE_REPLY_BYTES = 1024 * 1024;
/** Large replies parsed at once per process: parsing runs on the one JavaScript thread anyway. */
const SLOTS = 2;

let free = SLOTS;
const waiting: (() => void)[] = [];

/**
 * Runs `fn` (the parse of a large reply) when a slot is free. Fifty concurrent calls on 3 MB pages
 * would otherwise hold fifty page texts and parse trees at once for no gain in throughput; in
 * turns, only the slots' texts live at a time.
 */
export async function inLargeReplySlot<T>(fn: () => T | Promise<T>): Promise<T> {
  if (free > 0) free--;
  else await new Promise<void>((resolve) => waiting.push(resolve));
  try {
    return await fn();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else free++;
  }
}
