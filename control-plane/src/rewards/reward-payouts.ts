import { PRICING } from '@scn/proto';
import type { Posting, PostRequest } from '../wallet/ledger.service';
import { stakeUnlocksAt } from './reward-rules';

/**
 * The ledger movements of the monthly rewards, as pure functions: what each
 * paid statement, staking income, escrow release and forfeit writes. Every one comes out of an
 * account and goes into others in the same transaction; zero postings are left out (the ledger
 * refuses them) and a movement of nothing is no movement.
 */

const DAY_MS = 86_400_000;

/** docs/product/constants.md#market-prices-and-limits: operator rewards are frozen 60 days from when they are paid. */
export function rewardFrozenUntil(now: Date): Date {
  return new Date(now.getTime() + PRICING.operatorRewardFrozenDays * DAY_MS);
}

/** The external ref of the transaction that minted the pool (migration 2400): month 0 of the cycle. */
export const GENESIS_REF = 'genesis:reward_pool';

/** The external ref that makes a statement's payout happen once. */
export function rewardRef(serverId: string, period: string): string {
  return `reward:${serverId}:${period}`;
}

export function stakingIncomeRef(ownerUuid: string, period: string): string {
  return `stake-income:${ownerUuid}:${period}`;
}

/**
 * A credit to the operator's stake made at `at`, locked until stakeUnlocksAt(at): the one shape
 * of every stake credit, the automatic stake of a payout here and a stake from the node wallet
 * (staking-rules stakePostings), so both lock alike.
 */
export function stakeCredit(ownerUuid: string, amountMicro: bigint, at: Date): Posting {
  return {
    account: { wallet: 'stake', ownerUuid },
    amountMicro,
    frozenUntil: stakeUnlocksAt(at),
  };
}

function credits(postings: Posting[]): Posting[] {
  return postings.filter((posting) => posting.amountMicro !== 0n);
}

/**
 * One statement's payout: from the pool to the node wallet (frozen 60 days), the operator's
 * stake (auto-stake, locked like any stake: stakeCredit) and the server's escrow (the part earned below 95%). Null when it pays
 * nothing.
 */
export function statementPayout(
  statement: {
    serverId: string;
    ownerUuid: string;
    walletMicro: bigint;
    autoStakedMicro: bigint;
    escrowedMicro: bigint;
  },
  period: string,
  now: Date,
): PostRequest | null {
  const { serverId, ownerUuid } = statement;
  const total = statement.walletMicro + statement.autoStakedMicro + statement.escrowedMicro;
  if (total === 0n) return null;
  return {
    type: 'monthly_reward',
    externalRef: rewardRef(serverId, period),
    description: `Monthly reward ${period}`,
    describedAs: { code: 'monthly_reward', values: { period } },
    serverCount: 1,
    postings: [
      { account: { system: 'reward_pool' }, amountMicro: -total },
      ...credits([
        {
          account: { wallet: 'node_wallet', ownerUuid },
          amountMicro: statement.walletMicro,
          frozenUntil: rewardFrozenUntil(now),
        },
        stakeCredit(ownerUuid, statement.autoStakedMicro, now),
        {
          account: { wallet: 'reward_escrow', ownerUuid: serverId },
          amountMicro: statement.escrowedMicro,
        },
      ]),
    ],
  };
}

/** An operator's staking income of the period: from the pool to the node wallet, frozen 60 days. */
export function stakingPayout(
  staking: { ownerUuid: string; paidMicro: bigint },
  period: string,
  now: Date,
): PostRequest | null {
  if (staking.paidMicro === 0n) return null;
  return {
    type: 'staking_reward',
    externalRef: stakingIncomeRef(staking.ownerUuid, period),
    description: `Staking income ${period}`,
    describedAs: { code: 'staking_income', values: { period } },
    postings: [
      { account: { system: 'reward_pool' }, amountMicro: -staking.paidMicro },
      {
        account: { wallet: 'node_wallet', ownerUuid: staking.ownerUuid },
        amountMicro: staking.paidMicro,
        frozenUntil: rewardFrozenUntil(now),
      },
    ],
  };
}

/** A recovered server's escrow goes to its operator (frozen 60 days from now). */
export function escrowRelease(
  escrow: { serverId: string; operatorUuid: string; balanceMicro: bigint },
  now: Date,
): PostRequest {
  return {
    type: 'reward_release',
    description: 'Frozen rewards released: the server is back at 95% or more',
    describedAs: { code: 'rewards_released', values: {} },
    serverCount: 1,
    postings: [
      {
        account: { wallet: 'reward_escrow', ownerUuid: escrow.serverId },
        amountMicro: -escrow.balanceMicro,
      },
      {
        account: { wallet: 'node_wallet', ownerUuid: escrow.operatorUuid },
        amountMicro: escrow.balanceMicro,
        frozenUntil: rewardFrozenUntil(now),
      },
    ],
  };
}

/** A banned (or deleted) server's escrow returns to the pool. */
export function escrowForfeit(
  escrow: { serverId: string; balanceMicro: bigint },
  reason: 'banned' | 'deleted',
): PostRequest {
  return {
    type: 'reward_forfeit',
    description:
      reason === 'banned'
        ? 'Frozen rewards returned to the pool: the server was banned'
        : 'Frozen rewards returned to the pool: the server was deleted',
    describedAs: { code: 'rewards_forfeited', values: { reason } },
    serverCount: 1,
    postings: [
      {
        account: { wallet: 'reward_escrow', ownerUuid: escrow.serverId },
        amountMicro: -escrow.balanceMicro,
      },
      { account: { system: 'reward_pool' }, amountMicro: escrow.balanceMicro },
    ],
  };
}
