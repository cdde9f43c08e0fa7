import type { SharePlatform } from '@scn/proto';
import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

export type ShareStatus = 'pending' | 'paid' | 'forfeited';
export type ShareWalletKind = 'client_wallet' | 'node_wallet';
/** What the payout job found at the post's URL (null until it ran; `skipped` when off). */
export type ShareVerification = 'skipped' | 'up' | 'gone' | 'unknown';

/**
 * One share of a promotional post (docs/product/records.md#market-and-wallet-records Share record): who shared, where, the
 * normalized post URL (unique across all accounts: one post is one claim), the zone the reward
 * was computed in and the reward the server decided. Pending 24 hours, then paid from the reward
 * pool (`social_reward:<id>`) or forfeited. Times are the server's clock.
 */
@Entity({ name: 'social_shares' })
@Index('uq_social_shares_post_url', ['postUrl'], { unique: true })
@Index('ix_social_shares_account', ['accountUuid', 'sharedAt'])
@Index('ix_social_shares_due', ['paysAt'], { where: `"status" = 'pending'` })
@Check('ck_social_shares_platform', `"platform" IN ('twitter', 'instagram', 'telegram')`)
@Check('ck_social_shares_status', `"status" IN ('pending', 'paid', 'forfeited')`)
@Check('ck_social_shares_wallet', `"wallet_kind" IN ('client_wallet', 'node_wallet')`)
@Check('ck_social_shares_reward', `"reward_micro" > 0`)
@Check(
  'ck_social_shares_verification',
  `"verification" IS NULL OR "verification" IN ('skipped', 'up', 'gone', 'unknown')`,
)
@Check(
  'ck_social_shares_settled',
  `("status" = 'pending') = ("settled_at" IS NULL) AND ("status" = 'paid') = ("ledger_transaction_id" IS NOT NULL)`,
)
export class SocialShareEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'account_uuid', type: 'uuid' })
  accountUuid: string;

  @Column({ type: 'varchar', length: 16 })
  platform: SharePlatform;

  /** The normalized URL (share-url.ts). */
  @Column({ name: 'post_url', type: 'varchar', length: 200 })
  postUrl: string;

  /** The URL as the user typed it. */
  @Column({ name: 'submitted_url', type: 'varchar', length: 2048 })
  submittedUrl: string;

  /** The canonical IANA zone the reward was computed in, and the local time it read. */
  @Column({ name: 'time_zone', type: 'varchar', length: 64 })
  timeZone: string;

  @Column({ name: 'local_time', type: 'varchar', length: 32 })
  localTime: string;

  @Column({ name: 'is_prime_time', type: 'boolean' })
  isPrimeTime: boolean;

  @Column({ name: 'reward_micro', type: 'bigint' })
  rewardMicro: string;

  /** The wallet the reward goes to: the account's type when it shared. */
  @Column({ name: 'wallet_kind', type: 'varchar', length: 20 })
  walletKind: ShareWalletKind;

  @Column({ type: 'varchar', length: 10, default: 'pending' })
  status: ShareStatus;

  @Column({ name: 'shared_at', type: 'timestamptz' })
  sharedAt: Date;

  @Column({ name: 'pays_at', type: 'timestamptz' })
  paysAt: Date;

  @Column({ name: 'settled_at', type: 'timestamptz', nullable: true })
  settledAt: Date | null;

  @Column({ type: 'varchar', length: 10, nullable: true })
  verification: ShareVerification | null;

  @Column({ name: 'ledger_transaction_id', type: 'uuid', nullable: true })
  ledgerTransactionId: string | null;
}
