import { z } from 'zod';
import { type BackoffOptions, backoffDelay } from '../backoff';
import { readProbeConfig, resolveProbeConfigPath } from '../config/probe-config';
import { describeGrpcError } from '../grpc/control-plane-client';
import { PreferredEndpointReturn } from '../grpc/preferred-endpoint-return';
import { ProbeClient } from '../grpc/probe-client';
import {
  DEFAULT_CONCURRENCY,
  describeCycle,
  type EndpointChecker,
  runProbeCycle,
} from '../probe/probe-cycle';
import { AGENT_VERSION, type CommandIo, parseFlags, processIo } from './context';

export const probeRunFlagsSchema = z.object({
  config: z.string().optional(),
  concurrency: z.coerce
    .number({ error: 'must be a number' })
    .int('must be a whole number')
    .min(1, 'must be 1-64')
    .max(64, 'must be 1-64')
    .default(DEFAULT_CONCURRENCY),
  once: z.boolean().default(false),
});
export type ProbeRunFlags = Partial<Record<keyof z.input<typeof probeRunFlagsSchema>, unknown>>;

/** When the control plane names no interval; and the least the probe waits between cycles. */
const DEFAULT_INTERVAL_MS = 300_000;
export const MIN_INTERVAL_MS = 10_000;
const ERROR_BACKOFF: BackoffOptions = { initialMs: 5_000, maxMs: 600_000 };

export interface ProbeRunDeps {
  io?: CommandIo;
  env?: NodeJS.ProcessEnv;
  /** Resolves when the loop should stop. Default: SIGINT or SIGTERM. */
  stopSignal?: Promise<unknown>;
  check?: EndpointChecker;
  /** Tests only: a shorter floor than MIN_INTERVAL_MS. */
  minIntervalMs?: number;
  random?: () => number;
}

export interface ProbeRunResult {
  cycles: number;
  failures: number;
}

function signalStop(): { stopped: Promise<unknown>; release: () => void } {
  let handler: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    handler = () => resolve();
  });
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopped,
    release: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** Waits `ms`, or less when `stop` resolves first; answers whether it was stopped. */
function sleep(ms: number, stop: Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
    stop.then(() => true),
  ]).finally(() => clearTimeout(timer));
}

/**
 * `scn-agent probe run`: ask for tasks, test them, report, wait (the control plane's interval,
 * jittered by ±10 % so vantage points do not come in step; on errors, the shared backoff).
 * It never starts a proxy core: the tests are its own connections.
 */
export async function probeRun(
  rawFlags: ProbeRunFlags,
  deps: ProbeRunDeps = {},
): Promise<ProbeRunResult> {
  const io = deps.io ?? processIo;
  const flags = parseFlags(probeRunFlagsSchema, rawFlags);
  const config = await readProbeConfig(resolveProbeConfigPath(flags.config, deps.env));
  const random = deps.random ?? Math.random;
  const minIntervalMs = deps.minIntervalMs ?? MIN_INTERVAL_MS;
  const signals = deps.stopSignal ? null : signalStop();
  const stop = deps.stopSignal ?? signals!.stopped;
  let stopping = false;
  void stop.then(() => {
    stopping = true;
  });
  const connection = {
    target: config.controlPlane,
    tls: config.tls,
    caFile: config.caFile,
    insecure: config.insecure,
  };
  const client = new ProbeClient(connection, {
    probeId: config.probeId,
    probeSecret: config.probeSecret,
  });
  const log = (text: string) => io.err(`scn-agent probe: ${text}\n`);
  // Back to the replica its probe id picks once that answers again (the fleet spreads again).
  const preferredReturn = new PreferredEndpointReturn(client.rotation, {
    check: (endpoint) => client.answers(endpoint),
    intervalMs: config.preferredEndpointCheckMs,
  });
  client.rotation.onMove((from, to, reason) => {
    if (reason === 'returned')
      log(`control plane ${to.target} answers again; moving back from ${from.target}`);
  });
  preferredReturn.start();
  const outcome: ProbeRunResult = { cycles: 0, failures: 0 };
  let failuresInRow = 0;
  log(
    `vantage point ${config.probeId} polling ${config.controlPlane} (concurrency ${flags.concurrency})`,
  );
  try {
    while (!stopping) {
      let delayMs: number;
      try {
        const tasks = await client.probeTasks({ agentVersion: AGENT_VERSION });
        const cycle = await runProbeCycle(tasks, {
          concurrency: flags.concurrency,
          check: deps.check,
        });
        let nextMs = tasks.intervalMs;
        if (cycle.results.length > 0) {
          const answer = await client.reportProbe({
            agentVersion: AGENT_VERSION,
            results: cycle.results,
          });
          nextMs = answer.nextIntervalMs || nextMs;
        }
        failuresInRow = 0;
        outcome.cycles += 1;
        const base = Math.max(minIntervalMs, nextMs || DEFAULT_INTERVAL_MS);
        delayMs = Math.round(base * (0.9 + 0.2 * random()));
        const perMinute = (cycle.results.length * 60_000) / delayMs;
        log(
          `${describeCycle(cycle)}; next in ${Math.round(delayMs / 1000)} s ` +
            `(${perMinute.toFixed(1)} endpoints/min)`,
        );
      } catch (error) {
        outcome.failures += 1;
        delayMs = backoffDelay(failuresInRow, { ...ERROR_BACKOFF, random });
        failuresInRow += 1;
        const problem = describeGrpcError(error, 'cycle failed', connection);
        log(`${problem.message}; retrying in ${Math.round(delayMs / 1000)} s`);
      }
      if (flags.once || stopping) break;
      if (await sleep(delayMs, stop)) break;
    }
  } finally {
    preferredReturn.stop();
    client.close();
    signals?.release();
  }
  log(`stopped after ${outcome.cycles} cycle${outcome.cycles === 1 ? '' : 's'}`);
  return outcome;
}
