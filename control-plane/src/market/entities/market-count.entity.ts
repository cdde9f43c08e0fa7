import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Listed servers per country ('' = none given) with the sums behind the market stats, kept
 * exact by statement triggers on market_listings: totalPages, /data/countries and /data/stats
 * read at most one row per country instead of counting 100,000 servers. (No CHECK on the
 * values: INSERT ... ON CONFLICT checks the proposed row, which carries a negative delta; the
 * market db-spec proves the counters equal a fresh count instead.)
 */
@Entity({ name: 'market_counts' })
export class MarketCountEntity {
  @PrimaryColumn({ type: 'varchar', length: 2 })
  country: string;

  @Column({ type: 'int', default: 0 })
  listed: number;

  @Column({ name: 'reliability_sum', type: 'bigint', default: 0 })
  reliabilitySum: string;

  @Column({ name: 'ping_sum', type: 'bigint', default: 0 })
  pingSum: string;

  @Column({ name: 'ping_count', type: 'int', default: 0 })
  pingCount: number;
}
