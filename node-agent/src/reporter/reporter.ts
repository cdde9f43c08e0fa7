import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type {
  ProxyCoreState as ProtoCoreState,
  ReportRequest,
  ReportResponse__Output,
} from '@scn/proto';
import {
  type BackoffOptions,
  backoffDelay,
  type Clock,
  realTimers,
  systemClock,
  type Timers,
} from '../backoff';
import type { AgentConfigStore, AgentInbound, LastReportSummary } from '../config/agent-config';
import { certificateSource } from '../certificates/certificate-plan';
import { type CertificatePins, certificatePins } from '../proxy-core/tls-certificate';
import type { ProxyCore, ProxyCoreState } from '../proxy-core/proxy-core';
import { type HardwareSummary, toProtoHardware } from '../system/hardware';
import { type TrafficBatch, TrafficBatches } from './traffic-batch';

const CORE_STATE: Record<ProxyCoreState, ProtoCoreState> = {
  running: 'PROXY_CORE_STATE_RUNNING',
  stopped: 'PROXY_CORE_STATE_STOPPED',
  restarting: 'PROXY_CORE_STATE_RESTARTING',
  failed: 'PROXY_CORE_STATE_FAILED',
  absent: 'PROXY_CORE_STATE_ABSENT',
};

export interface ReportSender {
  report(request: ReportRequest): Promise<ReportResponse__Output>;
  /** The control plane endpoint that answered the last report (one of its replicas). */
  readonly lastAnswered?: { target: string } | null;
}

export interface ReporterOptions {
  client: ReportSender;
  store: AgentConfigStore;
  /** null: no proxy core on this machine (reported as ABSENT). */
  core: ProxyCore | null;
  agentVersion: string;
  hardware: () => Promise<HardwareSummary>;
  uptimeSeconds?: () => number;
  clock?: Clock;
  timers?: Timers;
  /** Retry delays after a failed report; the cap never exceeds the report interval. */
  backoff?: BackoffOptions;
  log?: (message: string) => void;
  /** New traffic batch ids (default: random UUIDs). */
  batchId?: () => string;
  /** The control plane named the node (ReportResponse.host_name changed; '' : no name). */
  onHostName?: (hostName: string) => void;
}

/** One report, and what to remember once the control plane answered it. */
export interface PreparedReport {
  request: ReportRequest;
  activeClients: number;
  /** The report was answered; `accepted`: its traffic batch was applied (see TrafficBatches). */
  commit(accepted: boolean): void;
}

interface ReportedCertificate {
  pem: string;
  pins: CertificatePins;
  /** The PEM when this report carries it, else ''. */
  sendPem: string;
}

/**
 * The inbound as the report carries it (VlessInbound): only the fields of the security and
 * network that run, so a link never mixes a REALITY key into a TLS inbound.
 */
export function reportedInbound(
  inbound: AgentInbound,
  certificate: Pick<ReportedCertificate, 'pins' | 'sendPem'> | null,
): NonNullable<ReportRequest['inbound']> {
  const reality = inbound.security === 'reality';
  const tls = inbound.security === 'tls' && certificate !== null;
  const source = tls ? certificateSource(inbound) : '';
  // Only the agent's own certificate is pinned: a CA-issued one is verified by name.
  const pinned = tls && source === 'self_signed';
  return {
    security: inbound.security,
    network: inbound.network,
    sni: inbound.security === 'none' ? '' : (inbound.sni ?? ''),
    fp: inbound.security === 'none' ? '' : (inbound.fp ?? ''),
    pbk: reality ? (inbound.pbk ?? '') : '',
    sid: reality ? (inbound.sid ?? '') : '',
    flow: inbound.flow ?? '',
    path: inbound.network === 'ws' ? (inbound.path ?? '') : '',
    serviceName: inbound.network === 'grpc' ? (inbound.serviceName ?? '') : '',
    certificateSha256: pinned ? certificate.pins.certificateSha256 : '',
    publicKeySha256: pinned ? certificate.pins.publicKeySha256 : '',
    planRevision: inbound.planRevision,
    certificatePem: pinned ? certificate.sendPem : '',
    certificateSource: source,
    certificateName: tls ? firstName(certificate.pins.subjectAltName) : '',
    certificateNotAfterMs: tls ? String(Date.parse(certificate.pins.notAfter)) : '0',
    certificateProblem: tls && source === 'self_signed' ? (inbound.certificateProblem ?? '') : '',
  };
}

