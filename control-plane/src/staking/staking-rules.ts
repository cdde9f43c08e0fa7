import { ECONOMICS } from '@scn/proto';
import { stakeCredit } from '../rewards/reward-payouts';
import { addYears } from '../rewards/reward-rules';
import type { Posting } from '../wallet/ledger.service';
import type { FrozenLot } from '../wallet/wallet-balance';

/**
 * Staking's rules as pure functions (docs/product/constants.md#billing-and-the-economy; docs/economics.md "Staking").
 *
 * The lock: every credit to a stake (a stake from the node wallet, an automatic stake of a
 * payout) carries `frozen_until` = its time + ECONOMICS.stakeLockDays on its ledger entry. An
 * unstake takes only money whose lock has passed, so stakes leave oldest first (FIFO): what is
 * locked now is the sum of the credits still frozen, and the rest of the stake is unlocked.
 */

/**
 * The postings of a stake of `amountMicro` from the operator's node wallet, locked from `at`
 * (ledger type `stake`). Its credit is reward-payouts' stakeCredit, the one the automatic stake
 * of a payout writes too, so both lock alike (reward-rules stakeUnlocksAt).
 */
export function stakePostings(ownerUuid: string, amountMicro: bigint, at: Date): Posting[] {
  if (amountMicro <= 0n) throw new RangeError('a stake moves a positive amount');
  return [
    { account: { wallet: 'node_wallet', ownerUuid }, amountMicro: -amountMicro },
    stakeCredit(ownerUuid, amountMicro, at),
  ];
}

/** The postings of an unstake (ledger type `unstake`): unlocked stake back to the node wallet. */
export function unstakePostings(ownerUuid: string, amountMicro: bigint): Posting[] {
  if (amountMicro <= 0n) throw new RangeError('an unstake moves a positive amount');
  return [
    { account: { wallet: 'stake', ownerUuid }, amountMicro: -amountMicro },
    { account: { wallet: 'node_wallet', ownerUuid }, amountMicro },
  ];
}

/** A stake credit still locked: its amount and when it unlocks. */
export interface StakeLock {
  amountMicro: bigint;
  unlocksAt: Date;
}

/** A stake's frozen lot (the wallet's FrozenLot) as a lock that ends at `unlocksAt`. */
export function stakeLock(lot: FrozenLot): StakeLock {
  return { amountMicro: lot.amountMicro, unlocksAt: lot.frozenUntil };
}

export interface StakeLockView {
  unlockedMicro: bigint;
  lockedMicro: bigint;
  /** Oldest first. */
  locks: StakeLock[];
}

/**
 * What of a stake balance can be unstaked now, from the credits still locked (oldest first).
 * Unstakes never touch a locked credit, so normally the locks sum to at most the balance; if
 * something else took from the stake (FIFO: from its oldest money), the oldest locks shrink first.
 */
export function stakeLockView(balanceMicro: bigint, locks: readonly StakeLock[]): StakeLockView {
  const ordered = [...locks]
    .filter((lock) => lock.amountMicro > 0n)
    .sort((a, b) => a.unlocksAt.getTime() - b.unlocksAt.getTime());
  const balance = balanceMicro > 0n ? balanceMicro : 0n;
  let excess = ordered.reduce((sum, lock) => sum + lock.amountMicro, 0n) - balance;
  const kept: StakeLock[] = [];
  for (const lock of ordered) {
    if (excess >= lock.amountMicro) {
      excess -= lock.amountMicro;
      continue;
    }
    kept.push(excess > 0n ? { ...lock, amountMicro: lock.amountMicro - excess } : lock);
    excess = 0n;
  }
  const locked = kept.reduce((sum, lock) => sum + lock.amountMicro, 0n);
  return { unlockedMicro: balance - locked, lockedMicro: locked, locks: kept };
}

/**
 * docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy: from when halving protection applies to a node unless the requirement is met:
 * the start of its year 5, or 4 years of its hardware without an upgrade, whichever is first
 * (the same instants halvingCutApplies of reward-rules compares with).
 */
export function halvingFrom(enrolledAt: Date, hardwareSince: Date | null): Date {
  const byAge = addYears(enrolledAt, ECONOMICS.hardwareAgeYears);
  if (!hardwareSince) return byAge;
  const byHardware = addYears(hardwareSince, ECONOMICS.hardwareAgeYears);
  return byHardware < byAge ? byHardware : byAge;
}
