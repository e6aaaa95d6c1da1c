import type { Db, Sql, Statement } from '../db/client.js';
import { creditsLeft, settle, settlementStatement, type Credits, type PeriodLeft, type Settlement } from './credits.js';
import { GroupCommit } from './group-commit.js';
import type { CallHistory } from './history.js';

/** A finished call (or batch item) before its period is known. */
export interface CallOutcome {
  /** The request id (a batch item's id). */
  id: string;
  accountId: string;
  /** The history row; null for a batch item. */
  history: CallHistory | null;
  /** The charge (settles its reservation too); null for a call that is not metered. */
  charge: { plan: string; amount: number; note: string; requireFunds?: boolean } | null;
}

/**
 * The entry to the money path (credits.ts `settle`): writes each outcome (history row and, when
 * metered, charge, ledger row and the release of its reservation) before its answer leaves.
 * Outside a transaction concurrent calls share one statement (group commit); inside the caller's
 * transaction an outcome is a batch of one that commits with the rest. Each resolves with the
 * credits left in its period (null when not metered, or when `requireFunds` refused the charge).
 */
export class CallWriter {
  private readonly group: GroupCommit<Settlement, number | null>;

  constructor(
    private readonly sql: Sql,
    private readonly credits: Credits,
  ) {
    this.group = new GroupCommit((items) => settle(this.sql, items));
  }

  async write(outcome: CallOutcome, tx?: Db): Promise<number | null> {
    return tx ? writeCallIn(this.credits, outcome, tx) : this.group.submit(await settlementOf(this.credits, outcome));
  }

  /**
   * The outcome as a statement to send with others in one transaction (sendTransaction): its
   * period resolved first, so that the statement is only built, and the credits left read from
   * its answer.
   */
  statementFor(outcome: CallOutcome): Promise<CallStatement> {
    return callStatement(this.credits, outcome);
  }
}

/** An outcome's settlement, built and not sent, and how to read the credits left from its answer. */
interface CallStatement {
  build: (tx: Db) => Statement;
  creditsLeft: (rows: PeriodLeft[]) => number | null;
}

/**
 * The outcome as a statement to send with others (CallWriter.statementFor, or in the caller's own
 * transaction): its period resolved first, so that nothing waits between the statements.
 */
export async function callStatement(credits: Credits, outcome: CallOutcome): Promise<CallStatement> {
  const items = [await settlementOf(credits, outcome)];
  return { build: (tx) => settlementStatement(tx, items), creditsLeft: (rows) => creditsLeft(items, rows)[0] ?? null };
}

/** The outcome as a batch of one in the caller's transaction, committed with the rest of its work (CallWriter.write with a transaction). */
async function writeCallIn(credits: Credits, outcome: CallOutcome, tx: Db): Promise<number | null> {
  return (await settle(tx, [await settlementOf(credits, outcome)]))[0];
}

async function settlementOf(credits: Credits, { id, accountId, history, charge }: CallOutcome): Promise<Settlement> {
  if (!charge) return { id, accountId, history, charge: null };
  const period = await credits.ensurePeriod(accountId, charge.plan);
  return { id, accountId, history, charge: { periodStart: period.start, amount: charge.amount, note: charge.note, requireFunds: charge.requireFunds } };
}