/** `DNS:a.example, IP Address:1.2.3.4` → `a.example`. */
function firstName(subjectAltName: string): string {
  const first = subjectAltName.split(',')[0]?.trim() ?? '';
  return first.replace(/^(DNS|IP Address):/, '');
}

const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 5_000, maxMs: 300_000 };

/**
 * Unchanged hardware is left out of reports (the control plane keeps what it stored), but sent
 * again after this long, so a stored copy is never older than this whatever happened to it.
 */
export const HARDWARE_RESEND_MS = 3_600_000;

/**
 * The network alone in a report's round trip: less the time the control plane held the report
 * (batching, its database commit), so a busy control plane does not read as a slow node.
 */
export function networkMs(
  roundTripMs: number,
  response: Pick<ReportResponse__Output, 'handlingMs'>,
): number {
  return Math.max(0, roundTripMs - response.handlingMs);
}

/** A measured network time as a report's `ping_ms` carries it: whole milliseconds, 1 to 60,000. */
export function pingField(networkMs: number): number {
  return Math.min(60_000, Math.max(1, Math.round(networkMs)));
}

/**
 * The periodic health report (docs/product/states.md#subscription-and-reliability-states, docs/product/constants.md#billing-and-the-economy). v2ray 4.34 has no online-user count, so "active
 * clients" are the clients whose traffic the report carries: its traffic batch, the counters'
 * movement since the last accepted batch (traffic-batch.ts). A batch is sent again, unchanged,
 * until a report carrying it is accepted, so traffic measured while the control plane was down
 * is still reported when it returns, and a resend after a lost answer is not added twice.
 */
export class Reporter {
  private readonly traffic: TrafficBatches;
  /** The round trip of the previous report (none yet after a start). */
  private lastPingMs: number | null = null;
  /** The hardware the control plane last accepted from this process, and when (see prepare()). */
  private acceptedHardware: { json: string; at: number } | null = null;
  private failures = 0;
  private timer: unknown = null;
  private running = false;
  private inFlight: Promise<void> | null = null;
  /** reportNow() was called while a report was in flight: another follows it at once. */
  private again = false;
  /** The certificate PEM the control plane last accepted from this process (see prepare()). */
  private acceptedCertificatePem: string | null = null;
  private certificateCache: { file: string; pem: string; pins: CertificatePins } | null = null;
  private readonly clock: Clock;
  private readonly timers: Timers;

  constructor(private readonly options: ReporterOptions) {
    this.clock = options.clock ?? systemClock;
    this.timers = options.timers ?? realTimers;
    this.traffic = new TrafficBatches(options.batchId);
  }

