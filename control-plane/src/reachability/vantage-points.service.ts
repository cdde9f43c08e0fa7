import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  type ProbeEndpoint,
  type ProbeTasksResponse,
  type VantagePoint,
  CONTROL_CHARACTERS,
  PROBE_ERROR_CLASSES,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { ReachabilityException } from './reachability.exception';
import type { NewObservation } from './reachability.repository';
import { ReachabilityService } from './reachability.service';
import {
  type ProbeTarget,
  type VantagePointRow,
  VantagePointsRepository,
} from './vantage-points.repository';

/** A vantage point's one-time token lives a day. */
const TOKEN_TTL_MS = 24 * 3600_000;
/** Servers whose last report is older than this are not worth testing. */
const REPORTING_WITHIN_MS = 10 * 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

/** Where a call comes from, as GeoIP places it. */
export interface CallOrigin {
  address: string;
  agentVersion: string;
}

export interface AuthenticatedProbe {
  row: VantagePointRow;
  country: string | null;
  asn: number;
}

/**
 * Vantage points (`scn-agent probe`): tokens, enrollment, which endpoints each tests, and their
 * results as observations. A vantage point's network is where its call's address is, never what
 * it says; one with no known country tests nothing (what it saw could not be placed).
 */
@Injectable()
export class VantagePointsService {
  constructor(
    private readonly repository: VantagePointsRepository,
    private readonly reachability: ReachabilityService,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async createToken(
    ownerUuid: string,
    name: string,
  ): Promise<{ token: string; expiresAt: Date; command: string }> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(this.clock.now().getTime() + TOKEN_TTL_MS);
    await this.repository.insertToken({
      id: randomUUID(),
      tokenHash: sha256(token),
      ownerUuid,
      name,
      expiresAt,
    });
    const host = new URL(this.config.publicUrl).hostname;
    const grpc = `${host.includes(':') ? `[${host}]` : host}:${this.config.grpcPort ?? 5051}`;
    return {
      token,
      expiresAt,
      command: `scn-agent probe enroll --control-plane ${grpc} --token ${token} && scn-agent probe run`,
    };
  }

  /** Exchanges a token for the vantage point's id and secret (`<id>.<random>`). */
  async enroll(
    request: { enrollmentToken: string; agentVersion: string; name: string },
    origin: CallOrigin,
  ): Promise<{ probeId: string; probeSecret: string; country: string; asn: number }> {
    const id = randomUUID();
    const secret = `${id}.${randomBytes(32).toString('base64url')}`;
    const name = [...request.name.trim()]
      .filter((char) => !CONTROL_CHARACTERS.test(char))
      .join('')
      .slice(0, 100);
    const enrolled = await this.repository.enroll(
      sha256(request.enrollmentToken),
      { id, secretHash: sha256(secret), agentVersion: request.agentVersion.slice(0, 32), name },
      this.clock.now(),
    );
    if (!enrolled) throw new ReachabilityException('probe_token_invalid');
    const place = await this.seen(id, origin);
    return { probeId: id, probeSecret: secret, country: place.country ?? '', asn: place.asn };
  }

  /** The vantage point a call's credential names, placed where the call came from. */
  async authenticate(
    probeId: string,
    bearer: string,
    origin: CallOrigin,
  ): Promise<AuthenticatedProbe> {
    const row = /^[0-9a-f-]{36}$/.test(probeId) ? await this.repository.find(probeId) : null;
    const presented = Buffer.from(sha256(bearer), 'hex');
    const expected = Buffer.from(row?.secretHash ?? '0'.repeat(64), 'hex');
    if (!row || !timingSafeEqual(presented, expected)) {
      throw new ReachabilityException('probe_credential_invalid');
    }
    const place = await this.seen(row.id, origin);
    return { row, country: place.country, asn: place.asn };
  }

  async tasks(probe: AuthenticatedProbe): Promise<ProbeTasksResponse> {
    const settings = this.config.reachability;
    const targets = probe.country
      ? await this.repository.targetsFor(
          probe.country,
          probe.asn,
          new Date(this.clock.now().getTime() - REPORTING_WITHIN_MS),
          settings.probeBatch,
        )
      : [];
    return {
      endpoints: targets.map(endpointOf),
      intervalMs: settings.probeIntervalMs,
      timeoutMs: settings.probeTimeoutMs,
      targetUrl: this.config.manualServerProbeUrl,
      country: probe.country ?? '',
      asn: probe.asn,
    };
  }

  /** Stores a round's results as observations from the vantage point's network. */
  get intervalMs(): number {
    return this.config.reachability.probeIntervalMs;
  }

  async report(
    probe: AuthenticatedProbe,
    results: ReadonlyArray<{
      serverId: string;
      planRevision: string;
      totalMs: number;
      errorClass: string;
    }>,
  ): Promise<number> {
    if (!probe.country) return 0;
    const now = this.clock.now();
    const observations: NewObservation[] = [];
    for (const result of results.slice(0, this.config.reachability.probeBatch * 2)) {
      if (!/^[0-9a-f-]{36}$/.test(result.serverId) || !/^\d{1,18}$/.test(result.planRevision))
        continue;
      const errorClass = (PROBE_ERROR_CLASSES as readonly string[]).includes(result.errorClass)
        ? result.errorClass
        : 'closed';
      observations.push({
        serverId: result.serverId,
        country: probe.country,
        asn: probe.asn,
        observerId: probe.row.id,
        observerKind: 'probe',
        // REALITY's VLESS layer is not tested: a completed handshake counts as reachable.
        works: errorClass === 'ok' || errorClass === 'vless_untested',
        errorClass,
        totalMs: Math.min(result.totalMs, 600_000),
        planRevision: result.planRevision,
        observedAt: now,
      });
    }
    await this.reachability.observe(observations);
    return observations.length;
  }

  async list(ownerUuid: string): Promise<VantagePoint[]> {
    const since = new Date(this.clock.now().getTime() - 3600_000);
    const rows = await this.repository.listOwned(ownerUuid, since);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      country: row.country,
      asn: row.asn,
      asnName: row.asn === null ? null : this.reachability.asnName(row.asn),
      lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
      testsLastHour: row.testsLastHour,
    }));
  }

  async delete(ownerUuid: string, id: string): Promise<void> {
    if (!(await this.repository.deleteOwned(ownerUuid, id))) {
      throw new ReachabilityException('probe_not_found');
    }
  }

  private async seen(
    id: string,
    origin: CallOrigin,
  ): Promise<{ country: string | null; asn: number }> {
    const network = this.reachability.networkOf(origin.address);
    await this.repository.seen(
      id,
      {
        address: origin.address,
        country: network.country,
        asn: network.asn,
        agentVersion: origin.agentVersion,
      },
      this.clock.now(),
    );
    return { country: network.country, asn: network.asn ?? 0 };
  }
}

/** What a vantage point needs to test a server as its clients reach it. */
function endpointOf(target: ProbeTarget): ProbeEndpoint {
  const inbound = target.inbound;
  const security = inbound.security || 'none';
  const network = inbound.network || 'tcp';
  return {
    serverId: target.serverId,
    host: target.host,
    port: target.port,
    security,
    network,
    sni: inbound.sni ?? '',
    path: network === 'ws' ? inbound.path || '/' : '',
    certificateSha256: security === 'tls' ? (inbound.certificateSha256 ?? '') : '',
    probeUuid: target.probeUuid,
    planRevision: target.planRevision,
  };
}
