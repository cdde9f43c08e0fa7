import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { buildVlessLink, parseVlessLink, UPLOAD_SERVER_MESSAGES, type VlessLink } from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import type { RateLimitRule } from '../rate-limit/rate-limit.rules';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import type { ServerEntity } from '../nodes/entities/server.entity';
import { NodesException } from '../nodes/nodes.exception';
import { NodesRepository } from '../nodes/nodes.repository';
import { reliabilityStateOf } from '../nodes/server-reliability';
import {
  applyReport,
  initialReliability,
  type ReliabilityState,
  viewReliability,
} from '../reliability/reliability';
import { ManualServerCheck } from './manual-server-check';
import { type CheckColumns, ManualServersRepository } from '../nodes/manual-servers.repository';

/** Checks run by uploads, per operator: each one makes the control plane connect out. */
const UPLOAD_CHECKS_PER_HOUR = 30;
/** Servers checked at once by the minute sweep. */
const SWEEP_CONCURRENCY = 16;

/**
 * The shapes a server without the agent can have: what the check can verify (VLESS over TCP,
 * security none or tls) and what the shared link can serve as it is (no flow: XTLS Vision
 * needs the client and server to agree on it; REALITY needs keys the check does not speak).
 */
export function supportedManualLink(link: VlessLink): boolean {
  const { type, security, flow, encryption } = link.params;
  return (
    (type ?? 'tcp') === 'tcp' &&
    ['none', 'tls'].includes(security ?? 'none') &&
    !flow &&
    (encryption ?? 'none') === 'none'
  );
}

/**
 * Add New Server (docs/product/input-rules.md#dashboard-input): a VLESS server the operator runs without our agent.
 * Its address must be public, it must pass a real VLESS check with the link's UUID before it is
 * stored and listed, and the minute sweep checks it again (a pass counts as a fresh report,
 * docs/product/states.md#subscription-and-reliability-states). It is listed free, with the operator's one UUID shared by its clients, and
 * earns nothing (subscription-pricing.ts): paying and earning need the agent.
 */
@Injectable()
export class ManualServersService {
  constructor(
    private readonly repository: ManualServersRepository,
    private readonly nodes: NodesRepository,
    private readonly checks: ManualServerCheck,
    private readonly rateLimits: RateLimitService,
    private readonly realtime: RealtimeGateway,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async upload(
    ownerUuid: string,
    vlessString: string,
    name: string | undefined,
  ): Promise<ServerEntity> {
    const link = parseVlessLink(vlessString);
    if (!link) throw new NodesException('vless_invalid');
    if (!supportedManualLink(link)) throw new NodesException('manual_unsupported');
    const limit = this.config.manualServersPerOperator;
    const tooMany = () => new NodesException('manual_limit', UPLOAD_SERVER_MESSAGES.limit(limit));
    if ((await this.repository.countOwned(ownerUuid)) >= limit) {
      throw tooMany();
    }
    // Refused addresses are refused before anything is sent, and before the rate limit counts.
    const pinned = await this.checks.pin(link.host);
    if (!pinned.ok) throw new NodesException(pinned.code, pinned.message);
    await this.rateLimits.consume(this.uploadRule(ownerUuid));
    // The check connects to the address just checked, never to the name again (DNS rebinding).
    const outcome = await this.checks.checkPinned(link, pinned.addresses);
    if (!outcome.ok) throw new NodesException(outcome.code, outcome.message);

    const now = this.clock.now();
    const id = randomUUID();
    const serverName = name?.trim() || link.name || UPLOAD_SERVER_MESSAGES.defaultName;
    const inserted = await this.repository.insertWithinLimit(
      {
        id,
        ownerUuid,
        name: serverName,
        source: 'manual',
        tier: null,
        secretHash: null,
        host: link.host,
        port: link.port,
        inbound: {
          security: link.params.security ?? 'none',
          sni: link.params.sni ?? '',
          fp: link.params.fp ?? '',
          pbk: '',
          sid: '',
          flow: '',
          network: 'tcp',
        },
        vlessString: buildVlessLink({ ...link, name: serverName }),
        // The check passed just now: docs/product/input-rules.md#dashboard-input adds the server at reliability 100.
        ...initialReliability(now),
        pingMs: outcome.connectMs,
        checkedAt: now,
        checkError: null,
      },
      limit,
    );
    if (!inserted) throw tooMany();
    this.realtime.serverListUpdated('added');
    const created = await this.nodes.findServer(id);
    if (!created) throw new NodesException('server_not_found');
    return created;
  }

  /**
   * The minute job's checks (ManualServerCheckJob; docs/product/states.md#subscription-and-reliability-states: a server found working counts as a fresh report).
   * The first pass lists the server at 100; later passes earn +2 like reports; a failure is
   * recorded for the dashboard and the score ages with the clock. Returns the servers that passed.
   */
  async checkAll(): Promise<number> {
    const queue = await this.repository.listForCheck();
    let passed = 0;
    let availabilityChanged = false;
    const worker = async () => {
      for (let server = queue.shift(); server; server = queue.shift()) {
        const link = server.vlessString ? parseVlessLink(server.vlessString) : null;
        // A link added before the check existed may be a shape it cannot verify (REALITY, ws,
        // flow): it fails, saying so, without a connection.
        const outcome =
          link && supportedManualLink(link)
            ? await this.checks.check(link)
            : ({
                ok: false,
                code: 'manual_check_failed',
                message: link
                  ? UPLOAD_SERVER_MESSAGES.unsupported
                  : UPLOAD_SERVER_MESSAGES.vlessInvalid,
              } as const);
        const now = this.clock.now();
        const before = viewReliability(reliabilityStateOf(server), now);
        let columns: CheckColumns;
        if (outcome.ok) {
          passed += 1;
          const state =
            server.lastReportAt === null
              ? initialReliability(now)
              : applyReport(reliabilityStateOf(server), 'ok', now);
          columns = { ...state, pingMs: outcome.connectMs, checkedAt: now, checkError: null };
        } else {
          columns = { checkedAt: now, checkError: outcome.message.slice(0, 200) };
        }
        await this.repository.writeCheck(server.id, columns);
        const after = viewReliability(
          { ...reliabilityStateOf(server), ...columns } as ReliabilityState,
          now,
        );
        if (before.available !== after.available || before.hidden !== after.hidden) {
          availabilityChanged = true;
        }
      }
    };
    await Promise.all(Array.from({ length: SWEEP_CONCURRENCY }, worker));
    if (availabilityChanged) this.realtime.serverListUpdated('availability');
    return passed;
  }

  private uploadRule(ownerUuid: string): RateLimitRule[] {
    return [
      { bucket: `manual-check:${ownerUuid}`, limit: UPLOAD_CHECKS_PER_HOUR, windowSeconds: 3600 },
    ];
  }
}