  async prepare(): Promise<PreparedReport> {
    const config = this.options.store.current;
    const core = this.options.core;
    const status = core?.status();
    let clientCountFailed = false;
    let batch: TrafficBatch | null = null;
    if (!core || status?.state === 'absent') {
      // Nothing to count: no clients can be served, which is not a counting failure. A batch
      // counted before the core went away is still sent.
      batch = this.traffic.next([]);
    } else {
      try {
        batch = this.traffic.next(await core.traffic());
      } catch (error) {
        // docs/product/states.md#subscription-and-reliability-states: the control plane scores a failed count -10; say so rather than guess. Such
        // a report's traffic is not stored, so a pending batch waits for the next report.
        clientCountFailed = true;
        this.options.log?.(`client count failed: ${(error as Error).message}`);
      }
    }
    const moved = batch?.clients ?? [];
    // Hardware rarely changes (a resize), and each copy costs the control plane a JSON document
    // to check and store: it goes in this process's first report, when it changed since the
    // last accepted one, and at least every HARDWARE_RESEND_MS.
    const hardware = toProtoHardware(await this.options.hardware());
    const hardwareJson = JSON.stringify(hardware);
    const now = this.clock.now();
    const accepted = this.acceptedHardware;
    const sendHardware =
      accepted === null ||
      accepted.json !== hardwareJson ||
      now - accepted.at >= HARDWARE_RESEND_MS;
    // The self-signed certificate's PEM, like hardware: in this process's first report and
    // whenever it changed since the last accepted one (its pins go in every report).
    const certificate = await this.readCertificate();
    const sendPem =
      certificate !== null && certificate.pem !== this.acceptedCertificatePem
        ? certificate.pem
        : '';
    if (certificate) certificate.sendPem = sendPem;
    const request: ReportRequest = {
      agentVersion: this.options.agentVersion,
      hardware: sendHardware ? hardware : null,
      uptimeSeconds: String(Math.floor(this.options.uptimeSeconds?.() ?? os.uptime())),
      proxyCore: {
        state: CORE_STATE[status?.state ?? 'absent'],
        name: status?.kind ?? config.core.kind,
        version: status?.version ?? '',
        restartCount: status?.restartCount ?? 0,
      },
      activeClients: moved.length,
      clientCountFailed,
      clientTraffic: moved.map((m) => ({
        clientUuid: m.clientUuid,
        uplinkBytes: m.up.toString(),
        downlinkBytes: m.down.toString(),
      })),
      // 0 says "not measured yet"; a measured round trip is at least 1 ms.
      pingMs: this.lastPingMs === null ? 0 : pingField(this.lastPingMs),
      publicHost: config.publicHost,
      publicPort: config.publicPort,
      inbound: reportedInbound(config.inbound, certificate),
      appliedClientSetVersion: config.appliedClientSetVersion,
      trafficBatchId: batch?.id ?? '',
    };
    return {
      request,
      activeClients: moved.length,
      commit: (accepted) => {
        if (accepted && batch) this.traffic.accepted(batch);
        if (sendHardware) this.acceptedHardware = { json: hardwareJson, at: now };
        if (sendPem) this.acceptedCertificatePem = sendPem;
      },
    };
  }

  /** Keeps the node's name the control plane gave, and says so when it changed. */
  private async rememberHostName(hostName: string): Promise<void> {
    if (hostName === (this.options.store.current.hostName ?? '')) return;
    await this.options.store.update((config) => {
      const { hostName: _previous, ...rest } = config;
      return hostName ? { ...rest, hostName } : rest;
    });
    this.options.onHostName?.(hostName);
  }

  /**
   * The TLS certificate and its pins (null without one: REALITY or no TLS); only a self-signed
   * one is pinned (reportedInbound). Parsed again only when the file changed.
   */
  private async readCertificate(): Promise<ReportedCertificate | null> {
    const inbound = this.options.store.current.inbound;
    if (inbound.security !== 'tls' || !inbound.certificateFile) return null;
    const file = inbound.certificateFile;
    try {
      const pem = await readFile(file, 'utf8');
      const cached = this.certificateCache;
      const pins =
        cached && cached.file === file && cached.pem === pem ? cached.pins : certificatePins(pem);
      this.certificateCache = { file, pem, pins };
      return { pem, pins, sendPem: '' };
    } catch (error) {
      this.options.log?.(`cannot read the certificate ${file}: ${(error as Error).message}`);
      return null;
    }
  }

  /**
   * Reports as soon as possible, not at the next interval (a new inbound: the control plane
   * should learn it in seconds). After a report in flight, one more follows it.
   */
  reportNow(): void {
    if (!this.running) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.tick();
  }

