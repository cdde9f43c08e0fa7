import { createHash } from 'node:crypto';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { type CheckStage, classifyNetworkError } from './probe-error-class';
import type { ProbeErrorClass } from './rest/reachability.contract';
import { upgradeToWebSocket, WebSocketRefused } from './vless-websocket';
import { readFirstLine, VlessLayerFailure, VlessTunnel, vlessRequestHeader } from './vless-tunnel';

/**
 * A minimal VLESS client (Node only), enough to prove that a server speaks VLESS and accepts a
 * UUID: it asks the server to open a TCP connection to the probe target and reads the target's
 * HTTP answer back through it. A server that refuses the UUID closes the connection (or hands it
 * to a fallback, whose answer is not a VLESS header); a service that is not VLESS answers
 * something else or nothing. Used by the control plane's manual servers (checkVless) and by
 * vantage points (checkEndpoint), which also want to know how far a failed test got.
 */

export { vlessRequestHeader } from './vless-tunnel';
export { classifyNetworkError, type CheckStage } from './probe-error-class';

/** Where the server is asked to connect: an HTTP(S) endpoint that answers a GET (the probe target). */
export interface ProbeTarget {
  host: string;
  port: number;
  tls: boolean;
  /** Path and query of the GET. */
  path: string;
}

export function probeTargetOf(url: string): ProbeTarget {
  const parsed = new URL(url);
  const tls = parsed.protocol === 'https:';
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : tls ? 443 : 80,
    tls,
    path: `${parsed.pathname}${parsed.search}` || '/',
  };
}

/** One endpoint test, as a vantage point runs it. */
export interface EndpointCheck {
  /** Address (or name) to connect to. */
  host: string;
  port: number;
  uuid: string;
  /** 'reality': TCP and the outer TLS handshake only (any certificate): 'vless_untested'. */
  security: 'none' | 'tls' | 'reality';
  network: 'tcp' | 'ws';
  /** WebSocket path (network ws). */
  path?: string;
  /** TLS server name; null: none (the certificate is then checked against `host`). */
  serverName: string | null;
  /**
   * Pinned certificate (lower-case hex SHA-256 of its DER): when given it is the trust, and no
   * CA verification is done; a different certificate is 'wrong_certificate'.
   */
  certificateSha256?: string | null;
  /** null: no VLESS request (the handshake is the whole test: 'vless_untested'). */
  target: ProbeTarget | null;
  /** The whole test (connect, handshake, VLESS answer) ends within this. */
  timeoutMs: number;
  /** Trusted CA certificates instead of the system's (tests with their own CA only). */
  ca?: string;
}

export interface EndpointCheckResult {
  errorClass: ProbeErrorClass;
  /** Where the test ended ('vless' also when it passed). */
  stage: CheckStage;
  tcpOk: boolean;
  tcpMs: number;
  /** TLS handshake done (security none: same as tcpOk). */
  handshakeOk: boolean;
  /** Milliseconds until the transport (TCP, and TLS when used) was ready; 0 when it never was. */
  readyMs: number;
  /** The server sent a valid VLESS response header. */
  vlessAnswered: boolean;
  /** The probe target's answer came back through the tunnel. */
  vlessOk: boolean;
  totalMs: number;
  /** Bytes on the wire of the TCP connection (TLS and WebSocket framing included). */
  bytesSent: number;
  bytesReceived: number;
  detail: string;
}

class CheckTimeout extends Error {}

/** The state of one test as it goes, so a timeout can say how far it got. */
class Attempt {
  readonly started = process.hrtime.bigint();
  stage: CheckStage = 'connect';
  raw: Socket | null = null;
  tcpMs = 0;
  readyMs = 0;
  tcpOk = false;
  handshakeOk = false;
  tunnel: VlessTunnel | null = null;
  /** The TCP (or TLS) connection's own error after it was up (the layers above wrap it). */
  transportError: Error | null = null;
  readonly closables: Array<{ destroy(): void }> = [];

  elapsedMs(): number {
    return Math.max(1, Math.round(Number(process.hrtime.bigint() - this.started) / 1e6));
  }

