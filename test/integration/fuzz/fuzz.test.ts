import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { describeProblems, runFuzz } from './run-fuzz.js';

/**
 * Generated requests over every operation of /openapi.json (valid-ish and hostile inputs, raw
 * malformed bodies, paths and queries, MCP calls) against the real service, with every upstream
 * answering from a chaos replay server. No answer may be a 5xx other than 502/503/504, leak an
 * internal error text or echo a huge input, and every call that reached an operation is in the
 * request history. The public edges (edge-requests.ts, edge-rules.ts): open client registration
 * stays bounded and echoes nothing unknown, the issuer never follows a forged Host, the MCP
 * handshake's invalid params are -32602 with short messages, every reply is nosniff, archived pages
 * are inert, ledger ids are random, and a request sent with `Connection: close` gets its socket
 * closed. FUZZ_RUNS and FUZZ_SEED override the size and seed (the seed is printed).
 */
const runs = Number(process.env.FUZZ_RUNS ?? 2000);
const seed = Number(process.env.FUZZ_SEED ?? 20_240_613);

describe('fuzz', () => {
  it(`${runs} generated requests answer 4xx or a success, never a server fault`, { timeout: Math.max(600_000, runs * 200) }, async () => {
    const outcome = await runFuzz({ runs, seed, concurrency: Number(process.env.FUZZ_CONCURRENCY ?? 6) });
    console.log(outcome.summary);
    // FUZZ_DUMP=<file>: one JSON line per reply, for looking into a run
    if (process.env.FUZZ_DUMP) {
      const lines = outcome.replies.map((r) =>
        JSON.stringify({
          op: r.req.op,
          kind: r.req.kind,
          status: r.status,
          mcp: r.mcpStatus,
          ms: Math.round(r.ms),
          upstream: r.upstream,
          closed: r.closed,
          id: r.requestId,
          body: r.req.body?.slice(0, 300),
          query: r.req.query.slice(0, 300),
          path: r.req.path.slice(0, 200),
          text: r.text.slice(0, 400),
        }),
      );
      fs.writeFileSync(process.env.FUZZ_DUMP, lines.join('\n'));
    }
    const lines = describeProblems(outcome.problems);
    if (lines.length) console.log(lines.join('\n'));
    expect(lines).toEqual([]);
  });
});
