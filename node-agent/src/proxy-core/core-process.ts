import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { promisify } from 'node:util';
import type { ProxyCoreKind } from '@scn/proto';
import type { ClientTrafficCounters } from './proxy-core';
import type { ProxyCoreErrorCode } from './proxy-core.exception';

/** The core process's timings and the small helpers V2rayCore uses to run it. */

const execFileAsync = promisify(execFile);

export interface V2rayCoreTimings {
  /** How long a start may take until the API answers. */
  readyTimeoutMs: number;
  /** First restart delay after a crash; doubles per consecutive crash up to the maximum. */
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

export const DEFAULT_V2RAY_CORE_TIMINGS: V2rayCoreTimings = {
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

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Per-client sums of two sets of traffic counters, sorted by client. */
export function addCounters(
  counters: readonly ClientTrafficCounters[],
  more: Iterable<ClientTrafficCounters>,
): ClientTrafficCounters[] {
  const sums = new Map(counters.map((counter) => [counter.clientUuid, { ...counter }]));
  for (const extra of more) {
    const sum = sums.get(extra.clientUuid) ?? {
      clientUuid: extra.clientUuid,
      uplinkBytes: 0n,
      downlinkBytes: 0n,
    };
    sum.uplinkBytes += extra.uplinkBytes;
    sum.downlinkBytes += extra.downlinkBytes;
    sums.set(extra.clientUuid, sum);
  }
  return [...sums.values()].sort((a, b) => a.clientUuid.localeCompare(b.clientUuid));
}