  result(errorClass: ProbeErrorClass, detail: string): EndpointCheckResult {
    return {
      errorClass,
      stage: this.stage,
      tcpOk: this.tcpOk,
      tcpMs: this.tcpMs,
      handshakeOk: this.handshakeOk,
      readyMs: this.readyMs,
      vlessAnswered: this.tunnel?.isAnswered ?? false,
      vlessOk: errorClass === 'ok',
      totalMs: this.elapsedMs(),
      bytesSent: this.raw?.bytesWritten ?? 0,
      bytesReceived: this.raw?.bytesRead ?? 0,
      detail,
    };
  }
}

/** Runs one endpoint test; never throws. */
export async function checkEndpoint(check: EndpointCheck): Promise<EndpointCheckResult> {
  const attempt = new Attempt();
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new CheckTimeout(`no answer within ${check.timeoutMs} ms`)),
        check.timeoutMs,
      );
    });
    return await Promise.race([run(check, attempt), timeout]);
  } catch (error) {
    return attempt.result(failureClass(error, attempt), errorMessage(error));
  } finally {
    clearTimeout(timer);
    // Outermost first: destroying a TCP socket under a live TLS socket can crash node.
    for (const closable of attempt.closables.reverse()) closable.destroy();
  }
}

/**
 * Errors from node's own sockets may come from another realm (a test runner's VM context), where
 * `instanceof Error` is false: they are told by their shape.
 */
function asError(error: unknown): Error | null {
  return typeof error === 'object' && error !== null && 'message' in error
    ? (error as Error)
    : null;
}

function errorMessage(error: unknown): string {
  return asError(error)?.message ?? String(error);
}

function failureClass(error: unknown, attempt: Attempt): ProbeErrorClass {
  if (error instanceof CheckTimeout) return 'timeout';
  if (error instanceof WebSocketRefused) return 'not_vless';
  if (error instanceof VlessLayerFailure && error.kind === 'not_vless') return 'not_vless';
  const failure = asError(error);
  if (failure === null) return 'closed';
  if (attempt.stage === 'vless') {
    // Past the handshake only the raw connection's own failures (a reset on the way) say more
    // than "closed": an error of the inner TLS to the target is the target's, not the path's.
    const code = (attempt.transportError as NodeJS.ErrnoException | null)?.code;
    return code === 'ECONNRESET' || code === 'EPIPE' ? 'reset' : 'closed';
  }
  return classifyNetworkError(failure, attempt.stage);
}

async function run(check: EndpointCheck, attempt: Attempt): Promise<EndpointCheckResult> {
  const raw = await connectTcp(check, attempt);
  let transport: Duplex = raw;
  if (check.security !== 'none') {
    attempt.stage = 'handshake';
    transport = await handshake(check, raw, attempt);
  }
  attempt.handshakeOk = true;
  attempt.readyMs = attempt.elapsedMs();
  if (check.security === 'reality' || check.target === null) {
    return attempt.result('vless_untested', 'the handshake worked; VLESS was not tested');
  }
  attempt.stage = 'vless';
  if (check.network === 'ws') {
    const host = check.serverName ?? (isIP(check.host) === 6 ? `[${check.host}]` : check.host);
    transport = await upgradeToWebSocket(transport, host, check.path ?? '/');
    attempt.closables.push(transport);
  }
  await requestThroughTunnel(check, check.target, transport, attempt);
  return attempt.result('ok', 'the probe target answered through the server');
}

