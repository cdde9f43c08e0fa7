import { type ChildProcess, spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { CoreApiClient } from './core-api';
import {
  auditCoreUsers,
  type CoreAuditResult,
  readRemovedBaselines,
  type RemovedClients,
} from './core-audit';
import {
  buildCoreConfig,
  normalizeClientUuids,
  VLESS_INBOUND_TAG,
  writeCoreConfig,
  WS_SOCKET_FILE,
} from './core-config';
import { ownInterfaceCidrs, readSystemNameservers } from './destination-policy';
import {
  binaryExists,
  CONFIG_ERRORS,
  DEFAULT_V2RAY_CORE_TIMINGS,
  delay,
  addCounters,
  OutputTail,
  readCoreVersion,
  type V2rayCoreTimings,
} from './core-process';
import { ProxyCoreException } from './proxy-core.exception';
import type {
  ClientTrafficCounters,
  ProxyCore,
  ProxyCoreOptions,
  ProxyCoreState,
  ProxyCoreStatus,
  VlessInboundSettings,
} from './proxy-core';

// Kept importable from here: callers knew them as V2rayCore's.
export {
  DEFAULT_V2RAY_CORE_TIMINGS,
  parseCoreVersion,
  type V2rayCoreTimings,
} from './core-process';

/**
 * Runs and supervises the proxy core (v2ray 4.34 or Xray: same config schema and API) and keeps
 * its VLESS users equal to the allowed set.
 *
 * Users added through the API vanish when the core restarts, so the allowed set is kept in two
 * places: the config file (rewritten on every change) and, after every start, the API.
 */
export class V2rayCore implements ProxyCore {
  private readonly options: ProxyCoreOptions;
  private readonly timings: V2rayCoreTimings;
  private state: ProxyCoreState = 'stopped';
  private version = '';
  private restartCount = 0;
  /** What the control plane wants. */
  private desired: string[] = [];
  /** What the running core has, as far as the agent knows. */
  private applied = new Set<string>();
  private child: ChildProcess | undefined;
  private api: CoreApiClient | undefined;
  private stopping = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private restartDelayMs: number;
  private startedAt = 0;
  private readonly output = new OutputTail();
  /**
   * Clients the agent removed since the core started, with their traffic counters just after
   * the removal (null until read). v2ray keeps a removed user's counters, and they still move
   * while connections the user opened before the removal carry traffic (see audit()).
   */
  private removedSinceStart: RemovedClients = new Map();
  private lastRevocationCutAt = 0;
  /** Per-client counters of the core runs before the last deliberate restart (traffic()). */
  private carried = new Map<string, ClientTrafficCounters>();
  /** The own addresses the config on disk blocks (see audit()). */
  private configuredAddresses: string[] = [];
  private configuredNameservers: string[] = [];
  /** Serializes start, restart, reconcile and stop: each reads and writes `applied`. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(options: ProxyCoreOptions, timings: Partial<V2rayCoreTimings> = {}) {
    // A copy: reconfigure() replaces its inbound.
    this.options = { ...options, inbound: { ...options.inbound } };
    this.timings = { ...DEFAULT_V2RAY_CORE_TIMINGS, ...timings };
    this.restartDelayMs = this.timings.restartInitialDelayMs;
  }

  /**
   * Starts the core with the allowed set and supervises it. Resolves with state 'absent' (and
   * nothing running) when the binary does not exist; rejects, with state 'failed', when the
   * core exits or its API stays silent.
   */
  async start(allowedUuids: readonly string[]): Promise<void> {
    const desired = normalizeClientUuids(allowedUuids);
    return this.serialized(async () => {
      this.desired = desired;
      this.stopping = false;
      // Already supervised: a second start only changes the set (the restart applies it).
      if (this.state === 'running' || this.state === 'restarting') {
        await this.writeConfig();
        if (this.state === 'running') await this.applyDesired();
        return;
      }
      if (!(await binaryExists(this.options.binary))) {
        this.state = 'absent';
        return;
      }
      this.version = await readCoreVersion(this.options.kind, this.options.binary);
      try {
        await this.launch();
      } catch (error) {
        this.state = 'failed';
        // A core that crashed or stayed silent on its first start is retried like one that
        // died later (a port still held by the old core, a slow disk); a config refused by our
        // own checks (REALITY on v2ray, a missing key) would fail the same way every time.
        if (!(error instanceof ProxyCoreException && CONFIG_ERRORS.has(error.code))) {
          this.scheduleRestart();
        }
        throw error;
      }
    });
  }

  /** Terminates the core (SIGTERM, then SIGKILL) and waits for it to exit. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    return this.serialized(async () => {
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      await this.terminateChild();
      if (this.state !== 'absent') this.state = 'stopped';
    });
  }

  /**
   * Makes the core's users exactly `allowedUuids`. The config file is rewritten first, so a crash
   * at any point restarts the core with the new set. While the core is not running only the
   * desired set changes: the next start applies it.
   */
  async reconcile(allowedUuids: readonly string[]): Promise<void> {
    const desired = normalizeClientUuids(allowedUuids);
    return this.serialized(async () => {
      this.desired = desired;
      if (this.state === 'absent') return;
      await this.writeConfig();
      if (this.state === 'running') await this.applyDesired();
    });
  }

  /** Per-client counters since the core (re)started; empty while it is not running. */
  async traffic(): Promise<ClientTrafficCounters[]> {
    if (this.state !== 'running' || !this.api) return [];
    // Counters the core had before a deliberate restart are added back, so a reset by the
    // audit does not look like less traffic to the reporter (a crash still restarts them at 0).
    return addCounters(await this.api.userTraffic(false), this.carried.values());
  }

  status(): ProxyCoreStatus {
    return {
      state: this.state,
      kind: this.options.kind,
      version: this.version,
      restartCount: this.restartCount,
    };
  }

  /**
   * Compares the core's real users with the desired set (core-audit.ts): removes users the
   * agent did not add, adds back desired users the core lost, and restarts the core from its
   * config file when someone else used the API, when a revoked client's open connections still
   * carry traffic (at most once per revocationCutMinIntervalMs), or when the node's addresses
   * changed (the routing rules must block the new ones).
   */
  async audit(): Promise<CoreAuditResult> {
    return this.serialized(async () => {
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
      const finish = () => ({ ...result, at: new Date().toISOString() });
      const api = this.api;
      if (this.state !== 'running' || !api) {
        result.error = `the core is ${this.state}`;
        return finish();
      }
      const changed =
        this.readOwnAddresses().join(',') !== this.configuredAddresses.join(',') ||
        (await this.readNameservers()).join(',') !== this.configuredNameservers.join(',');
      if (changed) {
        result.reset = 'network_changed';
        await this.resetCore();
        return finish();
      }
      Object.assign(
        result,
        await auditCoreUsers({
          kind: this.options.kind,
          api,
          desired: this.desired,
          flow: this.options.inbound.flow ?? '',
          removedSinceStart: this.removedSinceStart,
          applied: this.applied,
        }),
      );
      if (result.foreignRemoved.length > 0) result.reset = 'foreign_users';
      else if (
        result.revokedStillConnected.length > 0 &&
        Date.now() - this.lastRevocationCutAt >= this.timings.revocationCutMinIntervalMs
      ) {
        result.reset = 'revoked_client_still_connected';
        this.lastRevocationCutAt = Date.now();
      }
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
    return this.serialized(async () => {
      this.options.inbound = { ...inbound };
      if (this.state === 'absent' || this.state === 'stopped') return;
      clearTimeout(this.restartTimer);
      this.restartTimer = undefined;
      await this.resetCore();
    });
  }

  /** The core's process id while it runs (doctor, tests). */
  pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the core printed, for error reports. */
  recentOutput(): string {
    return this.output.text();
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

  private serialized<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async writeConfig(): Promise<string> {
    this.configuredAddresses = this.readOwnAddresses();
    this.configuredNameservers = await this.readNameservers();
    const config = buildCoreConfig({
      kind: this.options.kind,
      inbound: this.options.inbound,
      apiPort: this.options.apiPort,
      allowedUuids: this.desired,
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

  /** Writes the config, spawns the core, waits for its API and applies the full allowed set. */
  private async launch(): Promise<void> {
    const configFile = await this.writeConfig();
    // A core killed before it closed its ws socket leaves the file behind, and the next one
    // could not listen there; no core runs now (launches are serialized), so it is stale.
    await rm(path.join(this.options.workDir, WS_SOCKET_FILE), { force: true });
    const args =
      this.options.kind === 'v2ray' ? ['-config', configFile] : ['run', '-config', configFile];
    this.output.clear();
    const child = spawn(this.options.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout?.on('data', (chunk: Buffer) => this.output.keep(chunk));
    child.stderr?.on('data', (chunk: Buffer) => this.output.keep(chunk));
    const exited = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.onChildExit(child, code, signal);
        resolve();
      });
      // A failed spawn emits 'error' and possibly no 'exit'.
      child.once('error', (error) => {
        this.output.keep(Buffer.from(String(error)));
        resolve();
      });
    });

    this.api?.close();
    const api = new CoreApiClient({ kind: this.options.kind, apiPort: this.options.apiPort });
    this.api = api;
    try {
      await this.waitUntilReady(api, exited);
      // The config already lists the allowed users; re-adding them through the API confirms the
      // core really has them (an existing user counts as success).
      this.applied = new Set(this.desired);
      await this.applyDesired(true);
    } catch (error) {
      await this.terminateChild();
      throw error;
    }
    this.startedAt = Date.now();
    this.removedSinceStart.clear();
    this.state = 'running';
  }

  private async waitUntilReady(api: CoreApiClient, exited: Promise<void>): Promise<void> {
    const deadline = Date.now() + this.timings.readyTimeoutMs;
    let hasExited = false;
    void exited.then(() => (hasExited = true));
    for (;;) {
      if (hasExited) {
        throw new ProxyCoreException(
          'core_exited',
          `The ${this.options.kind} core exited while starting:\n${this.recentOutput()}`,
        );
      }
      try {
        await api.ping();
        return;
      } catch {
        if (Date.now() > deadline) {
          throw new ProxyCoreException(
            'core_not_ready',
            `The ${this.options.kind} core's API on 127.0.0.1:${this.options.apiPort} did not ` +
              `answer within ${this.timings.readyTimeoutMs} ms:\n${this.recentOutput()}`,
          );
        }
        await delay(100);
      }
    }
  }

  /**
   * Diffs the desired set against `applied` and applies the difference; `all` re-adds every
   * desired user. Every success updates `applied` at once, so after a failure the next
   * reconcile retries exactly what is missing.
   */
  private async applyDesired(all = false): Promise<void> {
    const api = this.api;
    if (!api) return;
    const desired = new Set(this.desired);
    const toAdd = this.desired.filter((uuid) => all || !this.applied.has(uuid));
    const toRemove = [...this.applied].filter((uuid) => !desired.has(uuid));
    const failures: string[] = [];
    for (const uuid of toAdd) {
      try {
        await api.addUser(VLESS_INBOUND_TAG, uuid, this.options.inbound.flow ?? '');
        this.applied.add(uuid);
        this.removedSinceStart.delete(uuid);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    for (const uuid of toRemove) {
      try {
        await api.removeUser(VLESS_INBOUND_TAG, uuid);
        this.applied.delete(uuid);
        this.removedSinceStart.set(uuid, null);
      } catch (error) {
        failures.push(error instanceof Error ? error.message : String(error));
      }
    }
    if (toRemove.length > 0) await readRemovedBaselines(api, this.removedSinceStart);
    if (failures.length > 0) {
      throw new ProxyCoreException(
        'core_api_failed',
        `${failures.length} user change(s) failed: ${failures[0]}`,
      );
    }
  }

  private onChildExit(
    child: ChildProcess,
    code: number | null,
    signal: NodeJS.Signals | null,
  ): void {
    if (this.child !== child) return;
    this.child = undefined;
    // An exit while starting is handled by launch(); an exit while stopping is expected.
    if (this.stopping || this.state !== 'running') return;
    this.output.keep(Buffer.from(`core exited (code ${code}, signal ${signal})`));
    this.state = 'restarting';
    this.restartCount += 1;
    // The crashed run's counters are lost: the reporter sees all counters restart at zero.
    this.carried.clear();
    if (Date.now() - this.startedAt >= this.timings.stableAfterMs) {
      this.restartDelayMs = this.timings.restartInitialDelayMs;
    }
    this.scheduleRestart();
  }

  /**
   * Restarts the core from its config file (exactly the desired users, nothing added through
   * the API survives), cutting every open connection. Not a crash: restartCount stays.
   */
  private async resetCore(): Promise<void> {
    const before = await this.traffic().catch(() => null);
    this.carried = new Map((before ?? []).map((counter) => [counter.clientUuid, counter]));
    this.state = 'restarting';
    await this.terminateChild();
    try {
      await this.launch();
    } catch (error) {
      this.state = 'failed';
      this.scheduleRestart();
      throw error;
    }
  }

  private scheduleRestart(): void {
    const wait = this.restartDelayMs;
    this.restartDelayMs = Math.min(this.restartDelayMs * 2, this.timings.restartMaxDelayMs);
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      void this.serialized(async () => {
        if (this.stopping) return;
        try {
          await this.launch();
        } catch {
          // Still down: keep trying, ever more slowly; status() reports 'restarting' meanwhile.
          if (!this.stopping) this.scheduleRestart();
        }
      });
    }, wait);
  }

  private async terminateChild(): Promise<void> {
    const child = this.child;
    this.api?.close();
    this.api = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) {
      this.child = undefined;
      return;
    }
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), this.timings.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
    this.child = undefined;
  }
}
