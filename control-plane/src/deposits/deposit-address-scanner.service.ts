import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, type Clock } from '../common/clock';
import { ADDRESS_CHAIN, type AddressChain, STATUSES_PER_CALL } from './address-chain';
import { AddressDepositsService } from './address-deposits.service';
import { DepositTransfersRepository } from './deposit-transfers.repository';

/** The first look goes this far back (about a minute of mainnet slots). */
export const LOOKBACK_SLOTS = 150;
/** At most this many blocks per tick: a control plane that was down catches up in steps. */
export const BLOCKS_PER_TICK = 100;
/** Seen at `confirmed` and still unknown to the chain this long after: dropped. */
export const DROP_AFTER_MS = 10 * 60_000;
/** Transfers waiting for the commitment asked about per tick. */
const CONFIRMING_PER_TICK = 4 * STATUSES_PER_CALL;

export interface ScanResult {
  /** RPC calls this tick made. */
  calls: number;
  blocks: number;
  recorded: number;
}

/**
 * docs/deposits.md#watching: one look at the chain for every deposit address at once. It reads
 * blocks, not addresses: getBlocks from the shared cursor, then each new block's transactions
 * with their balances (getBlock, transactionDetails 'accounts'), so that a tick costs one call
 * plus one per new block whatever the number of accounts; then one getSignatureStatuses per 256
 * transfers still short of the commitment. No address yet: no call at all.
 */
@Injectable()
export class DepositAddressScanner {
  constructor(
    private readonly repository: DepositTransfersRepository,
    private readonly deposits: AddressDepositsService,
    @Inject(ADDRESS_CHAIN) private readonly chain: AddressChain,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** Per-account addresses are on (SOLANA_DEPOSIT_SEED). */
  get enabled(): boolean {
    return this.deposits.settings !== null;
  }

  async tick(): Promise<ScanResult> {
    const result: ScanResult = { calls: 0, blocks: 0, recorded: 0 };
    if (!this.enabled || !(await this.repository.anyAddress())) return result;
    let cursor = await this.repository.cursor();
    if (cursor === null) {
      result.calls += 1;
      cursor = Math.max(0, (await this.chain.confirmedSlot()) - LOOKBACK_SLOTS);
    }
    result.calls += 1;
    const slots = await this.chain.blocksFrom(cursor + 1, BLOCKS_PER_TICK);
    for (const slot of slots) {
      result.calls += 1;
      const txs = await this.chain.blockTransactions(slot);
      // A confirmed block's transactions are confirmed; finality is asked below.
      result.recorded += await this.deposits.record(txs, () => ({
        confirmation: 'confirmed',
        failed: false,
      }));
      // Only after its transfers are stored: a crash here reads the block again (harmless).
      await this.repository.setCursor(slot, this.clock.now());
      result.blocks += 1;
    }
    result.calls += await this.settleConfirming();
    return result;
  }

  /** Asks the chain about transfers short of the commitment; answers the calls made. */
  private async settleConfirming(): Promise<number> {
    const waiting = await this.repository.confirming(CONFIRMING_PER_TICK);
    let calls = 0;
    for (let at = 0; at < waiting.length; at += STATUSES_PER_CALL) {
      const batch = waiting.slice(at, at + STATUSES_PER_CALL);
      calls += 1;
      const states = await this.chain.statuses(batch.map((row) => row.signature));
      const stale = this.clock.now().getTime() - DROP_AFTER_MS;
      for (const [i, row] of batch.entries()) {
        const state = states[i] ?? null;
        if (state?.failed || (!state && row.seenAt.getTime() < stale)) {
          await this.deposits.drop(row);
        } else if (state && this.deposits.isFinal(state)) {
          await this.deposits.settle(row);
        }
      }
    }
    return calls;
  }
}
