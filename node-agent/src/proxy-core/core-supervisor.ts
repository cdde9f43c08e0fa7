import type { ProxyCoreKind } from '@scn/proto';
import { backoffDelay } from '../backoff';
import {
  CONFIG_ERRORS,
  type CoreApi,
  type CoreChild,
  type CoreRuntime,
  type CoreTimings,
  nodeCoreRuntime,
  OutputTail,
  type SerialQueue,
} from './core-process';
import { ProxyCoreException } from './proxy-core.exception';
import type { ProxyCoreState } from './proxy-core';

export type SupervisorTimings = Pick<
  CoreTimings,
  | 'readyTimeoutMs'
  | 'restartInitialDelayMs'
  | 'restartMaxDelayMs'
  | 'stableAfterMs'
  | 'stopTimeoutMs'
>;

export interface CoreSupervisorOptions {
  kind: ProxyCoreKind;
  binary: string;
  apiPort: number;
  timings: SupervisorTimings;
  /** Shared with whoever changes the core's users: the timer's restarts run inside it. */
  queue: SerialQueue;
  runtime?: Partial<CoreRuntime>;
  /** Writes the config file before every spawn; returns its path. */
  prepare(): Promise<string>;
  /** The core's API answers: bring its users in line. A throw fails the start. */
  ready(api: CoreApi): Promise<void>;
  /** The core died on its own (not stop(), not restart()). */
  crashed(): void;
}

/**
 * Starts the proxy core's process, waits for its API, and restarts it when it dies: after a
 * crash, and after a start that failed for any reason but a refused config, with the agent's
 * jittered backoff (a ceiling doubling per consecutive failure; a run of stableAfterMs counts as
 * healthy again). It knows nothing of users: `prepare` and `ready` handle the config and the
 * users at every start. Callers run start, stop and restart inside the shared queue (the
 * restarts it schedules enter it too); beginStop and the reads run at any time.
 */
export class CoreSupervisor {
  private current: ProxyCoreState = 'stopped';
  private version = '';
  private restartCount = 0;
  private child: CoreChild | undefined;
  private api: CoreApi | undefined;
  private stopping = false;
  private restartTimer: unknown = null;
  /** Rung of the restart ladder: consecutive failures since the last stable run. */
  private attempt = 0;
  private startedAt = 0;
  private readonly output = new OutputTail();
  private readonly runtime: CoreRuntime;

  constructor(private readonly options: CoreSupervisorOptions) {
    this.runtime = { ...nodeCoreRuntime, ...options.runtime };
  }

  get state(): ProxyCoreState {
    return this.current;
  }

  status(): { state: ProxyCoreState; version: string; restartCount: number } {
    return { state: this.current, version: this.version, restartCount: this.restartCount };
  }

  /** The API of the running core; undefined while it is not running. */
  runningApi(): CoreApi | undefined {
    return this.current === 'running' ? this.api : undefined;
  }

  /** The core's process id while it runs (doctor, tests). */
  pid(): number | undefined {
    return this.child?.pid;
  }

  /** The last lines the core printed, for error reports. */
  recentOutput(): string {
    return this.output.text();
  }

  /**
   * Starts the core. 'supervised' when it already runs or waits for a restart (nothing done);
   * 'absent' when the binary does not exist; rejects, with state 'failed', when the core exits
   * or its API stays silent, and retries later unless the config itself was refused.
   */
  async start(): Promise<'started' | 'supervised' | 'absent'> {
    this.stopping = false;
    if (this.current === 'running' || this.current === 'restarting') return 'supervised';
    const version = await this.runtime.inspectBinary(this.options.kind, this.options.binary);
    if (version === null) {
      this.current = 'absent';
      return 'absent';
    }
    this.version = version;
    try {
      await this.launch();
    } catch (error) {
      this.current = 'failed';
      // A core that crashed or stayed silent on its first start is retried like one that
      // died later (a port still held by the old core, a slow disk); a config refused by our
      // own checks (REALITY on v2ray, a missing key) would fail the same way every time.
      if (!(error instanceof ProxyCoreException && CONFIG_ERRORS.has(error.code))) {
        this.scheduleRestart();
      }
      throw error;
    }
    return 'started';
  }

