import { Inject, Injectable } from '@nestjs/common';
import { VPS_TIERS } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { ServerEntity } from '../nodes/entities/server.entity';
import { NodeAddressCache } from '../node-dns/node-address-cache';
import { newHostName } from '../node-dns/node-host-name';
import { NodesException } from '../nodes/nodes.exception';
import { reliabilityStateOf } from '../nodes/server-reliability';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import {
  applyReport,
  type ReliabilityView,
  type ReportQuality,
  viewReliability,
} from '../reliability/reliability';
import { AgentAuthService, type PresentedCredential } from './agent-auth.service';
import {
  AgentReportRepository,
  type ClientTrafficDelta,
  type ReportColumns,
} from './agent-report.repository';
import { type AgentServer, AgentServerRepository } from '../nodes/agent-server.repository';

/** Agents report every 60 s. */
export const REPORT_INTERVAL_MS = 60_000;
/** A report whose server keeps changing under it is refused after this many tries (UNAVAILABLE). */
const REPORT_ATTEMPTS = 3;

/**
 * A report as the gRPC server validated it (grpc/agent-messages.ts reportRequestSchema): what
 * applying it reads.
 */
export interface AgentReport {
  agentVersion: string;
  hardware: ServerEntity['hardware'];
  uptimeSeconds: string;
  proxyCore: { state: string } | null;
  activeClients: number;
  clientCountFailed: boolean;
  clientTraffic: readonly ClientTrafficDelta[];
  pingMs: number;
  publicHost: string;
  publicPort: number;
  /** The reported inbound; `certificatePem` ('' : not sent) is stored apart from the rest. */
  inbound: (ServerEntity['inbound'] & { certificatePem?: string }) | null;
  appliedClientSetVersion: string;
  /** The batch `clientTraffic` belongs to ('' : none, or an older agent); see the proto. */
  trafficBatchId: string;
}

/** The inbound as stored (jsonb) without the certificate PEM, and the PEM (null: not sent). */
function splitInbound(
  reported: NonNullable<AgentReport['inbound']>,
): [ServerEntity['inbound'], string | null] {
  const inbound: ServerEntity['inbound'] = {};
  for (const key of Object.keys(reported)) {
    if (key !== 'certificatePem') inbound[key] = reported[key]!;
  }
  return [inbound, reported.certificatePem || null];
}

/** An authenticated node's reports (docs/product/states.md#subscription-and-reliability-states): reliability, address, health, as it said. */
@Injectable()
export class AgentReportsService {
  constructor(
    private readonly auth: AgentAuthService,
    private readonly reports: AgentReportRepository,
    private readonly servers: AgentServerRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly realtime: RealtimeGateway,
    private readonly nodeAddresses: NodeAddressCache,
  ) {}

  /**
   * Applies a validated report from an authenticated node and returns its reliability now. The
   * write applies only to the row version `server` was read at: when anyone else changed the
   * row meanwhile (another replica, the sweep, a purchase, the dashboard, a deletion), the
   * server is read again, the credential checked again and the report applied to what is there.
   */
  async report(
    credential: PresentedCredential,
    server: AgentServer,
    report: AgentReport,
  ): Promise<ReliabilityView> {
    let current = server;
    for (let attempt = 1; ; attempt += 1) {
      const view = await this.applyReport(current, report);
      if (view) return view;
      if (attempt === REPORT_ATTEMPTS) throw new NodesException('report_conflict');
      current = await this.auth.authenticate(credential, { fresh: true });
    }
  }

  /**
   * Names a node that has no DNS label yet (enrolled before names, by an older replica):
   * true when it was named now, and `server` must be read again (its row version changed).
   */
  async nameNode(server: AgentServer): Promise<boolean> {
    if (server.hostName !== null) return false;
    return this.servers.assignHostName(server.id, newHostName());
  }

  /** One attempt of report(): null when the row was no longer at `server.version`. */
  private async applyReport(
    server: AgentServer,
    report: AgentReport,
  ): Promise<ReliabilityView | null> {
    const now = this.clock.now();
    const before = viewReliability(reliabilityStateOf(server), now);
    const quality = this.qualityOf(server, report);
    const state = applyReport(reliabilityStateOf(server), quality, now);
    const [inbound, certificatePem] = splitInbound(report.inbound!);
    // Plain literals, no spread: on this path V8 builds `{ ...a, b, c }` through a slow clone
    // (microseconds per report, measured).
    const columns: ReportColumns = {
      reliabilityAtReport: state.reliabilityAtReport,
      lastReportAt: state.lastReportAt,
      lastCreditedAt: state.lastCreditedAt,
      belowThresholdSince: state.belowThresholdSince,
      bannedAt: state.bannedAt,
      host: report.publicHost,
      port: report.publicPort,
      inbound,
      hardware: report.hardware ?? null,
      agentVersion: report.agentVersion,
      coreState: report.proxyCore?.state.replace('PROXY_CORE_STATE_', '').toLowerCase() ?? null,
      activeClients: report.clientCountFailed ? null : report.activeClients,
      // 0: not measured yet (the agent just started); the stored figure stays.
      pingMs: report.pingMs === 0 ? null : report.pingMs,
      uptimeSeconds: report.uptimeSeconds,
      appliedClientSetVersion: report.appliedClientSetVersion,
      certificatePem,
    };
    // The traffic of a report whose client count failed is meaningless (docs/product/states.md#subscription-and-reliability-states): not stored,
    // nor its batch id (a later copy of that batch must still count).
    const traffic = report.clientCountFailed ? [] : report.clientTraffic;
    const version = await this.reports.write(
      server.id,
      server.version,
      columns,
      quality,
      traffic,
      report.clientCountFailed ? '' : report.trafficBatchId,
    );
    if (version === null) {
      this.servers.forget(server.id);
      return null;
    }
    this.servers.remember({
      id: server.id,
      tier: server.tier,
      secretDigest: server.secretDigest,
      host: columns.host,
      port: columns.port,
      hostName: server.hostName,
      reliabilityAtReport: state.reliabilityAtReport,
      lastReportAt: state.lastReportAt,
      lastCreditedAt: state.lastCreditedAt,
      belowThresholdSince: state.belowThresholdSince,
      bannedAt: state.bannedAt,
      version,
    });
    const after = viewReliability(state, now);
    // Its name's answer changes with its address (node-dns/): on this replica at once.
    if (server.host !== report.publicHost) this.nodeAddresses.forget(server.hostName);
    if (before.available !== after.available || before.hidden !== after.hidden) {
      this.realtime.serverListUpdated('availability');
    } else if (server.host !== report.publicHost || server.port !== report.publicPort) {
      // The first report (or a move) gives the address clients dial: the market changes too.
      this.realtime.serverListUpdated('address');
    }
    return after;
  }

  /**
   * docs/product/states.md#subscription-and-reliability-states: a report whose client count failed costs 10; one whose numbers cannot be true
   * (more active clients than the tier allows, or than the counters it sent) costs 5.
   */
  private qualityOf(server: AgentServer, report: AgentReport): ReportQuality {
    if (report.clientCountFailed) return 'client_count_failed';
    const capacity = VPS_TIERS.find((t) => t.id === server.tier)?.maxClients ?? Infinity;
    // Active clients are those whose counters moved, so they cannot outnumber the counters sent.
    const tooManyActive =
      report.clientTraffic.length > 0 && report.activeClients > report.clientTraffic.length;
    return report.activeClients > capacity || tooManyActive ? 'malformed' : 'ok';
  }
}
