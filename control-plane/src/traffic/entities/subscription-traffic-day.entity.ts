import { Check, Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A subscription's traffic through one server over one UTC day, added from the
 * agent reports' per-client counters (agent-reports/agent-report.repository.ts). Only byte
 * counts: never a destination, an address or a finer time (the no-logs policy). Upload is what
 * the user's device sent (the core's uplink), download what it received.
 */
@Entity({ name: 'subscription_traffic_days' })
@Index('ix_subscription_traffic_days_server', ['serverId', 'day'])
@Check('ck_subscription_traffic_days_bytes', `"upload_bytes" >= 0 AND "download_bytes" >= 0`)
export class SubscriptionTrafficDayEntity {
  @PrimaryColumn({ name: 'subscription_id', type: 'uuid' })
  subscriptionId: string;

  @PrimaryColumn({ name: 'server_id', type: 'uuid' })
  serverId: string;

  @PrimaryColumn({ type: 'date' })
  day: string;

  @Column({ name: 'upload_bytes', type: 'bigint', default: 0 })
  uploadBytes: string;

  @Column({ name: 'download_bytes', type: 'bigint', default: 0 })
  downloadBytes: string;
}
