import { Column, Entity, Index, JoinColumn, OneToOne, PrimaryColumn } from 'typeorm';
import { ServerEntity } from '../../nodes/entities/server.entity';

/**
 * A server as the market sorts and filters it (docs/product/records.md#market-and-wallet-records, docs/product/states.md#market-and-account-states, docs/product/constants.md#market-prices-and-limits): one row per server, kept
 * by triggers in the same transaction as the write that changes it (see the market migration).
 * Copies of server columns follow every servers write; `reliability` and `stale` are the
 * clock-dependent values (a report sets them fresh, the minute sweep applies staleness decay);
 * `listed` ... `sortReliability` are derived from the row by a BEFORE trigger. Never written by
 * the application except `reliability`, `stale` (sweep) and the promotion columns.
 */
@Entity({ name: 'market_listings' })
// The list orders of docs/product/constants.md#market-prices-and-limits, one per sort choice (partial, DESC keys: created by the migration).
@Index('ix_market_listings_default', { synchronize: false })
@Index('ix_market_listings_reliability_asc', { synchronize: false })
@Index('ix_market_listings_ping_asc', { synchronize: false })
@Index('ix_market_listings_ping_desc', { synchronize: false })
@Index('ix_market_listings_uptime_desc', { synchronize: false })
@Index('ix_market_listings_uptime_asc', { synchronize: false })
@Index('ix_market_listings_country', { synchronize: false })
@Index('ix_market_listings_search', { synchronize: false })
@Index('ix_market_listings_premium', { synchronize: false })
@Index('ix_market_listings_promoted_until', { synchronize: false })
@Index('ix_market_listings_promotion_expiry', { synchronize: false })
@Index('ix_market_listings_price_free_first', { synchronize: false })
@Index('ix_market_listings_price_paid_first', { synchronize: false })
export class MarketListingEntity {
  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @OneToOne(() => ServerEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'server_id', foreignKeyConstraintName: 'fk_market_listings_server' })
  server?: ServerEntity;

  @Column({ type: 'char', length: 2, nullable: true })
  country: string | null;

  /** Name, location and host, lower case, one per line: what the search matches (trigram index). */
  @Column({ name: 'search_text', type: 'text', default: '' })
  searchText: string;

  /** The reliability now (docs/product/states.md#subscription-and-reliability-states), as of the last report or sweep. */
  @Column({ type: 'smallint', default: 0 })
  reliability: number;

  /** docs/product/states.md#subscription-and-reliability-states: no report for more than an hour (as of the last sweep). */
  @Column({ type: 'boolean', default: true })
  stale: boolean;

  /** Copy of servers.last_report_at: the sweep's decay applies only if no report came since it read. */
  @Column({ name: 'last_report_at', type: 'timestamptz', nullable: true })
  lastReportAt: Date | null;

  @Column({ name: 'ping_ms', type: 'int', nullable: true })
  pingMs: number | null;

  @Column({ name: 'uptime_hours', type: 'int', default: 0 })
  uptimeHours: number;

  /** Client UUIDs allowed on the server (server_clients rows), kept by a trigger. */
  @Column({ name: 'allowed_clients', type: 'int', default: 0 })
  allowedClients: number;

  /**
   * docs/product/constants.md#market-prices-and-limits: the tier's max clients (manually added servers count as tier1, 10), halved while
   * halving protection cuts the server (docs/product/states.md#subscription-and-reliability-states: market_allowed_clients).
   */
  @Column({ type: 'int', default: 0 })
  capacity: number;

  /** Added without the agent: always free; set when the listing is created. */
  @Column({ type: 'boolean', default: false })
  free: boolean;

  /**
   * The operator's stake holds something (docs/product/constants.md#billing-and-the-economy: stakers first among otherwise equal
   * servers), kept by triggers on the listing's creation and on the stake's balance.
   */
  @Column({ type: 'boolean', default: false })
  staker: boolean;

  /** Owned by the platform operator account (PLATFORM_OPERATOR_EMAIL): an admin server. */
  @Column({ type: 'boolean', default: false })
  premium: boolean;

  @Column({ name: 'promoted_at', type: 'timestamptz', nullable: true })
  promotedAt: Date | null;

  @Column({ name: 'promoted_until', type: 'timestamptz', nullable: true })
  promotedUntil: Date | null;

  /**
   * Micro-SSL paid for the promotion running now (docs/product/states.md#market-and-account-states: an upgrade adds to it; a promotion
   * that starts after one ended starts again from its own price). Written with promoted_until.
   */
  @Column({ name: 'promotion_micro', type: 'bigint', nullable: true })
  promotionMicro: string | null;

  /** promoted_until is in the future (as of the last write or sweep, or a market read). */
  @Column({ type: 'boolean', default: false })
  promoted: boolean;

  @Column({ type: 'boolean', default: false })
  banned: boolean;

  /** The server has said where clients dial it (host and port). */
  @Column({ name: 'has_address', type: 'boolean', default: false })
  hasAddress: boolean;

  /** The agent reports its proxy core stopped, failed or absent. */
  @Column({ name: 'core_down', type: 'boolean', default: false })
  coreDown: boolean;

  /** Derived: shown on the market (docs/product/states.md#subscription-and-reliability-states: not banned, reliability 95 or more, has an address). */
  @Column({ type: 'boolean', default: false })
  listed: boolean;

  /** Derived (docs/product/states.md#market-and-account-states): no free slot, stale, reliability under 50, or core down. */
  @Column({ type: 'boolean', default: true })
  disabled: boolean;

  /** Derived (docs/product/constants.md#market-prices-and-limits): 0 premium, 1 promoted, 2 other; +3 when disabled. */
  @Column({ name: 'sort_group', type: 'smallint', default: 5 })
  sortGroup: number;

  /**
   * Derived by market_listing_promotion (docs/product/states.md#market-and-account-states: higher promotions first): promotion_micro of
   * a promoted (non-premium) server, else null.
   */
  @Column({ name: 'sort_promotion_micro', type: 'bigint', nullable: true })
  sortPromotionMicro: string | null;

  /** Derived: promoted_at of a promoted (non-premium) server, else null. */
  @Column({ name: 'sort_promoted_at', type: 'timestamptz', nullable: true })
  sortPromotedAt: Date | null;

  /** Derived (docs/product/states.md#market-and-account-states): the reliability shown: 0 when disabled, 100 for premium servers. */
  @Column({ name: 'sort_reliability', type: 'smallint', default: 0 })
  sortReliability: number;

  /**
   * Written by the reachability aggregation (docs/reachability.md#market-order): 0 to 50, half
   * the share of the measured networks where the server is blocked. The order's score is
   * reliability x (100 - reach_penalty) / 100.
   */
  @Column({ name: 'reach_penalty', type: 'smallint', default: 0 })
  reachPenalty: number;
}
