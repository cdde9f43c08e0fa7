import { execFile, spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { ProxyCoreKind } from '@scn/proto';
import { type Clock, realTimers, systemClock, type Timers } from '../backoff';
import { CoreApiClient } from './core-api';
import type { ProxyCoreErrorCode } from './proxy-core.exception';

/** The core process's timings and the small helpers its supervisor uses to run it. */

const execFileAsync = promisify(execFile);

export interface CoreTimings {
  /** How long a start may take until the API answers. */
  readyTimeoutMs: number;
  /**
   * Ceiling of the first restart delay after a crash; doubles per consecutive failure up to the
   * maximum, and each delay is jittered within the upper half of its ceiling (backoffDelay).
   */
  restartInitialDelayMs: number;
  restartMaxDelayMs: number;
  /** A core that ran this long counts as healthy again: the next crash restarts quickly. */
  stableAfterMs: number;
  /** How long stop() waits after SIGTERM before it sends SIGKILL. */
  stopTimeoutMs: number;
  /**
   * The least time between two restarts that cut a revoked client's open connections: each
   * restart also drops every paying client's connections for a moment.
   */
  revocationCutMinIntervalMs: number;
}

export const DEFAULT_CORE_TIMINGS: CoreTimings = {
  readyTimeoutMs: 10_000,
  restartInitialDelayMs: 500,
  restartMaxDelayMs: 30_000,
  stableAfterMs: 60_000,
  stopTimeoutMs: 5_000,
  revocationCutMinIntervalMs: 300_000,
};

/** Lines of the core's output kept for error messages. */
const OUTPUT_TAIL_LINES = 40;

/**
 * Parses `v2ray -version` ("V2Ray 4.34.0 (user) ...") and `xray version` ("Xray 1.8.4 (Xray,
 * Penetrates Everything.) ..."); '' when the output has neither.
 */
export function parseCoreVersion(output: string): string {
  return /^(?:V2Ray|Xray)\s+v?(\S+)/im.exec(output)?.[1] ?? '';
}

/** Whether the core binary exists and is executable. */
export async function binaryExists(binary: string): Promise<boolean> {
  try {
    await access(binary, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The core's version, '' when it cannot be read. */
export async function readCoreVersion(kind: ProxyCoreKind, binary: string): Promise<string> {
  // v2ray 4.34 has only the -version flag (a bare `version` argument starts the core reading
  // its config from stdin); Xray has only the `version` command.
  const args = kind === 'v2ray' ? ['-version'] : ['version'];
  try {
    const { stdout } = await execFileAsync(binary, args, { timeout: 5000 });
    return parseCoreVersion(stdout);
  } catch {
    return '';
  }
}

/** The last lines the core printed, kept for error messages. */
export class OutputTail {
  private lines: string[] = [];

  keep(chunk: Buffer): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim() === '') continue;
      this.lines.push(line);
    }
    this.lines.splice(0, Math.max(0, this.lines.length - OUTPUT_TAIL_LINES));
  }

  clear(): void {
    this.lines = [];
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** Refusals of the configuration itself: retrying cannot help. */
export const CONFIG_ERRORS: ReadonlySet<ProxyCoreErrorCode> = new Set([
  'reality_needs_xray',
  'reality_needs_private_key',
  'reality_needs_sni',
  'reality_needs_tcp_or_grpc',
  'tls_needs_certificate',
  'ws_needs_path',
  'invalid_fallback',
  'grpc_needs_service_name',
  'invalid_client_uuid',
]);

/**
 * Runs tasks one after another, each after the previous one settled (a rejection does not stop
 * the queue): the core's start, restarts, user changes, audits and stop all read and write the
 * same process and user state.
 */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const run = this.tail.then(task, task);
    this.tail = run.catch(() => undefined);
    return run;
  }
}

/** What the supervisor and the user reconciler ask of the core's API. */
export type CoreApi = Pick<
  CoreApiClient,
  'ping' | 'close' | 'addUser' | 'removeUser' | 'userTraffic' | 'inboundUserEmails'
>;

/** The part of a child process the supervisor uses (node's ChildProcess, or a test's fake). */
export interface CoreChild {
  readonly pid?: number | undefined;
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | null;
  readonly stdout: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null;
  readonly stderr: { on(event: 'data', listener: (chunk: Buffer) => void): unknown } | null;
  kill(signal: NodeJS.Signals): boolean;
  once(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
}

/** How the supervisor reaches time and the system; tests replace parts of it. */
export interface CoreRuntime {
  timers: Timers;
  clock: Clock;
  /** In [0, 1): the restart backoff's jitter. */
  random: () => number;
  /** The binary's version ('' when unreadable); null when no executable binary is there. */
  inspectBinary(kind: ProxyCoreKind, binary: string): Promise<string | null>;
  spawn(binary: string, args: readonly string[]): CoreChild;
  connectApi(kind: ProxyCoreKind, apiPort: number): CoreApi;
}

export const nodeCoreRuntime: CoreRuntime = {
  timers: realTimers,
  clock: systemClock,
  random: Math.random,
  inspectBinary: async (kind, binary) =>
    (await binaryExists(binary)) ? readCoreVersion(kind, binary) : null,
  spawn: (binary, args) => spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] }),
  connectApi: (kind, apiPort) => new CoreApiClient({ kind, apiPort }),
};
