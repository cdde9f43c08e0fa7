import { Inject, Injectable } from '@nestjs/common';
import { ListingLocksRepository } from '../market/listing-locks.repository';
import { CLOCK, type Clock } from '../common/clock';
import { TransactionRunner } from '../database/transaction-runner';
import { LedgerService, type PostRequest } from '../wallet/ledger.service';
import { RewardComputer, stakingRow, statementRow } from './reward-computer';
import { statementPayout, stakingPayout } from './reward-payouts';
import { periodBounds, periodDate } from './reward-period';
import { budgetScale } from './reward-rules';
import { RewardStatementsRepository } from './reward-statements.repository';

/** Statements paid per database transaction. */
export const PAY_BATCH_SIZE = 2_000;
/** Statements written per INSERT when a period is computed. */
const STATEMENT_CHUNK = 5_000;

export interface RunOptions {
  batchSize?: number;
  /** Called after each committed batch with the statements paid so far (tests stop a run here). */
  afterBatch?: (paidSoFar: number) => void | Promise<void>;
}

export interface RunOutcome {
  period: string;
  /** This call computed the period's statements (false: an earlier run had). */
  computed: boolean;
  /** Statements and staking statements this call paid. */
  paid: number;
  stakingPaid: number;
  /** Every statement of the period is paid. */
  finished: boolean;
}

/**
 * The monthly reward run of one period: first every statement of the period is
 * computed from the facts and written, `computed`, in one transaction with the run's row (whose
 * primary key makes the period computed once), with the pool's budget and the scale; then the
 * statements are paid in batches, each statement's ledger movement
 * (`reward:<serverId>:<YYYY-MM>`) in the same transaction as marking it paid. A run stopped at
 * any point is finished by the next one, and nothing is paid twice: a batch either commits its
 * movements and its marks together or neither, and a statement once paid is never picked again.
 *
 * A batch credits the accounts of many operators while purchases and stakes of the same
 * operators run: it takes its row locks in their order (the listings an automatic stake can
 * update, then the accounts, in id order through ledger_post), and a batch PostgreSQL still rolls
 * back for a deadlock or a serialization failure is run again (runRetrying: it does nothing
 * outside the database).
 */
@Injectable()
export class RewardRunService {
  constructor(
    private readonly computer: RewardComputer,
    private readonly repository: RewardStatementsRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly listings: ListingLocksRepository,
  ) {}

  async runPeriod(period: string, options: RunOptions = {}): Promise<RunOutcome> {
    const day = periodDate(period);
    let computed = false;
    if (!(await this.repository.run(day))) computed = await this.compute(period);
    const run = await this.repository.run(day);
    if (run?.status === 'paid') {
      return { period, computed, paid: 0, stakingPaid: 0, finished: true };
    }
    const batchSize = options.batchSize ?? PAY_BATCH_SIZE;
    const paid = await this.payStatements(period, batchSize, options.afterBatch);
    const stakingPaid = await this.payStaking(period, batchSize);
    await this.repository.markRunPaid(day, this.clock.now());
    const finished = (await this.repository.run(day))?.status === 'paid';
    return { period, computed, paid, stakingPaid, finished };
  }

  /** Periods a stopped run left half paid. */
  async unfinishedPeriods(): Promise<string[]> {
    return (await this.repository.unfinishedPeriods()).map((day) => day.slice(0, 7));
  }

  /** Computes and writes every statement of the period; false when another run had. */
  private async compute(period: string): Promise<boolean> {
    const now = this.clock.now();
    const draft = await this.computer.draft(period, periodBounds(period).end);
    const pool = await this.computer.pool(period);
    const scale = budgetScale(draft.demandMicro, pool.budgetMicro);
    // Rows are built a chunk at a time as they are written: 100,000 at once would be held twice.
    function* statements() {
      for (let i = 0; i < draft.statements.length; i += STATEMENT_CHUNK) {
        yield draft.statements
          .slice(i, i + STATEMENT_CHUNK)
          .map((s) => statementRow(draft, s, scale, now));
      }
    }
    const staking = draft.staking.map((s) => stakingRow(draft, s, scale, now));
    return this.transactions.run((tx) =>
      this.repository.insertRun(
        tx,
        {
          period: periodDate(period),
          status: 'computed',
          monthIndex: pool.monthIndex,
          poolMicro: pool.poolMicro.toString(),
          budgetMicro: pool.budgetMicro.toString(),
          demandMicro: draft.demandMicro.toString(),
          scaleNumeratorMicro: scale.numeratorMicro.toString(),
          scaleDenominatorMicro: scale.denominatorMicro.toString(),
          statements: draft.statements.length,
          stakingStatements: staking.length,
          computedAt: now,
          paidAt: null,
        },
        statements(),
        staking,
      ),
    );
  }

  private async payStatements(
    period: string,
    batchSize: number,
    afterBatch: RunOptions['afterBatch'],
  ): Promise<number> {
    const day = periodDate(period);
    let total = 0;
    for (;;) {
      const count = await this.transactions.runRetrying(async (tx) => {
        const now = this.clock.now();
        const rows = await this.repository.lockUnpaid(tx, day, batchSize);
        // An automatic stake may turn its operator into a staker, which updates the operator's
        // market listings: they are locked first, in the order purchases and stakes take them.
        await this.listings.lockOwnersListings(tx, [
          ...new Set(rows.filter((row) => row.autoStakedMicro > 0n).map((row) => row.ownerUuid)),
        ]);
        const payouts = rows.map((row) => ({
          key: row.serverId,
          request: statementPayout(row, period, now),
        }));
        await this.repository.markPaid(tx, day, await this.post(tx, payouts), now);
        return rows.length;
      });
      if (count === 0) break;
      total += count;
      await afterBatch?.(total);
    }
    return total;
  }

  private async payStaking(period: string, batchSize: number): Promise<number> {
    const day = periodDate(period);
    let total = 0;
    for (;;) {
      const count = await this.transactions.runRetrying(async (tx) => {
        const now = this.clock.now();
        const rows = await this.repository.lockUnpaidStaking(tx, day, batchSize);
        const payouts = rows.map((row) => ({
          key: row.ownerUuid,
          request: stakingPayout(row, period, now),
        }));
        await this.repository.markStakingPaid(tx, day, await this.post(tx, payouts), now);
        return rows.length;
      });
      if (count === 0) break;
      total += count;
    }
    return total;
  }

  /** Writes the batch's movements in one statement; each key with its transaction (or null). */
  private async post(
    tx: Parameters<LedgerService['postOnLockedWallets']>[0],
    payouts: readonly { key: string; request: PostRequest | null }[],
  ): Promise<Array<{ key: string; ledgerTransactionId: string | null }>> {
    const moving = payouts.filter((p) => p.request !== null);
    // Pool payouts debit only the pool (a system account): nothing to lock.
    const ids = await this.ledger.postOnLockedWallets(
      tx,
      moving.map((p) => p.request!),
    );
    const byKey = new Map(moving.map((p, i) => [p.key, ids[i]!]));
    return payouts.map((p) => ({ key: p.key, ledgerTransactionId: byKey.get(p.key) ?? null }));
  }
}
