import { rm } from 'node:fs/promises';
import path from 'node:path';
import { type Clock, systemClock } from '../backoff';
import { CarriedTraffic } from './carried-traffic';
import type { CoreAuditResult } from './core-audit';
import {
  buildCoreConfig,
  normalizeClientUuids,
  writeCoreConfig,
  WS_SOCKET_FILE,
} from './core-config';
import {
  type CoreRuntime,
  type CoreTimings,
  DEFAULT_CORE_TIMINGS,
  SerialQueue,
} from './core-process';
import { CoreSupervisor } from './core-supervisor';
import { ownInterfaceCidrs, readSystemNameservers } from './destination-policy';
import type {
  ClientTrafficCounters,
  ProxyCore,
  ProxyCoreOptions,
  ProxyCoreStatus,
  VlessInboundSettings,
} from './proxy-core';
import { UserSetReconciler } from './user-set-reconciler';

/**
 * The agent's proxy core: Xray in production, Debian's v2ray 4.34 in tests (same config schema
 * and API; `options.kind` picks the binary's arguments and what the audit can see). Keeps its
 * VLESS users equal to the allowed set.
 *
 * Users added through the API vanish when the core restarts, so the allowed set is kept in two
 * places: the config file (rewritten on every change) and, after every start, the API. The
 * work is split: CoreSupervisor runs the process, UserSetReconciler its users, CarriedTraffic
 * the counters across deliberate restarts; this class holds the config and orders their calls
 * through one queue.
 */
export class XrayCore implements ProxyCore {
  private readonly options: ProxyCoreOptions;
  private readonly queue = new SerialQueue();
  private readonly supervisor: CoreSupervisor;
  private readonly users: UserSetReconciler;
  private readonly carried = new CarriedTraffic();
  private readonly clock: Clock;
  /** The own addresses and nameservers the config on disk was written with (see audit()). */
  private configuredAddresses: string[] = [];
  private configuredNameservers: string[] = [];

  constructor(
    options: ProxyCoreOptions,
    timings: Partial<CoreTimings> = {},
    runtime: Partial<CoreRuntime> = {},
  ) {
    // A copy: reconfigure() replaces its inbound.
    this.options = { ...options, inbound: { ...options.inbound } };
    this.clock = runtime.clock ?? systemClock;
    const allTimings = { ...DEFAULT_CORE_TIMINGS, ...timings };
    this.users = new UserSetReconciler({
      kind: options.kind,
      flow: () => this.options.inbound.flow ?? '',
      revocationCutMinIntervalMs: allTimings.revocationCutMinIntervalMs,
      clock: this.clock,
    });
    this.supervisor = new CoreSupervisor({
      kind: options.kind,
      binary: options.binary,
      apiPort: options.apiPort,
      timings: allTimings,
      queue: this.queue,
      runtime,
      prepare: () => this.prepareLaunch(),
      ready: (api) => this.users.coreStarted(api),
      crashed: () => this.carried.drop(),
    });
  }

  /**
   * Starts the core with the allowed set and supervises it. Resolves with state 'absent' (and
   * nothing running) when the binary does not exist; rejects, with state 'failed', when the
   * core exits or its API stays silent.
   */
  async start(allowedUuids: readonly string[]): Promise<void> {
    const desired = normalizeClientUuids(allowedUuids);
    return this.queue.run(async () => {
      this.users.setDesired(desired);
      // Already supervised: a second start only changes the set (the restart applies it).
      if ((await this.supervisor.start()) === 'supervised') await this.applyDesired();
    });
  }

  /** Terminates the core (SIGTERM, then SIGKILL) and waits for it to exit. */
  async stop(): Promise<void> {
    this.supervisor.beginStop();
    return this.queue.run(() => this.supervisor.stop());
  }

  /**
   * Makes the core's users exactly `allowedUuids`. The config file is rewritten first, so a crash
   * at any point restarts the core with the new set. While the core is not running only the
   * desired set changes: the next start applies it.
   */
  async reconcile(allowedUuids: readonly string[]): Promise<void> {
    const desired = normalizeClientUuids(allowedUuids);
    return this.queue.run(async () => {
      this.users.setDesired(desired);
      if (this.supervisor.state === 'absent') return;
      await this.applyDesired();
    });
  }

  /** Per-client counters since the core (re)started; empty while it is not running. */
  async traffic(): Promise<ClientTrafficCounters[]> {
    const api = this.supervisor.runningApi();
    if (!api) return [];
    return this.carried.addTo(await api.userTraffic(false));
  }

