import type { VpsTierId } from '@scn/proto';
import {
  Check,
  Generated,
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

export type ServerSource = 'agent' | 'manual';
export type InboundCore = 'xray' | 'v2ray';
export type PlanSecurity = 'reality' | 'tls';
export type PlanNetwork = 'tcp' | 'ws' | 'grpc';

/**
 * A VLESS server of an operator: enrolled by the agent (reports every 60 s) or added by hand
 * with a VLESS string (probed by the control plane). Reliability fields follow
 * reliability/reliability.ts: the score at the last report plus the clock.
 */
@Entity({ name: 'servers' })
@Index('ix_servers_owner', ['ownerUuid'])
@Index('uq_servers_host_name', ['hostName'], { unique: true })
@Check('ck_servers_host_name', `"host_name" ~ '^n[0-9a-f]{16}$'`)
@Check('ck_servers_source', `"source" IN ('agent', 'manual')`)
@Check(
  'ck_servers_plan',
  `"plan_port" BETWEEN 1 AND 65535 AND "plan_security" IN ('reality', 'tls') AND "plan_network" IN ('tcp', 'ws', 'grpc') AND "core" IN ('xray', 'v2ray') AND "plan_revision" >= 0 AND length("certificate_pem") <= 8192`,
)
export class ServerEntity {
  @PrimaryColumn({ type: 'uuid' })
  id: string;

  @Column({ name: 'owner_uuid', type: 'uuid' })
  ownerUuid: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'owner_uuid', foreignKeyConstraintName: 'fk_servers_owner' })
  owner?: AccountEntity;

  @Column({ type: 'varchar', length: 100 })
  name: string;

  @Column({ type: 'varchar', length: 10 })
  source: ServerSource;

  /** ISO 3166-1 alpha-2, upper case; set by the operator (enrollment flag or Node Configuration). */
  @Column({ type: 'char', length: 2, nullable: true })
  country: string | null;

  /** Free text shown on the market card, e.g. "Frankfurt". */
  @Column({ type: 'varchar', length: 100, nullable: true })
  location: string | null;

  @Column({ type: 'varchar', length: 8, nullable: true })
  tier: VpsTierId | null;

  /** SHA-256 of the node's secret credential (agent servers only). */
  @Column({ name: 'secret_hash', type: 'char', length: 64, nullable: true })
  secretHash: string | null;

  @Column({ type: 'varchar', length: 253, nullable: true })
  host: string | null;

  @Column({ type: 'int', nullable: true })
  port: number | null;

  /**
   * The node's DNS label under the platform's node domain (SCN_NODE_DOMAIN): `n` + 16 hex digits,
   * random, stable (node-dns/node-host-name.ts). Agent servers only; null for manual ones.
   */
  @Column({ name: 'host_name', type: 'varchar', length: 17, nullable: true })
  hostName: string | null;

  /** The public address the agent gave at enrollment: its name's address until it reports. */
  @Column({ name: 'enrolled_host', type: 'varchar', length: 253, nullable: true })
  enrolledHost: string | null;

  /**
   * The VLESS inbound as the agent last reported it: security, sni, fp, pbk, sid, flow, network,
   * path, serviceName, certificateSha256, publicKeySha256, planRevision (grpc/agent-messages.ts).
   */
  @Column({ type: 'jsonb' })
  inbound: Record<string, string>;

  /** For manual servers: the VLESS string the operator pasted. */
  @Column({ name: 'vless_string', type: 'text', nullable: true })
  vlessString: string | null;

  @Column({ type: 'jsonb', nullable: true })
  hardware: Record<string, string | number> | null;

  @Column({ name: 'agent_version', type: 'varchar', length: 32, nullable: true })
  agentVersion: string | null;

  @Column({ name: 'core_state', type: 'varchar', length: 16, nullable: true })
  coreState: string | null;

  @Column({ name: 'active_clients', type: 'int', default: 0 })
  activeClients: number;

  @Column({ name: 'ping_ms', type: 'int', nullable: true })
  pingMs: number | null;

  @Column({ name: 'uptime_seconds', type: 'bigint', default: 0 })
  uptimeSeconds: string;

  @Column({ name: 'reliability_at_report', type: 'smallint', default: 100 })
  reliabilityAtReport: number;

  @Column({ name: 'last_report_at', type: 'timestamptz', nullable: true })
  lastReportAt: Date | null;

  @Column({ name: 'last_credited_at', type: 'timestamptz', nullable: true })
  lastCreditedAt: Date | null;

  @Column({ name: 'below_threshold_since', type: 'timestamptz', nullable: true })
  belowThresholdSince: Date | null;

  @Column({ name: 'banned_at', type: 'timestamptz', nullable: true })
  bannedAt: Date | null;

  /** Manual servers: when the control plane last ran the VLESS check through it. */
  @Column({ name: 'checked_at', type: 'timestamptz', nullable: true })
  checkedAt: Date | null;

  /** Manual servers: why the last check failed (null: it passed, or none ran yet). */
  @Column({ name: 'check_error', type: 'varchar', length: 200, nullable: true })
  checkError: string | null;

  /**
   * Since when the hardware is as it is: the first hardware report, and every
   * report with more cores or memory than before (an upgrade) resets it.
   */
  @Column({ name: 'hardware_since', type: 'timestamptz', nullable: true })
  hardwareSince: Date | null;

  /** Halving protection cut its rewards and allowed clients by half (last statement). */
  @Column({ name: 'halving_cut', type: 'boolean', default: false })
  halvingCut: boolean;

  /** The proxy core the agent enrolled with: 'xray' offers REALITY, 'v2ray' TLS only. */
  @Column({ type: 'varchar', length: 8, nullable: true })
  core: InboundCore | null;

  /**
   * The inbound plan the control plane pushes (inbound-plan.ts): the machine's persistent port,
   * its security and transport, and the revision bumped on every change. The links follow what
   * the agent reports, not the plan: `inbound.planRevision` below `planRevision` is pending.
   */
  @Column({ name: 'plan_port', type: 'int', nullable: true })
  planPort: number | null;

  @Column({ name: 'plan_security', type: 'varchar', length: 8, nullable: true })
  planSecurity: PlanSecurity | null;

  @Column({ name: 'plan_network', type: 'varchar', length: 8, default: 'tcp' })
  planNetwork: PlanNetwork;

  @Column({ name: 'plan_revision', type: 'bigint', default: 0 })
  planRevision: string;

  /** The last emergency port regeneration (rate-limited). */
  @Column({ name: 'port_regenerated_at', type: 'timestamptz', nullable: true })
  portRegeneratedAt: Date | null;

  /**
   * The UUID vantage points test this server's VLESS layer with: in its client set beside the
   * clients', never a client's, never counted as a place (docs/reachability.md).
   */
  @Column({ name: 'probe_uuid', type: 'uuid' })
  @Generated('uuid')
  probeUuid: string;

  /**
   * The operator's automatic port regeneration when the server becomes blocked somewhere: null
   * off, else at most once per this many seconds (AUTO_REGENERATION_INTERVALS_S).
   */
  @Column({ name: 'auto_regenerate_s', type: 'int', nullable: true })
  autoRegenerateS: number | null;

  /** The agent's self-signed TLS certificate (PEM) as it last sent it; null without one. */
  @Column({ name: 'certificate_pem', type: 'text', nullable: true })
  certificatePem: string | null;

  /** The version the node last said it applied. */
  @Column({ name: 'applied_client_set_version', type: 'bigint', default: 0 })
  appliedClientSetVersion: string;

  /**
   * The traffic batch (ReportRequest.traffic_batch_id) last applied from this node: a resend of
   * it after a lost answer adds no traffic. Null: none yet, or only older agents.
   */
  @Column({ name: 'last_traffic_batch_id', type: 'uuid', nullable: true })
  lastTrafficBatchId: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
