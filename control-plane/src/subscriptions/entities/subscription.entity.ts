import type { BillingCycle, PauseReason } from '@scn/proto';
import {
  Check,
  Column,
  CreateDateColumn,
  Entity,
  Index,
  JoinColumn,
  ManyToOne,
  PrimaryColumn,
  UpdateDateColumn,
} from 'typeorm';
import { AccountEntity } from '../../accounts/entities/account.entity';

/** `deleted` rows are kept (the ledger names them); they are never listed or served. */
export type SubscriptionState = 'active' | 'paused' | 'expired' | 'deleted';

/**
 * A client's subscription to one or more servers (docs/product/records.md#dashboard-records). Its own VLESS uuid is allowed on
 * every one of its servers (server_clients) exactly while it is active.
 *
 * Time: `expiresAt` is the end of the paid time. A user pause stops the clock: on resuming,
 * `expiresAt` moves by the paused time. `periodIndex` counts paid periods, so a renewal can be
 * made to happen once per period (the ledger's external_ref).
 */
@Entity({ name: 'subscriptions' })
@Index('ix_subscriptions_owner', ['ownerUuid', 'createdAt'])
@Index('ix_subscriptions_due', ['expiresAt'], { where: `"status" = 'active'` })
@Index('ix_subscriptions_pause_due', ['pauseEndsAt'], {
  where: `"status" = 'paused' AND "pause_ends_at" IS NOT NULL`,
})
@Check('ck_subscriptions_status', `"status" IN ('active', 'paused', 'expired', 'deleted')`)
@Check('ck_subscriptions_billing_cycle', `"billing_cycle" IN ('monthly', 'hourly')`)
@Check(
  'ck_subscriptions_pause',
  `("status" = 'paused') = ("paused_at" IS NOT NULL AND "pause_reason" IS NOT NULL)`,
)
export class SubscriptionEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_subscriptions_owner' })
  owner?: AccountEntity;

  /** The VLESS client id of this subscription (the same on all its servers). */
  @Index('uq_subscriptions_vless_uuid', { unique: true })
  @Column({ name: 'vless_uuid', type: 'uuid' })
  vlessUuid: string;

  @Column({ type: 'varchar', length: 10 })
  status: SubscriptionState;

  @Column({ name: 'billing_cycle', type: 'varchar', length: 8 })
  billingCycle: BillingCycle;

  @Column({ name: 'auto_renew', type: 'boolean', default: true })
  autoRenew: boolean;

  /** Paid periods so far (1 after the purchase). */
  @Column({ name: 'period_index', type: 'int', default: 1 })
  periodIndex: number;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt: Date;

  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true })
  pausedAt: Date | null;

  /** When a user pause ends by itself (docs/product/constants.md#billing-and-the-economy: 8 hours hourly, 7 days monthly). */
  @Column({ name: 'pause_ends_at', type: 'timestamptz', nullable: true })
  pauseEndsAt: Date | null;

  @Column({ name: 'pause_reason', type: 'varchar', length: 24, nullable: true })
  pauseReason: PauseReason | null;

  /** HMAC of the subscription URL's secret (keyed by APP_SECRET): how /sub/<secret> finds it. */
  @Index('uq_subscriptions_url_token_hash', { unique: true })
  @Column({ name: 'url_token_hash', type: 'char', length: 64, nullable: true })
  urlTokenHash: string | null;

  /** The secret sealed with a key derived from APP_SECRET, to show the URL to its owner again. */
  @Column({ name: 'url_token_sealed', type: 'varchar', length: 200, nullable: true })
  urlTokenSealed: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt: Date | null;

  /**
   * Where the client last used the subscription from (its feed's requester, GeoIP): the network
   * a blocked server is replaced for (docs/reachability.md#replacements). Null until the feed is
   * first fetched.
   */
  @Column({ name: 'client_country', type: 'char', length: 2, nullable: true })
  clientCountry: string | null;

  @Column({ name: 'client_asn', type: 'int', nullable: true })
  clientAsn: number | null;

  @Column({ name: 'client_seen_at', type: 'timestamptz', nullable: true })
  clientSeenAt: Date | null;
}