  /** Cancels a pending restart at once, before stop() gets its turn in the queue. */
  beginStop(): void {
    this.stopping = true;
    this.cancelRestart();
  }

  /** Terminates the core (SIGTERM, then SIGKILL) and waits for it to exit. */
  async stop(): Promise<void> {
    this.beginStop();
    await this.terminateChild();
    if (this.current !== 'absent') this.current = 'stopped';
  }

  /**
   * Restarts the core from its config file, cutting every open connection. Not a crash:
   * restartCount stays. When the new core does not come up, state is 'failed' and the ladder
   * keeps trying.
   */
  async restart(): Promise<void> {
    this.cancelRestart();
    this.current = 'restarting';
    await this.terminateChild();
    try {
      await this.launch();
    } catch (error) {
      this.current = 'failed';
      this.scheduleRestart();
      throw error;
    }
  }

  /** Writes the config, spawns the core, waits for its API and lets `ready` apply the users. */
  private async launch(): Promise<void> {
    const configFile = await this.options.prepare();
    const args =
      this.options.kind === 'v2ray' ? ['-config', configFile] : ['run', '-config', configFile];
    this.output.clear();
    const child = this.runtime.spawn(this.options.binary, args);
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
    const api = this.runtime.connectApi(this.options.kind, this.options.apiPort);
    this.api = api;
    try {
      await this.waitUntilReady(api, exited);
      await this.options.ready(api);
    } catch (error) {
      await this.terminateChild();
      throw error;
    }
    this.startedAt = this.runtime.clock.now();
    this.current = 'running';
  }

  private async waitUntilReady(api: CoreApi, exited: Promise<void>): Promise<void> {
    const { kind, apiPort, timings } = this.options;
    const deadline = this.runtime.clock.now() + timings.readyTimeoutMs;
    let hasExited = false;
    void exited.then(() => (hasExited = true));
    for (;;) {
      if (hasExited) {
        throw new ProxyCoreException(
          'core_exited',
          `The ${kind} core exited while starting:\n${this.recentOutput()}`,
        );
      }
      try {
        await api.ping();
        return;
      } catch {
        if (this.runtime.clock.now() > deadline) {
          throw new ProxyCoreException(
            'core_not_ready',
            `The ${kind} core's API on 127.0.0.1:${apiPort} did not answer within ` +
              `${timings.readyTimeoutMs} ms:\n${this.recentOutput()}`,
          );
        }
        await new Promise<void>((resolve) => this.runtime.timers.setTimeout(resolve, 100));
      }
    }
  }

  private onChildExit(child: CoreChild, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    // An exit while starting is handled by launch(); an exit while stopping is expected.
    if (this.stopping || this.current !== 'running') return;
    this.output.keep(Buffer.from(`core exited (code ${code}, signal ${signal})`));
    this.current = 'restarting';
    this.restartCount += 1;
    this.options.crashed();
    if (this.runtime.clock.now() - this.startedAt >= this.options.timings.stableAfterMs) {
      this.attempt = 0;
    }
    this.scheduleRestart();
  }

  private scheduleRestart(): void {
    const { restartInitialDelayMs, restartMaxDelayMs } = this.options.timings;
    const wait = backoffDelay(this.attempt, {
      initialMs: restartInitialDelayMs,
      maxMs: restartMaxDelayMs,
      random: this.runtime.random,
    });
    this.attempt += 1;
    this.cancelRestart();
    this.restartTimer = this.runtime.timers.setTimeout(() => {
      this.restartTimer = null;
      void this.options.queue.run(async () => {
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

  private cancelRestart(): void {
    if (this.restartTimer === null) return;
    this.runtime.timers.clearTimeout(this.restartTimer);
    this.restartTimer = null;
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
    const timer = this.runtime.timers.setTimeout(
      () => child.kill('SIGKILL'),
      this.options.timings.stopTimeoutMs,
    );
    await exited;
    this.runtime.timers.clearTimeout(timer);
    this.child = undefined;
  }
}
