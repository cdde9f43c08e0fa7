import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { VPS_TIERS, type VpsTierId } from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { TransactionRunner } from '../database/transaction-runner';
import { newHostName } from '../node-dns/node-host-name';
import { NodesException } from '../nodes/nodes.exception';
import type { InboundCore } from '../nodes/entities/server.entity';
import { type InboundPlan, initialPlan } from '../nodes/inbound-plan';
import { NodesRepository } from '../nodes/nodes.repository';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { initialReliability } from '../reliability/reliability';
import { EnrollmentRepository } from './enrollment.repository';
import { serverName } from './server-name';

/** Enrollment tokens live 24 hours. */
export const ENROLLMENT_TOKEN_TTL_MS = 24 * 3_600_000;
const GIB = 1024 ** 3;

/**
 * The machine an agent enrolls from, as the gRPC server validated it (grpc/agent-messages.ts):
 * stored as the server's hardware; cores and RAM (bytes, as a decimal string) decide the tier.
 */
export type EnrollingHardware = { cpuCores: number; ramBytes: string } & Record<
  string,
  string | number
>;

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
  /** The machine's persistent port and default transport. */
  inboundPlan: InboundPlan;
  /** Its DNS label under the platform's node domain (node-dns/node-host-name.ts). */
  hostName: string;
}

function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * Whether the hardware meets the tier (docs/product/constants.md#market-prices-and-limits): cores and RAM at least the tier's; RAM may
 * fall short by 10% because the kernel reserves some of what the provider sells as "1 GB".
 */
export function meetsTier(hardware: EnrollingHardware, tierId: VpsTierId): boolean {
  const tier = VPS_TIERS.find((t) => t.id === tierId);
  if (!tier) return false;
  const ramGib = Number(hardware.ramBytes) / GIB;
  return hardware.cpuCores >= tier.vcpu && ramGib >= tier.ramGb * 0.9;
}

/** Enrollment: the setup wizard's one-time tokens, exchanged by agents for credentials. */
@Injectable()
export class EnrollmentService {
  constructor(
    private readonly repository: EnrollmentRepository,
    private readonly servers: NodesRepository,
    private readonly transactions: TransactionRunner,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly realtime: RealtimeGateway,
  ) {}

  /** `name`: what the server is called once it enrolls (the wizard's, already validated). */
  async createEnrollmentToken(
    session: ActiveSession,
    tier: VpsTierId,
    name?: string,
  ): Promise<IssuedEnrollmentToken> {
    if (session.account.userType !== 'node') throw new NodesException('not_a_node_account');
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + ENROLLMENT_TOKEN_TTL_MS);
    await this.repository.insertEnrollmentToken({
      id: randomUUID(),
      tokenHash: sha256(token),
      ownerUuid: session.account.uuid,
      tier,
      serverName: name ?? null,
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
    hardware: EnrollingHardware;
    /** Where the server is (`scn-agent enroll --country --location`), validated by the caller. */
    country?: string | null;
    location?: string | null;
    /** `scn-agent enroll --public-port`; 0 or absent: a random port of the machine's own. */
    requestedPort?: number;
    /** The core the agent runs; null: an agent from before secure transports. */
    core?: InboundCore | null;
    /** Where clients will connect (canonical host), as the agent sees it; null: unknown. */
    publicHost?: string | null;
  }): Promise<Enrollment> {
    const core = request.core ?? null;
    const plan = initialPlan(core, request.requestedPort ?? 0);
    const now = this.clock.now();
    const secret = randomBytes(32).toString('base64url');
    const enrollment = await this.transactions.run(async (tx) => {
      const token = await this.repository.consumeEnrollmentToken(
        tx,
        sha256(request.enrollmentToken),
        now,
      );
      if (!token) throw new NodesException('enrollment_token_invalid');
      if (token.tier !== request.tier) throw new NodesException('tier_mismatch');
      if (!meetsTier(request.hardware, token.tier)) throw new NodesException('hardware_below_tier');
      const id = randomUUID();
      const nodeSecret = `${id}.${secret}`;
      const hostName = newHostName();
      await this.servers.insertServer(tx, {
        id,
        ownerUuid: token.ownerUuid,
        name:
          token.serverName ?? serverName(await this.repository.ownerOf(tx, token.ownerUuid), id),
        source: 'agent',
        country: request.country ?? null,
        location: request.location ?? null,
        tier: token.tier,
        secretHash: sha256(nodeSecret),
        hostName,
        enrolledHost: request.publicHost ?? null,
        inbound: {},
        core,
        planPort: plan.port,
        planSecurity: plan.security,
        planNetwork: plan.network,
        planRevision: plan.revision,
        hardware: request.hardware,
        agentVersion: request.agentVersion,
        ...initialReliability(now),
      });
      await this.repository.linkTokenToServer(tx, token.id, id);
      return { nodeId: id, nodeSecret, tier: token.tier, inboundPlan: plan, hostName };
    });
    this.realtime.serverListUpdated('added');
    return enrollment;
  }
}
