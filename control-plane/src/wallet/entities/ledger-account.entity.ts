import { Check, Column, CreateDateColumn, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Kinds of ledger account. Wallets belong to an account (client or operator) and can never go
 * below zero; the system accounts are the other side of every movement:
 * - `external`: money entering or leaving the network (deposits, withdrawals); it goes negative
 *   by exactly what users hold from outside.
 * - `platform_revenue`: premium-server subscriptions and protocol fees.
 * - `burn`: burned promotion fees.
 */
export type LedgerAccountKind =
  'client_wallet' | 'node_wallet' | 'external' | 'platform_revenue' | 'burn';

export const WALLET_KINDS: readonly LedgerAccountKind[] = ['client_wallet', 'node_wallet'];

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
  `"kind" IN ('client_wallet', 'node_wallet', 'external', 'platform_revenue', 'burn')`,
)
@Check(
  'ck_ledger_accounts_wallet_not_negative',
  `"kind" NOT IN ('client_wallet', 'node_wallet') OR "balance_micro" >= 0`,
)
@Check(
  'ck_ledger_accounts_wallet_owner',
  `("kind" IN ('client_wallet', 'node_wallet')) = ("owner_uuid" <> '00000000-0000-0000-0000-000000000000')`,
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
