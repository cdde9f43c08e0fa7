import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, Optional } from '@nestjs/common';
import { type UpdateServerChanges, VPS_TIERS, type VpsTierId } from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Hardware, ValidReport } from '../grpc/agent-messages';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { queryRows, RETRYABLE_SQL_STATES, sqlState } from '../common/sql';
import type { EntityManager } from 'typeorm';
import {
  applyReport,
  initialReliability,
  type ReliabilityState,
  type ReliabilityView,
  type ReportQuality,
  settleThreshold,
  viewReliability,
} from '../reliability/reliability';
import type { ServerEntity } from './entities/server.entity';
import { DEMO_OPERATOR_EMAIL } from './demo-operator';
import { NodesException } from './nodes.exception';
import { type ClientSet, NodesRepository, type SweepSettlement } from './nodes.repository';
import { type ReportColumns, ReportWriter } from './report-writer';
import { SERVER_DELETION, type ServerDeletion } from './server-deletion';
import { type AgentServer, ServerReader } from './server-reader';

/** issue 3: enrollment tokens live 24 hours; reports every 60 s. */
export const ENROLLMENT_TOKEN_TTL_MS = 24 * 3_600_000;
export const REPORT_INTERVAL_MS = 60_000;
/** A report whose server keeps changing under it is refused after this many tries (UNAVAILABLE). */
const REPORT_ATTEMPTS = 3;
/** Servers the reliability sweep reads, and writes in one statement, at a time. */
export const SWEEP_PAGE_SIZE = 5_000;
const GIB = 1024 ** 3;

export interface IssuedEnrollmentToken {
  token: string;
  tier: VpsTierId;
  expiresAt: Date;
  installCommand: string;
}

export interface Enrollment {
  nodeId: string;
  nodeSecret: string;
  tier: VpsTierId;
}

/**
 * A node credential as a call presented it (node id and bearer secret). The node it names and
 * its hash are worked out once: a ReportStream presents one credential for every report on it.
 */
export class PresentedCredential {
  private digest: Buffer | undefined;
  /** The node the secret was issued to (secrets are `<node id>.<random>`), or null if none. */
  readonly ownId: string | null;

  constructor(
    readonly claimedNodeId: string,
    readonly bearer: string,
  ) {
    const ownId = bearer.split('.', 1)[0]!;
    this.ownId = /^[0-9a-f-]{36}$/.test(ownId) ? ownId : null;
  }

  get hash(): Buffer {
    return (this.digest ??= createHash('sha256').update(this.bearer).digest());
  }
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** The reliability fields of a server row, as the engine's state. */
export function reliabilityStateOf(
  server: Pick<ServerEntity, keyof ReliabilityState>,
): ReliabilityState {
  return {
    reliabilityAtReport: server.reliabilityAtReport,
    lastReportAt: server.lastReportAt,
    lastCreditedAt: server.lastCreditedAt,
    belowThresholdSince: server.belowThresholdSince,
    bannedAt: server.bannedAt,
  };
}

function reliabilityColumns(state: ReliabilityState): Pick<ServerEntity, keyof ReliabilityState> {
  return {
    reliabilityAtReport: state.reliabilityAtReport,
    lastReportAt: state.lastReportAt,
    lastCreditedAt: state.lastCreditedAt,
    belowThresholdSince: state.belowThresholdSince,
    bannedAt: state.bannedAt,
  };
}

/**
 * Whether the hardware meets the tier (spec 01 §9): cores and RAM at least the tier's; RAM may
 * fall short by 10% because the kernel reserves some of what the provider sells as "1 GB".
 */
export function meetsTier(hardware: Hardware, tierId: VpsTierId): boolean {
  const tier = VPS_TIERS.find((t) => t.id === tierId);
  if (!tier) return false;
  const ramGib = Number(hardware.ramBytes) / GIB;
  return hardware.cpuCores >= tier.vcpu && ramGib >= tier.ramGb * 0.9;
}

/** Operator servers: enrollment, authentication of agents, reports, owner-scoped reads. */
@Injectable()
export class NodesService {
  constructor(
    private readonly repository: NodesRepository,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeGateway,
    private readonly reports: ReportWriter,
    private readonly servers: ServerReader,
    @Optional() @Inject(SERVER_DELETION) private readonly deletion: ServerDeletion | null = null,
  ) {}