  /** Sends one report and records the outcome in the config file; throws when it failed. */
  async reportOnce(): Promise<ReportResponse__Output> {
    const prepared = await this.prepare();
    const started = this.clock.now();
    const previous = this.options.store.current.lastReport;
    const coreState = this.options.core?.status().state ?? 'absent';
    try {
      const response = await this.options.client.report(prepared.request);
      const finished = this.clock.now();
      const pingMs = networkMs(finished - started, response);
      this.lastPingMs = pingMs;
      prepared.commit(response.accepted);
      const summary: LastReportSummary = {
        at: new Date(finished).toISOString(),
        accepted: response.accepted,
        reliability: response.reliability,
        available: response.available,
        error: null,
        activeClients: prepared.activeClients,
        proxyCoreState: coreState,
        pingMs,
        ...(this.options.client.lastAnswered
          ? { endpoint: this.options.client.lastAnswered.target }
          : {}),
        // serverTimeMs was read as the answer left, half a network round trip ago.
        clockSkewMs: Math.round(finished - pingMs / 2 - Number(response.serverTimeMs)),
      };
      await this.record(summary, response.nextReportIntervalMs);
      await this.rememberHostName(response.hostName ?? '');
      return response;
    } catch (error) {
      const service = error as { details?: string; message?: string };
      await this.record({
        at: new Date(this.clock.now()).toISOString(),
        accepted: false,
        reliability: previous?.reliability ?? null,
        available: previous?.available ?? null,
        error: service.details || service.message || String(error),
        activeClients: prepared.activeClients,
        proxyCoreState: coreState,
        clockSkewMs: previous?.clockSkewMs,
      }).catch(() => undefined);
      throw error;
    }
  }

  private record(summary: LastReportSummary, nextIntervalMs?: number): Promise<void> {
    return this.options.store.update((config) => ({
      ...config,
      lastReport: summary,
      reportIntervalMs:
        nextIntervalMs && nextIntervalMs >= 1000 ? nextIntervalMs : config.reportIntervalMs,
    }));
  }

  /** Delay before the next attempt: the interval after a success, capped backoff after failures. */
  nextDelay(): number {
    const interval = this.options.store.current.reportIntervalMs;
    if (this.failures === 0) return interval;
    const backoff = this.options.backoff ?? DEFAULT_BACKOFF;
    return backoffDelay(this.failures - 1, {
      ...backoff,
      maxMs: Math.min(backoff.maxMs, interval),
    });
  }

  /**
   * The control plane answered something (a report, a client stream message): a report waiting
   * out its backoff goes at once, since the control plane is back.
   */
  contactSucceeded(): void {
    if (this.failures === 0) return;
    this.failures = 0;
    if (this.running && !this.inFlight && this.timer !== null) {
      this.timers.clearTimeout(this.timer);
      this.tick();
    }
  }

  /**
   * The agent moved to another control plane endpoint (its replica failed): the new one learns
   * of the node at once. While reports are failing already, their backoff decides.
   */
  endpointChanged(): void {
    if (this.failures === 0) this.reportNow();
  }

  /** Reports now, then every interval; failures retry with backoff. The core is never touched. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.tick();
  }

  private tick(): void {
    this.timer = null;
    if (!this.running) return;
    this.inFlight = this.reportOnce()
      .then(
        () => {
          this.failures = 0;
        },
        (error: unknown) => {
          this.failures += 1;
          const service = error as { details?: string; message?: string };
          this.options.log?.(
            `report failed (${service.details || service.message}); retry ${this.failures}`,
          );
        },
      )
      .finally(() => {
        this.inFlight = null;
        const again = this.again;
        this.again = false;
        if (this.running) {
          this.timer = this.timers.setTimeout(() => this.tick(), again ? 0 : this.nextDelay());
        }
      });
  }

  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.inFlight;
  }
}
