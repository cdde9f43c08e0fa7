import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Kinds of ledger account. Wallets belong to an account (client or operator) and can never go
 * below zero; the system accounts are the other side of every movement:
 * - `external`: money entering or leaving the network (deposits, withdrawals); it goes negative
 *   by exactly what users hold from outside.
 * - `platform_revenue`: premium-server subscriptions and protocol fees.
 * - `burn`: burned promotion fees.
 * - `supply`: the SSL minted at genesis; negative by what was minted.
 * - `reward_pool`: the operators' reward pool, 15% of the supply from genesis; base rewards and
 *   staking income come out of it, 90% of promotion fees go in.
 * Owned like wallets, never negative, not spendable as a wallet:
 * - `stake`: an operator's stake, owned by the operator's account.
 * - `reward_escrow`: a server's base rewards earned below 95%, owned by the server
 *   (its id): released to the operator when it recovers, back to the pool when it is banned.
 */
export type LedgerAccountKind =
  | 'client_wallet'
  | 'node_wallet'
  | 'stake'
  | 'reward_escrow'
  | 'external'
  | 'platform_revenue'
  | 'burn'
  | 'supply'
  | 'reward_pool';

export const WALLET_KINDS: readonly LedgerAccountKind[] = ['client_wallet', 'node_wallet'];
/** Accounts with an owner and a kept balance that cannot go below zero. */
export const OWNED_KINDS: readonly LedgerAccountKind[] = [
  'client_wallet',
  'node_wallet',
  'stake',
  'reward_escrow',
];

/**
 * One account of the double-entry ledger. `balanceMicro` is maintained by a trigger on
 * `ledger_entries` in the same transaction as the entry, so it always equals the sum of the
 * account's entries; wallets carry a CHECK that makes an overspend fail even if a caller forgot
 * to lock.
 */
@Entity({ name: 'ledger_accounts' })
@Index('uq_ledger_accounts_kind_owner', ['kind', 'ownerUuid'], { unique: true })
@Check(
  'ck_ledger_accounts_kind',
  `"kind" IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow', 'external', 'platform_revenue', 'burn', 'supply', 'reward_pool')`,
)
@Check(
  'ck_ledger_accounts_wallet_not_negative',
  `"kind" NOT IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow') OR "balance_micro" >= 0`,
)
@Check(
  'ck_ledger_accounts_wallet_owner',
  `("kind" IN ('client_wallet', 'node_wallet', 'stake', 'reward_escrow')) = ("owner_uuid" <> '00000000-0000-0000-0000-000000000000')`,
)
export class LedgerAccountEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ type: 'varchar', length: 20 })
  kind: LedgerAccountKind;

  /** The owning account for wallets; the nil UUID for system accounts (one per kind). */
  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  /** Sum of this account's entries, in micro-SSL (bigint, returned by pg as a string). */
  @Column({ name: 'balance_micro', type: 'bigint', default: 0 })
  balanceMicro: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