  async createEnrollmentToken(
    session: ActiveSession,
    tier: VpsTierId,
  ): Promise<IssuedEnrollmentToken> {
    if (session.account.userType !== 'node') throw new NodesException('not_a_node_account');
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + ENROLLMENT_TOKEN_TTL_MS);
    await this.repository.insertEnrollmentToken({
      id: randomUUID(),
      tokenHash: sha256(token),
      ownerUuid: session.account.uuid,
      tier,
      expiresAt,
    });
    return {
      token,
      tier,
      expiresAt,
      installCommand: `curl -fsSL ${this.config.publicUrl}/install.sh | sudo bash -s -- --token ${token} --tier ${tier}`,
    };
  }

  /** Exchanges a one-time token for the node's id and secret; the token is spent atomically. */
  async enroll(request: {
    enrollmentToken: string;
    tier: VpsTierId;
    agentVersion: string;
    hardware: Hardware;
    /** Where the server is (`scn-agent enroll --country --location`), validated by the caller. */
    country?: string | null;
    location?: string | null;
  }): Promise<Enrollment> {
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    const enrollment = await this.repository.dataSource.transaction(async (manager) => {
      const token = await this.repository.consumeEnrollmentToken(
        manager,
        sha256(request.enrollmentToken),
        now,
      );
      if (!token) throw new NodesException('enrollment_token_invalid');
      if (token.tier !== request.tier) throw new NodesException('tier_mismatch');
      if (!meetsTier(request.hardware, token.tier)) throw new NodesException('hardware_below_tier');
      const id = randomUUID();
      const nodeSecret = `${id}.${secret}`;
      const state = initialReliability(now);
      await this.repository.insertServer(manager, {
        id,
        ownerUuid: token.ownerUuid,
        name: await this.serverName(manager, token.ownerUuid, id),
        source: 'agent',
        country: request.country ?? null,
        location: request.location ?? null,
        tier: token.tier,
        secretHash: sha256(nodeSecret),
        inbound: {},
        hardware: request.hardware,
        agentVersion: request.agentVersion,
        ...reliabilityColumns(state),
      });
      await this.repository.linkTokenToServer(manager, token.id, id);
      return { nodeId: id, nodeSecret, tier: token.tier };
    });
    this.realtime.serverListUpdated('added');
    return enrollment;
  }

  /** Demo servers are named as such (issue 3 §5); others get a short name from their id. */
  private async serverName(manager: EntityManager, ownerUuid: string, id: string): Promise<string> {
    const [owner] = await queryRows<{ email: string; servers: number }>(
      manager,
      `SELECT a.email, (SELECT count(*)::int FROM servers s WHERE s.owner_uuid = a.uuid) AS servers
       FROM accounts a WHERE a.uuid = $1`,
      [ownerUuid],
    );
    if (owner?.email === DEMO_OPERATOR_EMAIL) return `Demo node ${owner.servers + 1}`;
    return `Node ${id.slice(0, 8)}`;
  }

  /**
   * Node Configuration: the owner renames a server or says where it is. Another operator's
   * server is not found. The market shows name and country, so it hears about the change.
   */
  async updateServer(
    ownerUuid: string,
    serverId: string,
    changes: UpdateServerChanges,
  ): Promise<ServerEntity> {
    const columns: Partial<Pick<ServerEntity, 'name' | 'country' | 'location'>> = {};
    if (changes.name !== undefined) columns.name = changes.name;
    if (changes.country !== undefined) columns.country = changes.country;
    if (changes.location !== undefined) columns.location = changes.location;
    if (!(await this.repository.updateOwnedServer(ownerUuid, serverId, columns))) {
      throw new NodesException('server_not_found');
    }
    this.realtime.serverListUpdated('updated');
    return this.ownedServer(ownerUuid, serverId);
  }

  /** One of the operator's own servers; another operator's is not found. */
  async ownedServer(ownerUuid: string, serverId: string): Promise<ServerEntity> {
    const server = await this.repository.findOwnedServer(ownerUuid, serverId);
    if (!server) throw new NodesException('server_not_found');
    return server;
  }