  status(): ProxyCoreStatus {
    return { ...this.supervisor.status(), kind: this.options.kind };
  }

  /**
   * Compares the core's real users with the desired set (core-audit.ts): removes users the
   * agent did not add, adds back desired users the core lost, and restarts the core from its
   * config file when someone else used the API, when a revoked client's open connections still
   * carry traffic (at most once per revocationCutMinIntervalMs), or when the node's addresses
   * changed (the routing rules must block the new ones).
   */
  async audit(): Promise<CoreAuditResult> {
    return this.queue.run(async () => {
      const result: CoreAuditResult = {
        at: '',
        mechanism: null,
        usersSeen: 0,
        foreignRemoved: [],
        restored: [],
        revokedStillConnected: [],
        reset: null,
        error: null,
      };
      const finish = () => ({ ...result, at: new Date(this.clock.now()).toISOString() });
      const api = this.supervisor.runningApi();
      if (!api) {
        result.error = `the core is ${this.supervisor.state}`;
        return finish();
      }
      if (await this.networkChanged()) {
        result.reset = 'network_changed';
        await this.resetCore();
        return finish();
      }
      Object.assign(result, await this.users.audit(api));
      if (result.reset) await this.resetCore();
      return finish();
    });
  }

  /**
   * Serves another inbound: the config is rewritten and a running (or restarting) core restarts
   * from it, users included; a stopped or absent core only keeps it for its next start. Rejects
   * when the core does not come up with it (the caller restores the previous inbound).
   */
  async reconfigure(inbound: VlessInboundSettings): Promise<void> {
    return this.queue.run(async () => {
      this.options.inbound = { ...inbound };
      const state = this.supervisor.state;
      if (state === 'absent' || state === 'stopped') return;
      await this.resetCore();
    });
  }

  /** The core's process id while it runs (doctor, tests). */
  pid(): number | undefined {
    return this.supervisor.pid();
  }

  /** The last lines the core printed, for error reports. */
  recentOutput(): string {
    return this.supervisor.recentOutput();
  }

  /** Rewrites the config with the desired set, then brings a running core's users in line. */
  private async applyDesired(): Promise<void> {
    await this.writeConfig();
    const api = this.supervisor.runningApi();
    if (api) await this.users.apply(api);
  }

  /**
   * Restarts the core from its config file (exactly the desired users, nothing added through
   * the API survives), cutting every open connection; its counters so far carry over.
   */
  private async resetCore(): Promise<void> {
    const before = await this.traffic().catch(() => null);
    this.carried.carry(before ?? []);
    await this.supervisor.restart();
  }

  private async prepareLaunch(): Promise<string> {
    const configFile = await this.writeConfig();
    // A core killed before it closed its ws socket leaves the file behind, and the next one
    // could not listen there; no core runs now (launches are serialized), so it is stale.
    await rm(path.join(this.options.workDir, WS_SOCKET_FILE), { force: true });
    return configFile;
  }

  private async writeConfig(): Promise<string> {
    this.configuredAddresses = this.readOwnAddresses();
    this.configuredNameservers = await this.readNameservers();
    const config = buildCoreConfig({
      kind: this.options.kind,
      inbound: this.options.inbound,
      apiPort: this.options.apiPort,
      allowedUuids: this.users.desired,
      allowPrivateDestinations: this.options.allowPrivateDestinations,
      allowedDestinationCidrs: this.options.allowedDestinationCidrs,
      dnsHosts: this.options.dnsHosts,
      fallbackDest: this.options.fallbackDest,
      socketDir: this.options.workDir,
      ownAddresses: this.configuredAddresses,
      nameservers: this.configuredNameservers,
    });
    return writeCoreConfig(this.options.workDir, config);
  }

  /** Whether the node's addresses or nameservers moved since the config was written. */
  private async networkChanged(): Promise<boolean> {
    return (
      this.readOwnAddresses().join(',') !== this.configuredAddresses.join(',') ||
      (await this.readNameservers()).join(',') !== this.configuredNameservers.join(',')
    );
  }

  private async readNameservers(): Promise<string[]> {
    return (this.options.nameservers ?? readSystemNameservers)();
  }

  private readOwnAddresses(): string[] {
    const read =
      this.options.ownAddresses ??
      (() => ownInterfaceCidrs(undefined, this.options.allowedDestinationCidrs ?? []));
    return [...read()].sort();
  }
}
