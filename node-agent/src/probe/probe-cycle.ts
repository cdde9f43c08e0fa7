import { isIP } from 'node:net';
import {
  checkEndpoint,
  type EndpointCheck,
  type EndpointCheckResult,
  PROBE_ERROR_CLASSES,
  type ProbeEndpoint__Output,
  type ProbeErrorClass,
  type ProbeResult,
  type ProbeTarget,
  probeTargetOf,
  type ProbeTasksResponse__Output,
} from '@scn/proto';

/** One cycle of a vantage point: test every endpoint it was given, a few at a time. */

export const DEFAULT_CONCURRENCY = 8;
/** The control plane's timeout_ms, kept within these (0: the default). */
const DEFAULT_TIMEOUT_MS = 10_000;
const MIN_TIMEOUT_MS = 1_000;
const MAX_TIMEOUT_MS = 60_000;

export interface CycleOutcome {
  results: ProbeResult[];
  /** Per class (only those seen). */
  byClass: Partial<Record<ProbeErrorClass, number>>;
  bytesSent: number;
  bytesReceived: number;
  elapsedMs: number;
}

export type EndpointChecker = (check: EndpointCheck) => Promise<EndpointCheckResult>;

function targetOf(url: string): ProbeTarget | null {
  try {
    const target = probeTargetOf(url);
    return target.host ? target : null;
  } catch {
    return null;
  }
}

export function timeoutOf(tasks: ProbeTasksResponse__Output): number {
  if (!tasks.timeoutMs) return DEFAULT_TIMEOUT_MS;
  return Math.min(MAX_TIMEOUT_MS, Math.max(MIN_TIMEOUT_MS, tasks.timeoutMs));
}

/**
 * The test of one endpoint. A security or transport this probe does not speak (e.g. grpc) is
 * tested as far as it can be (TCP and the TLS handshake) and reported 'vless_untested'.
 */
export function endpointCheckOf(
  endpoint: ProbeEndpoint__Output,
  target: ProbeTarget | null,
  timeoutMs: number,
): EndpointCheck {
  const security =
    endpoint.security === 'none' || endpoint.security === 'tls' ? endpoint.security : 'reality';
  const network = endpoint.network === 'ws' ? 'ws' : 'tcp';
  const known = endpoint.network === 'tcp' || endpoint.network === 'ws' || endpoint.network === '';
  const host = endpoint.host.replace(/^\[|\]$/g, '');
  return {
    host,
    port: endpoint.port,
    uuid: endpoint.probeUuid,
    security,
    network,
    path: endpoint.path || '/',
    serverName: endpoint.sni || (isIP(host) ? null : host),
    certificateSha256: endpoint.certificateSha256 || null,
    target: known ? target : null,
    timeoutMs,
  };
}

export function probeResultOf(
  endpoint: ProbeEndpoint__Output,
  result: EndpointCheckResult,
): ProbeResult {
  return {
    serverId: endpoint.serverId,
    planRevision: endpoint.planRevision,
    tcpOk: result.tcpOk,
    tcpMs: result.tcpMs,
    handshakeOk: result.handshakeOk,
    vlessOk: result.vlessOk,
    totalMs: result.totalMs,
    errorClass: result.errorClass,
  };
}

/** Runs `work` over `items` with at most `limit` at once; answers results in `items`' order. */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

export async function runProbeCycle(
  tasks: ProbeTasksResponse__Output,
  options: { concurrency: number; check?: EndpointChecker },
): Promise<CycleOutcome> {
  const started = Date.now();
  const check = options.check ?? checkEndpoint;
  const target = targetOf(tasks.targetUrl);
  const timeoutMs = timeoutOf(tasks);
  const outcome: CycleOutcome = {
    results: [],
    byClass: {},
    bytesSent: 0,
    bytesReceived: 0,
    elapsedMs: 0,
  };
  outcome.results = await mapBounded(tasks.endpoints, options.concurrency, async (endpoint) => {
    const result = await check(endpointCheckOf(endpoint, target, timeoutMs));
    outcome.byClass[result.errorClass] = (outcome.byClass[result.errorClass] ?? 0) + 1;
    outcome.bytesSent += result.bytesSent;
    outcome.bytesReceived += result.bytesReceived;
    return probeResultOf(endpoint, result);
  });
  outcome.elapsedMs = Date.now() - started;
  return outcome;
}

function kib(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`;
}

/** The cycle's one log line. */
export function describeCycle(outcome: CycleOutcome): string {
  const classes = PROBE_ERROR_CLASSES.filter((name) => outcome.byClass[name])
    .map((name) => `${outcome.byClass[name]} ${name}`)
    .join(', ');
  const count = outcome.results.length;
  const perEndpoint =
    count > 0
      ? `, ${Math.round((outcome.bytesSent + outcome.bytesReceived) / count)} B/endpoint`
      : '';
  return (
    `tested ${count} endpoint${count === 1 ? '' : 's'} in ${outcome.elapsedMs} ms` +
    `${classes ? ` (${classes})` : ''}; ${kib(outcome.bytesSent)} sent, ` +
    `${kib(outcome.bytesReceived)} received${perEndpoint}`
  );
}