function connectTcp(check: EndpointCheck, attempt: Attempt): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect({ host: check.host, port: check.port });
    attempt.raw = socket;
    attempt.closables.push(socket);
    socket.once('connect', () => {
      attempt.tcpOk = true;
      attempt.tcpMs = attempt.elapsedMs();
      socket.off('error', reject);
      // Later failures reach the test through the streams layered on this socket; kept to tell
      // a reset from a close.
      socket.on('error', (error) => (attempt.transportError ??= error));
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

function handshake(check: EndpointCheck, raw: Socket, attempt: Attempt): Promise<TLSSocket> {
  const pin = check.certificateSha256?.toLowerCase() || null;
  return new Promise((resolve, reject) => {
    const socket: TLSSocket = tlsConnect({
      socket: raw,
      // The name (or IP) the certificate is checked against when nothing is pinned.
      host: check.host,
      servername: check.serverName ?? undefined,
      // A pin is the trust (the agent's self-signed certificates); REALITY's outer certificate
      // is the camouflage target's, whatever it is.
      rejectUnauthorized: pin === null && check.security === 'tls',
      ...(check.ca ? { ca: check.ca } : {}),
    });
    attempt.closables.push(socket);
    socket.once('secureConnect', () => {
      socket.off('error', reject);
      socket.on('error', (error) => (attempt.transportError ??= error));
      if (pin !== null && check.security === 'tls') {
        const der = socket.getPeerCertificate().raw;
        const presented = der ? createHash('sha256').update(der).digest('hex') : '';
        if (presented !== pin) {
          const error = Object.assign(new Error(`certificate ${presented} is not the pinned one`), {
            code: 'ERR_CERT_PIN_MISMATCH',
          });
          reject(error);
          return;
        }
      }
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

async function requestThroughTunnel(
  check: EndpointCheck,
  target: ProbeTarget,
  transport: Duplex,
  attempt: Attempt,
): Promise<void> {
  const tunnel = new VlessTunnel(
    transport,
    vlessRequestHeader(check.uuid, target.host, target.port),
  );
  attempt.tunnel = tunnel;
  attempt.closables.push(tunnel);
  let stream: Duplex = tunnel;
  if (target.tls) {
    const inner = tlsConnect({
      socket: tunnel,
      host: target.host,
      servername: isIP(target.host) ? undefined : target.host,
      ...(check.ca ? { ca: check.ca } : {}),
    });
    attempt.closables.push(inner);
    stream = inner;
  }
  const hostHeader = isIP(target.host) === 6 ? `[${target.host}]` : target.host;
  stream.write(
    `GET ${target.path} HTTP/1.1\r\nHost: ${hostHeader}\r\nUser-Agent: scn-vless-probe\r\n` +
      `Accept: */*\r\nConnection: close\r\n\r\n`,
  );
  const firstLine = await readFirstLine(stream, tunnel);
  if (!/^HTTP\/1\.[01] \d{3}/.test(firstLine)) {
    throw new VlessLayerFailure('no_answer', 'the probe target did not answer through the server');
  }
}

// --- The manual servers' check (control-plane/src/manual-servers) -----------------------------

export interface VlessCheck {
  /** The pinned, already checked address to connect to (never a name: see pinAddress). */
  address: string;
  port: number;
  uuid: string;
  security: 'none' | 'tls';
  /** TLS server name (the link's sni, else its host when that is a name). */
  serverName: string | null;
  target: ProbeTarget;
  timeoutMs: number;
  /** Trusted CA certificates instead of the system's (tests with their own CA only). */
  ca?: string;
}

export type VlessFailure =
  'connect_failed' | 'tls_failed' | 'closed' | 'not_vless' | 'no_answer' | 'timeout';

export type VlessCheckResult =
  { ok: true; connectMs: number } | { ok: false; reason: VlessFailure; detail: string };

/** Runs one check (TCP transport, CA-verified TLS); never throws. */
export async function checkVless(check: VlessCheck): Promise<VlessCheckResult> {
  const result = await checkEndpoint({
    host: check.address,
    port: check.port,
    uuid: check.uuid,
    security: check.security,
    network: 'tcp',
    serverName: check.serverName,
    target: check.target,
    timeoutMs: check.timeoutMs,
    ...(check.ca ? { ca: check.ca } : {}),
  });
  if (result.errorClass === 'ok') return { ok: true, connectMs: result.readyMs };
  return { ok: false, reason: vlessFailureOf(result), detail: result.detail };
}

function vlessFailureOf(result: EndpointCheckResult): VlessFailure {
  if (result.errorClass === 'timeout') return 'timeout';
  if (result.stage === 'connect') return 'connect_failed';
  if (result.stage === 'handshake') {
    return result.errorClass === 'wrong_certificate' || result.errorClass === 'tls_alert'
      ? 'tls_failed'
      : 'connect_failed';
  }
  if (result.errorClass === 'not_vless') return 'not_vless';
  return result.vlessAnswered ? 'no_answer' : 'closed';
}