  /** The client places a server holds (paused ones too) and its client-set version. */
  clientSlots(serverId: string): Promise<{ allowed: number; version: string }> {
    return this.repository.clientSlots(serverId);
  }

  /**
   * Deletes an operator's own server; its agent is refused from then on. In the same
   * transaction, its clients' unused paid time is refunded and it leaves their subscriptions
   * (issue 15 §7, SERVER_DELETION). Its client set is locked first, as a purchase locks it, so
   * no purchase can slip in between the refunds and the delete.
   */
  async deleteServer(ownerUuid: string, serverId: string): Promise<boolean> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const result = await this.repository.dataSource.transaction(async (manager) => {
          if (!(await this.repository.lockOwnedServer(manager, ownerUuid, serverId))) {
            return { deleted: false, withdrawn: 0 };
          }
          const withdrawn =
            (await this.deletion?.beforeDelete(manager, serverId, this.clock.now())) ?? 0;
          await this.repository.deleteServer(manager, serverId);
          return { deleted: true, withdrawn };
        });
        if (result.deleted) this.realtime.serverListUpdated('removed');
        if (result.withdrawn > 0) this.realtime.serverListUpdated('withdrawn');
        return result.deleted;
      } catch (error) {
        const code = sqlState(error);
        if (attempt >= 3 || !code || !RETRYABLE_SQL_STATES.has(code)) throw error;
      }
    }
  }

  /**
   * The node a call comes from. The secret names its node (`<id>.<random>`), so a valid secret
   * sent with another node's id is told apart from a wrong secret. `fresh: false` lets the copy
   * this process remembered at its last report write answer: only for reports, whose write
   * checks the row version (see report()).
   */
  async authenticate(
    credential: PresentedCredential,
    { fresh }: { fresh: boolean } = { fresh: true },
  ): Promise<AgentServer> {
    const ownId = credential.ownId;
    if (ownId === null) throw new NodesException('node_unauthenticated');
    const recalled = fresh ? undefined : this.servers.recall(ownId);
    const server = recalled ?? (await this.servers.read(ownId));
    const expected = server?.secretDigest ?? null;
    if (
      !server ||
      !expected ||
      expected.length !== credential.hash.length ||
      !timingSafeEqual(expected, credential.hash)
    ) {
      // A remembered copy never refuses on its own: the database decides.
      if (recalled) return this.authenticate(credential, { fresh: true });
      throw new NodesException('node_unauthenticated');
    }
    if (credential.claimedNodeId !== server.id) throw new NodesException('node_mismatch');
    return server;
  }

  /**
   * Applies a validated report from an authenticated node and returns its reliability now. The
   * write applies only to the row version `server` was read at: when anyone else changed the
   * row meanwhile (another replica, the sweep, a purchase, the dashboard, a deletion), the
   * server is read again, the credential checked again and the report applied to what is there.
   */
  async report(
    credential: PresentedCredential,
    server: AgentServer,
    report: ValidReport,
  ): Promise<ReliabilityView> {
    let current = server;
    for (let attempt = 1; ; attempt += 1) {
      const view = await this.applyReport(current, report);
      if (view) return view;
      if (attempt === REPORT_ATTEMPTS) throw new NodesException('report_conflict');
      current = await this.authenticate(credential, { fresh: true });
    }
  }

  /** One attempt of report(): null when the row was no longer at `server.version`. */
  private async applyReport(
    server: AgentServer,
    report: ValidReport,
  ): Promise<ReliabilityView | null> {
    const now = this.clock.now();
    const before = viewReliability(reliabilityStateOf(server), now);
    const state = applyReport(reliabilityStateOf(server), this.qualityOf(server, report), now);
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
      inbound: report.inbound!,
      hardware: report.hardware ?? null,
      agentVersion: report.agentVersion,
      coreState: report.proxyCore?.state.replace('PROXY_CORE_STATE_', '').toLowerCase() ?? null,
      activeClients: report.clientCountFailed ? null : report.activeClients,
      // 0: not measured yet (the agent just started); the stored figure stays.
      pingMs: report.pingMs === 0 ? null : report.pingMs,
      uptimeSeconds: report.uptimeSeconds,
      appliedClientSetVersion: report.appliedClientSetVersion,
    };
    const version = await this.reports.write(server.id, server.version, columns);
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
      reliabilityAtReport: state.reliabilityAtReport,
      lastReportAt: state.lastReportAt,
      lastCreditedAt: state.lastCreditedAt,
      belowThresholdSince: state.belowThresholdSince,
      bannedAt: state.bannedAt,
      version,
    });
    const after = viewReliability(state, now);
    if (before.available !== after.available || before.hidden !== after.hidden) {
      this.realtime.serverListUpdated('availability');
    } else if (server.host !== report.publicHost || server.port !== report.publicPort) {
      // The first report (or a move) gives the address clients dial: the market changes too.
      this.realtime.serverListUpdated('address');
    }
    return after;
  }

  /**
   * Moves the 95%/14-day lifecycle on for every server it could move for (idempotent per run):
   * reads the candidates a page at a time and writes each page's changes in one statement, so
   * memory and round trips stay bounded at any network size. Returns how many servers changed.
   */
  async sweepReliability(pageSize = SWEEP_PAGE_SIZE): Promise<number> {
    const now = this.clock.now();
    let changed = 0;
    let afterId: string | null = null;
    for (;;) {
      const page = await this.repository.listServersForSweep(now, afterId, pageSize);
      const settlements: SweepSettlement[] = [];
      for (const before of page) {
        const after = settleThreshold(before, now);
        if (after !== before) {
          settlements.push({
            id: before.id,
            version: before.version,
            belowThresholdSince: after.belowThresholdSince,
            bannedAt: after.bannedAt,
          });
        }
      }
      changed += await this.repository.settleServers(settlements);
      const last = page[page.length - 1];
      if (!last || page.length < pageSize) break;
      afterId = last.id;
    }
    if (changed > 0) this.realtime.serverListUpdated('availability');
    return changed;
  }

  view(server: ServerEntity): ReliabilityView {
    return viewReliability(reliabilityStateOf(server), this.clock.now());
  }

  clientSet(serverId: string): Promise<ClientSet | null> {
    return this.repository.clientSet(serverId);
  }

  /** Sets the client UUIDs allowed on a server and pushes them to the node (issue 4 calls this). */
  setAllowedClients(serverId: string, clientUuids: readonly string[]): Promise<string> {
    return this.repository.replaceClientSet(serverId, clientUuids);
  }

  /**
   * Allows (or takes off) one subscription's UUID on its servers inside the caller's
   * transaction; the nodes' WatchClients streams push the new sets when it commits.
   */
  addClients(manager: EntityManager, serverIds: readonly string[], clientUuid: string) {
    return this.repository.addClients(manager, serverIds, clientUuid);
  }

  removeClients(manager: EntityManager, serverIds: readonly string[], clientUuid: string) {
    return this.repository.removeClients(manager, serverIds, clientUuid);
  }

  /** Holds the client's slots but keeps it off the nodes (a paused subscription). */
  disableClients(manager: EntityManager, serverIds: readonly string[], clientUuid: string) {
    return this.repository.setClientsEnabled(manager, serverIds, clientUuid, false);
  }

  /** Lets a client that kept its slots back onto the nodes. */
  enableClients(manager: EntityManager, serverIds: readonly string[], clientUuid: string) {
    return this.repository.setClientsEnabled(manager, serverIds, clientUuid, true);
  }

  /**
   * spec 02 §4: a report whose client count failed costs 10; one whose numbers cannot be true
   * (more active clients than the tier allows, or than the counters it sent) costs 5.
   */
  private qualityOf(server: AgentServer, report: ValidReport): ReportQuality {
    if (report.clientCountFailed) return 'client_count_failed';
    const capacity = VPS_TIERS.find((t) => t.id === server.tier)?.maxClients ?? Infinity;
    // Active clients are those whose counters moved, so they cannot outnumber the counters sent.
    const tooManyActive =
      report.clientTraffic.length > 0 && report.activeClients > report.clientTraffic.length;
    return report.activeClients > capacity || tooManyActive ? 'malformed' : 'ok';
  }
}
