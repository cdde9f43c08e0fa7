import { Inject, Injectable, Logger } from '@nestjs/common';
import { PublicKey } from '@solana/web3.js';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { payoutDecision } from '../withdrawals/withdrawal-rules';
import { depositKeypair } from './deposit-address-derivation';
import { SWEEP_CHAIN, type SweepChain } from './deposit-sweep-chain';
import { isEmptyPlan, signSweep, sweepPlan } from './deposit-sweep-transaction';
import {
  type DueAddress,
  DepositSweepsRepository,
  type InFlightSweep,
} from './deposit-sweeps.repository';
import { JOBS } from '../jobs/job-registry';

/** Addresses one run sweeps or settles at most (the rest wait for the next run). */
const BATCH = 50;

/**
 * Sweeps per-account deposit addresses to the treasury (docs/deposits.md#sweeps), as payouts
 * are made (withdrawal-payout.service.ts): signed, stored as `sent` BEFORE being sent, resent
 * with the same bytes until it lands or its blockhash expires. Each run, on one replica:
 *
 * 1. sent sweeps: by their status, done (sweep_due_at cleared if set before the sweep read the
 *    balances), failed (the chain's error) or expired (finalized chain past its last valid block
 *    height: the address is due again and a new sweep reads the balances afresh); else resent.
 * 2. due addresses without a sweep in flight: the balances read, then one sweep of the SOL and
 *    accepted tokens; nothing to sweep clears sweep_due_at.
 *
 * Moves on-chain funds only: the ledger never reads sweeps.
 */
@Injectable()
export class DepositSweepService {
  private readonly logger = new Logger('DepositSweeps');

  constructor(
    private readonly repository: DepositSweepsRepository,
    private readonly transactions: TransactionRunner,
    @Inject(SWEEP_CHAIN) private readonly chain: SweepChain,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** One run unless another replica's is going (then null); the sweeps made or settled. */
  runOnce(): Promise<number | null> {
    return this.transactions.whileHolding(JOBS.depositSweeps.lockId, () => this.sweep());
  }

  private async sweep(): Promise<number> {
    if (!this.config.sweeps || !this.config.solana?.depositAddresses) return 0;
    let count = await this.settleSent();
    for (const due of await this.repository.due(BATCH)) {
      if (await this.guarded(due.address, () => this.sweepOne(due))) count += 1;
    }
    return count;
  }

  private async settleSent(): Promise<number> {
    const sent = await this.repository.inFlight(BATCH);
    if (sent.length === 0) return 0;
    const height = await this.chain.finalizedBlockHeight();
    const statuses = await this.chain.statuses(sent.map((row) => row.signature));
    let settled = 0;
    for (const [i, row] of sent.entries()) {
      const status = statuses[i] ?? null;
      const outcome = await this.guarded(row.address, () => this.settle(row, status, height));
      if (outcome) settled += 1;
    }
    return settled;
  }

  private async settle(
    row: InFlightSweep,
    status: Parameters<typeof payoutDecision>[0],
    height: number,
  ): Promise<boolean> {
    const commitment = this.config.solana!.commitment;
    const decision = payoutDecision(status, height, row.lastValidBlockHeight, commitment);
    const now = this.clock.now();
    switch (decision.action) {
      case 'confirm':
        return this.repository.settle(row.id, 'done', null, now);
      case 'fail': {
        const outcome = status ? 'failed' : 'expired';
        const error = status ? (status.error ?? 'error') : null;
        const settled = await this.repository.settle(row.id, outcome, error, now);
        if (settled)
          this.logger.warn({ sweep: row.id, address: row.address, error }, `a sweep ${outcome}`);
        return settled;
      }
      case 'resend':
        await this.chain.send(Buffer.from(row.signedTransaction, 'base64'));
        return false;
      case 'wait':
        return false;
    }
  }

  /** Reads the address's balances and sweeps them; true when a sweep was stored. */
  private async sweepOne(due: DueAddress): Promise<boolean> {
    const settings = this.config.solana!.depositAddresses!;
    const readAt = this.clock.now();
    const [lamports, accounts] = await Promise.all([
      this.chain.lamports(due.address),
      this.chain.tokenAccounts(due.address),
    ]);
    const accepted = new Set([settings.usdcMint, settings.usdtMint].filter((m) => m !== null));
    const plan = sweepPlan(
      lamports,
      accounts.map((a) => ({
        account: a.address,
        mint: a.mint,
        amount: a.amount,
        decimals: a.decimals,
      })),
      accepted,
    );
    if (isEmptyPlan(plan)) {
      await this.repository.clearDue(due.address, readAt);
      return false;
    }
    const deposit = depositKeypair(settings.seed, due.derivationIndex);
    // The stored index must still derive the stored address (the seed unchanged).
    if (deposit.publicKey.toBase58() !== due.address) {
      this.logger.error(
        { index: due.derivationIndex },
        'a deposit address is not derived by the seed; not swept',
      );
      return false;
    }
    const blockhash = await this.chain.latestBlockhash();
    const treasury = new PublicKey(this.config.solana!.depositAddress);
    const signed = signSweep(this.config.sweeps!.feePayer, deposit, treasury, plan, blockhash);
    const id = await this.repository.insertSent(due.address, plan, signed, readAt);
    if (id === null) return false;
    const wire = Buffer.from(signed.signedTransaction, 'base64');
    // Simulation forwards nothing: a sweep the chain would refuse (the fee payer short of SOL)
    // fails now, never sent, and the address waits before the next try.
    const refused = await this.chain.simulate(wire);
    if (refused !== null) {
      await this.repository.settle(
        id,
        'failed',
        `refused by simulation: ${refused}`,
        this.clock.now(),
      );
      this.logger.warn(
        { address: due.address, error: refused },
        'a sweep was refused by the chain',
      );
      return true;
    }
    await this.chain.send(wire);
    return true;
  }

  /** One address's step; an RPC that fails leaves it for the next run, not the others. */
  private async guarded<T>(address: string, step: () => Promise<T>): Promise<T | null> {
    try {
      return await step();
    } catch (err) {
      this.logger.warn({ err, address }, 'a sweep step failed; trying again next run');
      return null;
    }
  }
}
