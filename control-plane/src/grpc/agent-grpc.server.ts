import { readFileSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import {
  AGENT_METADATA,
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceHandlers,
  GRPC_LOADER_OPTIONS,
  type ReportResponse,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { DrainCoordinator } from '../lifecycle/drain-coordinator';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { AgentAuthService, PresentedCredential } from '../agent-reports/agent-auth.service';
import { AgentReportsService, REPORT_INTERVAL_MS } from '../agent-reports/agent-reports.service';
import { ClientSetNotifier } from '../client-sets/client-set.notifier';
import type { ClientSet } from '../client-sets/client-sets.repository';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { EnrollmentService } from '../enrollment/enrollment.service';
import { nodeFqdn } from '../node-dns/node-host-name';
import {
  enrollRequestSchema,
  reportRequestSchema,
  TIER_BY_PROTO,
  watchClientsRequestSchema,
} from './agent-messages';
import { type AgentStreamKind, AgentMetrics } from './agent-metrics';
import {
  GrpcFailure,
  parseRequest,
  statusOf,
  tolerantDeserializers,
  toServiceError,
} from './grpc-errors';
import { probeHandlers } from './probe-handlers';
import { VantagePointsService } from '../reachability/vantage-points.service';
import { ReportRateLimiter, REPORT_BURST, REPORT_REFILL_MS } from './report-rate-limiter';

/**
 * How streams end when this replica shuts down: UNAVAILABLE is what agents take as "this control
 * plane is going away, reconnect (to another address when there is one)".
 */
export const SHUTDOWN_STATUS_DETAILS =
  'The control plane is shutting down: reconnect (to another of its addresses if it has several)';

/** What openStream() needs of a grpc-js server stream (server-streaming or bidirectional). */
interface ServerStream {
  end(): void;
  emit(event: 'error', error: Partial<grpc.ServiceError>): boolean;
  on(event: 'cancelled', listener: () => void): unknown;
}

/** A server stream as openStream() follows it. */
interface OpenStream {
  readonly closed: boolean;
  end(): void;
  fail(error: unknown): void;
}

/** Reports a stream may hold unanswered before it is ended (the agent waits for each answer). */
export const MAX_QUEUED_REPORTS = 8;

const PROTO_TIER = { tier1: 'TIER_1', tier2: 'TIER_2', tier3: 'TIER_3', tier4: 'TIER_4' } as const;

/**
 * The agent-facing gRPC server: Enroll, Report and the WatchClients push stream.
 * Malformed messages get INVALID_ARGUMENT, bad credentials UNAUTHENTICATED, another node's id
 * PERMISSION_DENIED; none of them changes state.
 */
@Injectable()
export class AgentGrpcServer implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('AgentGrpcServer');
  private server: grpc.Server | null = null;
  private boundPort = 0;
  /** Each open stream's way to end cleanly at shutdown (a report stream after its answer). */
  private readonly openStreams = new Set<() => void>();
  /** From the drain's start: streams end (new ones at once) with UNAVAILABLE. */
  private shuttingDown = false;
  private unregisterDrain: () => void = () => undefined;

  private readonly reportLimiter: ReportRateLimiter;

  constructor(
    private readonly enrollment: EnrollmentService,
    private readonly auth: AgentAuthService,
    private readonly reports: AgentReportsService,
    private readonly clientSets: ClientSetsService,
    private readonly notifier: ClientSetNotifier,
    private readonly probes: VantagePointsService,
    private readonly metrics: AgentMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) clock: Clock,
    private readonly drain: DrainCoordinator,
  ) {
    this.reportLimiter = new ReportRateLimiter(clock, config.agentReportBurst);
  }

  /** The port actually bound (GRPC_PORT=0 picks a free one, for tests). */
  get port(): number {
    return this.boundPort;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.grpcPort === null) return;
    const definition = protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS);
    const proto = grpc.loadPackageDefinition(definition) as unknown as AgentProtoGrpcType;
    const server = new grpc.Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
    server.addService(
      tolerantDeserializers(proto.scn.agent.v1.AgentService.service),
      this.handlers(),
    );
    const credentials =
      this.config.grpcTlsCert && this.config.grpcTlsKey
        ? grpc.ServerCredentials.createSsl(null, [
            {
              cert_chain: readFileSync(this.config.grpcTlsCert),
              private_key: readFileSync(this.config.grpcTlsKey),
            },
          ])
        : grpc.ServerCredentials.createInsecure();
    this.boundPort = await new Promise<number>((resolve, reject) =>
      server.bindAsync(
        `${this.config.grpcHost}:${this.config.grpcPort}`,
        credentials,
        (error, port) => (error ? reject(error) : resolve(port)),
      ),
    );
    this.server = server;
    this.unregisterDrain = this.drain.register({
      name: 'grpc',
      // Agents move on at once; unary calls (Enroll, Report) are still answered until stop.
      draining: () => this.endStreams(),
      stop: () => this.stop(server),
      force: () => server.forceShutdown(),
    });
    this.logger.log(
      { port: this.boundPort, tls: Boolean(this.config.grpcTlsCert) },
      this.config.grpcTlsCert
        ? 'Agent gRPC server listening (TLS)'
        : 'Agent gRPC server listening (plaintext: set GRPC_TLS_CERT and GRPC_TLS_KEY in production)',
    );
  }

  /**
   * After a drain this finds the server stopped; without one (app.close() in tests, a failed
   * start) it does the same in short: streams ended, calls in hand answered within 2 s.
   */
  async onApplicationShutdown(): Promise<void> {
    this.unregisterDrain();
    const server = this.server;
    if (!server) return;
    this.endStreams();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        server.forceShutdown();
        resolve();
      }, 2000);
      void this.stop(server).then(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Ends every open stream with UNAVAILABLE rather than cutting it (a report in hand is answered
   * first); from now on a new stream is ended so at once.
   */
  private endStreams(): void {
    this.shuttingDown = true;
    for (const end of [...this.openStreams]) end();
  }

  /** No new calls; resolves once the calls in hand are answered and the connections closed. */
  private stop(server: grpc.Server): Promise<void> {
    this.server = null;
    return new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  }

  /**
   * Follows a server stream until it ends, once: `end` with OK, `fail` with an error's status, or
   * the client cancels. `onShutdown` is how it ends when this server stops (by default at once,
   * with UNAVAILABLE); `onClose` runs once, whichever way it ended.
   */
  private openStream(
    kind: AgentStreamKind,
    call: ServerStream,
    { onShutdown, onClose }: { onShutdown?: () => void; onClose?: () => void } = {},
  ): OpenStream {
    let closed = false;
    const shutdown = onShutdown ?? (() => stream.fail(shutdownFailure()));
    const counted = this.metrics.streamOpened(kind);
    const close = (): boolean => {
      this.openStreams.delete(shutdown);
      if (closed) return false;
      closed = true;
      counted();
      onClose?.();
      return true;
    };
    const stream: OpenStream = {
      get closed() {
        return closed;
      },
      end: () => {
        if (close()) call.end();
      },
      // grpc-js ends a server stream with a status when the error is emitted on the call.
      fail: (error: unknown) => {
        if (close()) call.emit('error', toServiceError(error, this.logger));
      },
    };
    call.on('cancelled', close);
    // A stream opened during the drain is ended at once: the agent goes elsewhere.
    if (this.shuttingDown) shutdown();
    else this.openStreams.add(shutdown);
    return stream;
  }

  /** The credential in a call's metadata, or UNAUTHENTICATED when there is none. */
  private credentialOf(metadata: grpc.Metadata): PresentedCredential {
    const nodeId = metadata.get(AGENT_METADATA.nodeId)[0];
    const authorization = metadata.get(AGENT_METADATA.authorization)[0];
    const bearer =
      typeof authorization === 'string' ? /^Bearer\s+(\S+)$/i.exec(authorization)?.[1] : undefined;
    if (typeof nodeId !== 'string' || !bearer) {
      throw new GrpcFailure(
        grpc.status.UNAUTHENTICATED,
        `Missing ${AGENT_METADATA.nodeId} or bearer credential`,
      );
    }
    return new PresentedCredential(nodeId, bearer);
  }

  /**
   * One report, unary or on a stream: authenticated (the copy this process remembered may
   * answer: the write checks the row version), validated, applied.
   */
  private async report(
    credential: PresentedCredential,
    message: unknown,
    receivedAt: number,
  ): Promise<ReportResponse> {
    try {
      const response = await this.applyReport(credential, message, receivedAt);
      this.metrics.reportAccepted();
      return response;
    } catch (error) {
      this.metrics.reportRejected(statusOf(error));
      throw error;
    }
  }

  private async applyReport(
    credential: PresentedCredential,
    message: unknown,
    receivedAt: number,
  ): Promise<ReportResponse> {
    let server = await this.auth.authenticate(credential, { fresh: false });
    // Counted once the node is known: calls that only name a node cannot use up its allowance.
    const allowance = this.reportLimiter.take(server.id);
    if (!allowance.allowed) {
      throw new GrpcFailure(
        grpc.status.RESOURCE_EXHAUSTED,
        `Too many reports from this node: after a burst of ${REPORT_BURST}, one every ${REPORT_REFILL_MS / 1000} s (agents report every ${REPORT_INTERVAL_MS / 1000} s); retry in ${Math.ceil(allowance.retryAfterMs / 1000)} s`,
      );
    }
    const request = parseRequest(reportRequestSchema, message);
    // A node from before names gets its name with its first report here (ReportResponse.host_name).
    if (await this.reports.nameNode(server)) {
      server = await this.auth.authenticate(credential, { fresh: true });
    }
    const view = await this.reports.report(credential, server, request);
    return {
      accepted: true,
      serverTimeMs: String(Date.now()),
      reliability: view.reliability,
      available: view.available,
      nextReportIntervalMs: REPORT_INTERVAL_MS,
      handlingMs: Math.round(performance.now() - receivedAt),
      hostName: nodeFqdn(server.hostName, this.config.nodeDns?.domain),
    };
  }

  private handlers(): AgentServiceHandlers {
    return {
      ...probeHandlers(this.probes, this.logger),
      Enroll: (call, callback) => {
        let request: ReturnType<typeof enrollRequestSchema.parse>;
        try {
          request = parseRequest(enrollRequestSchema, call.request);
        } catch (error) {
          callback(toServiceError(error, this.logger));
          return;
        }
        const { enrollmentToken, tier, agentVersion, hardware, country, location } = request;
        const { requestedPort, core, publicHost } = request;
        this.enrollment
          .enroll({
            enrollmentToken,
            tier: TIER_BY_PROTO[tier],
            agentVersion,
            hardware: hardware!,
            country,
            location,
            requestedPort,
            core,
            publicHost,
          })
          .then(
            (enrollment) =>
              callback(null, {
                nodeId: enrollment.nodeId,
                nodeSecret: enrollment.nodeSecret,
                reportIntervalMs: REPORT_INTERVAL_MS,
                tier: PROTO_TIER[enrollment.tier],
                inboundPlan: enrollment.inboundPlan,
                hostName: nodeFqdn(enrollment.hostName, this.config.nodeDns?.domain),
              }),
            (error: unknown) => callback(toServiceError(error, this.logger)),
          );
      },

      Report: (call, callback) => {
        const receivedAt = performance.now();
        Promise.resolve()
          .then(() => this.report(this.credentialOf(call.metadata), call.request, receivedAt))
          .then(
            (response) => callback(null, response),
            (error: unknown) => callback(toServiceError(error, this.logger)),
          );
      },

      ReportStream: (call) => {
        // Reports are answered one at a time, in order; the first refusal ends the stream with
        // the status a unary Report would have failed with.
        let queued = 0;
        let chain: Promise<void> = Promise.resolve();
        // Presented once, when the stream opened; checked again for every report.
        let credential: PresentedCredential | undefined;
        let draining = false;
        // After the report in hand is answered: when the agent ends the stream, or at shutdown.
        const endWhenIdle = () => {
          draining = true;
          void chain.then(() => stream.end());
        };
        const failWhenIdle = () => {
          draining = true;
          void chain.then(() => stream.fail(shutdownFailure()));
        };
        const stream = this.openStream('report_stream', call, { onShutdown: failWhenIdle });
        call.on('data', (request: unknown) => {
          // Once draining, a report that arrives goes unanswered: the agent sends it again.
          if (stream.closed || draining) return;
          const receivedAt = performance.now();
          queued += 1;
          if (queued > MAX_QUEUED_REPORTS) {
            this.metrics.reportRejected(grpc.status.RESOURCE_EXHAUSTED);
            stream.fail(
              new GrpcFailure(
                grpc.status.RESOURCE_EXHAUSTED,
                `More than ${MAX_QUEUED_REPORTS} reports unanswered: wait for each answer`,
              ),
            );
            return;
          }
          chain = chain
            .then(async () => {
              if (stream.closed) return;
              credential ??= this.credentialOf(call.metadata);
              const response = await this.report(credential, request, receivedAt);
              queued -= 1;
              if (!stream.closed) call.write(response);
            })
            .catch(stream.fail);
        });
        call.on('end', endWhenIdle);
      },

      WatchClients: (call) => {
        let lastSent = -1n;
        let sentOnce = false;
        let unsubscribe: () => void = () => undefined;
        const stream = this.openStream('watch_clients', call, { onClose: () => unsubscribe() });
        // `resync`: LISTEN came back after an outage; send the current set even when its version
        // seems already sent (the agent ignores a version it holds, so this costs one message).
        const push = async (serverId: string, resync = false) => {
          const set: ClientSet | null = await this.clientSets.clientSet(serverId);
          if (stream.closed) return;
          if (!set) throw new GrpcFailure(grpc.status.NOT_FOUND, 'This node was deleted');
          const version = BigInt(set.version);
          // A node that holds no set (version 0) gets the current one even at version 0: it
          // carries the vantage points' UUID, which a server without clients must admit too.
          const neverApplied = lastSent === 0n && !sentOnce;
          if (version > lastSent || (resync && version === lastSent) || neverApplied) {
            sentOnce = true;
            lastSent = version;
            call.write({
              version: set.version,
              clientUuids: set.clientUuids,
              inboundPlan: set.inboundPlan,
            });
          }
        };
        Promise.resolve()
          .then(() => this.auth.authenticate(this.credentialOf(call.metadata), { fresh: true }))
          .then(async (server) => {
            if (stream.closed) return;
            lastSent = BigInt(parseRequest(watchClientsRequestSchema, call.request).knownVersion);
            unsubscribe = this.notifier.subscribe(
              server.id,
              (resync) => void push(server.id, resync).catch(stream.fail),
            );
            // The full set at once when the node's copy is older (or it has none): a reconnect converges.
            await push(server.id);
          })
          .catch(stream.fail);
      },
    };
  }
}

function shutdownFailure(): GrpcFailure {
  return new GrpcFailure(grpc.status.UNAVAILABLE, SHUTDOWN_STATUS_DETAILS);
}
