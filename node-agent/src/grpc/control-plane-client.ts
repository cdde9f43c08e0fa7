import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_METADATA,
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceClient,
  type ClientSet__Output,
  type EnrollRequest,
  type EnrollResponse__Output,
  GRPC_LOADER_OPTIONS,
  type ReportRequest,
  type ReportResponse__Output,
} from '@scn/proto';
import { type BackoffOptions, backoffDelay, realTimers, type Timers } from '../backoff';
import { AgentError, EXIT_CODES } from '../errors';
import { ReportChannel } from './report-channel';

export interface HostPort {
  host: string;
  port: number;
}

/** `host:port` or `[v6]:port`; null when it is neither. */
export function parseHostPort(target: string): HostPort | null {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:/[\]]+)):(\d{1,5})$/.exec(target);
  if (!match) return null;
  const port = Number(match[3]);
  if (port < 1 || port > 65535) return null;
  return { host: (match[1] ?? match[2])!, port };
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return net.isIPv4(host) && host.startsWith('127.');
}

export interface ControlPlaneConnection {
  /** `host:port` */
  target: string;
  tls: boolean;
  caFile?: string;
  /** Plaintext to a non-loopback host was explicitly asked for (--insecure). */
  insecure?: boolean;
}

/** A node's credential, sent as metadata on every call but Enroll. */
export interface NodeCredential {
  nodeId: string;
  nodeSecret: string;
}

export interface WatchOptions {
  backoff?: BackoffOptions;
  timers?: Timers;
  /** Each stream failure, before the reconnect (for logs). */
  onError?: (error: Error, retryInMs: number) => void;
}

export interface ClientSetWatch {
  stop(): void;
}

const ENROLL_DEADLINE_MS = 15_000;
export const REPORT_DEADLINE_MS = 10_000;
const WATCH_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000 };

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/**
 * The CA certificates the agent trusts for the control plane (`--ca-file`): PEM, one or more.
 * Checked here because grpc-js ignores a file it cannot parse and then only reports that the
 * server's certificate cannot be verified, which sends the operator looking in the wrong place.
 */
export function readCaFile(file: string): Buffer {
  let pem: Buffer;
  try {
    pem = readFileSync(file);
  } catch (error) {
    throw new AgentError(`cannot read CA file ${file}: ${(error as Error).message}`, {
      exitCode: EXIT_CODES.config,
      cause: error,
    });
  }
  const blocks = pem.toString('latin1').match(PEM_CERTIFICATE) ?? [];
  const notCertificate = (block: string) => {
    try {
      new X509Certificate(block);
      return false;
    } catch {
      return true;
    }
  };
  if (blocks.length === 0 || blocks.some(notCertificate)) {
    throw new AgentError(`CA file ${file} does not hold a PEM certificate`, {
      exitCode: EXIT_CODES.config,
      hint: 'pass the PEM file of the CA that issued the control plane certificate (-----BEGIN CERTIFICATE-----)',
    });
  }
  return pem;
}

export function credentialsFor(connection: ControlPlaneConnection): grpc.ChannelCredentials {
  const hostPort = parseHostPort(connection.target);
  if (!hostPort) {
    throw new AgentError(`control plane address "${connection.target}" must be host:port`, {
      exitCode: EXIT_CODES.usage,
    });
  }
  if (connection.tls) {
    // null roots: grpc-js uses the system/bundled roots.
    return grpc.credentials.createSsl(connection.caFile ? readCaFile(connection.caFile) : null);
  }
  if (!isLoopback(hostPort.host) && !connection.insecure) {
    throw new AgentError(
      `refusing plaintext gRPC to ${connection.target}: the node secret would cross the network unencrypted`,
      {
        exitCode: EXIT_CODES.usage,
        hint: 'give the control plane a TLS certificate (GRPC_TLS_CERT/GRPC_TLS_KEY), or pass --insecure if you accept the risk',
      },
    );
  }
  return grpc.credentials.createInsecure();
}

export function loadAgentService(): AgentProtoGrpcType['scn']['agent']['v1']['AgentService'] {
  const definition = protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS);
  const proto = grpc.loadPackageDefinition(definition) as unknown as AgentProtoGrpcType;
  return proto.scn.agent.v1.AgentService;
}

/** The agent's side of scn.agent.v1.AgentService: promise wrappers with deadlines. */
export class ControlPlaneClient {
  readonly raw: AgentServiceClient;
  private reports: ReportChannel | undefined;

  constructor(
    readonly connection: ControlPlaneConnection,
    private readonly credential?: NodeCredential,
  ) {
    const AgentService = loadAgentService();
    this.raw = new AgentService(connection.target, credentialsFor(connection), {
      'grpc.keepalive_time_ms': 60_000,
      'grpc.keepalive_timeout_ms': 20_000,
    });
  }

  private metadata(): grpc.Metadata {
    if (!this.credential) throw new Error('this client has no node credential: enroll first');
    const metadata = new grpc.Metadata();
    metadata.set(AGENT_METADATA.nodeId, this.credential.nodeId);
    metadata.set(AGENT_METADATA.authorization, `Bearer ${this.credential.nodeSecret}`);
    return metadata;
  }

  enroll(request: EnrollRequest, deadlineMs = ENROLL_DEADLINE_MS): Promise<EnrollResponse__Output> {
    return new Promise((resolve, reject) =>
      this.raw.Enroll(request, { deadline: Date.now() + deadlineMs }, (error, response) =>
        error || !response
          ? reject(error ?? new Error('empty Enroll response'))
          : resolve(response),
      ),
    );
  }

  /** One report, on the node's long-lived ReportStream (see ReportChannel). */
  report(request: ReportRequest, deadlineMs = REPORT_DEADLINE_MS): Promise<ReportResponse__Output> {
    this.reports ??= new ReportChannel(this.raw, () => this.metadata());
    return this.reports.report(request, deadlineMs);
  }

  /**
   * Whether a channel to the control plane comes up within the deadline (no RPC is sent). When
   * a TLS channel does not, a bare handshake tells why (e.g. the certificate is not trusted).
   */
  async checkConnectivity(
    timeoutMs = 3_000,
  ): Promise<{ reachable: boolean; error: string | null }> {
    const error = await new Promise<Error | undefined>((resolve) =>
      this.raw.waitForReady(Date.now() + timeoutMs, (failure) => resolve(failure)),
    );
    if (!error) return { reachable: true, error: null };
    const handshake = this.connection.tls
      ? await tlsHandshakeError(this.connection, Math.min(timeoutMs, 3_000))
      : null;
    return { reachable: false, error: handshake ? `TLS: ${handshake}` : error.message };
  }

  /**
   * Follows the WatchClients stream: calls `onSet` with each set newer than the last one seen and
   * reconnects (exponential backoff with jitter) whenever the stream ends, until stop().
   * `onSet` runs one at a time, in order.
   */
  watchClients(
    knownVersion: string,
    onSet: (set: ClientSet__Output) => Promise<void> | void,
    options: WatchOptions = {},
  ): ClientSetWatch {
    const timers = options.timers ?? realTimers;
    const backoff = options.backoff ?? WATCH_BACKOFF;
    let known = BigInt(knownVersion);
    let applied = known > 0n;
    let attempt = 0;
    let stopped = false;
    let call: grpc.ClientReadableStream<ClientSet__Output> | null = null;
    let retry: unknown = null;
    let applying: Promise<void> = Promise.resolve();

    const reconnect = (error: Error) => {
      if (stopped || retry !== null) return;
      call = null;
      const delay = backoffDelay(attempt, backoff);
      attempt += 1;
      options.onError?.(error, delay);
      retry = timers.setTimeout(() => {
        retry = null;
        connect();
      }, delay);
    };

    const connect = () => {
      if (stopped) return;
      const stream = this.raw.WatchClients({ knownVersion: known.toString() }, this.metadata());
      call = stream;
      stream.on('data', (set: ClientSet__Output) => {
        attempt = 0;
        const version = BigInt(set.version);
        // A set it holds is skipped, except the first one at version 0 while it holds none: a
        // server without clients still has the vantage points' UUID to admit.
        if (version < known || (version === known && (version !== 0n || applied))) return;
        applied = true;
        known = version;
        applying = applying.then(() => onSet(set)).catch(() => undefined);
      });
      stream.on('error', (error: grpc.ServiceError) => {
        if (stream !== call) return;
        reconnect(error);
      });
      stream.on('end', () => {
        if (stream !== call) return;
        reconnect(new Error('WatchClients stream ended'));
      });
    };

    connect();
    return {
      stop: () => {
        stopped = true;
        if (retry !== null) timers.clearTimeout(retry);
        const current = call;
        call = null;
        current?.cancel();
      },
    };
  }

  close(): void {
    this.reports?.close();
    this.raw.close();
  }
}

/**
 * Why a TLS handshake with the control plane fails (node's words, e.g. "unable to verify the
 * first certificate"), or null when it succeeds: grpc-js's own errors may not say.
 */
export function tlsHandshakeError(
  connection: ControlPlaneConnection,
  timeoutMs = 3_000,
): Promise<string | null> {
  const target = parseHostPort(connection.target);
  if (!target) return Promise.resolve('the address is not host:port');
  let ca: Buffer | undefined;
  try {
    ca = connection.caFile ? readCaFile(connection.caFile) : undefined;
  } catch (error) {
    return Promise.resolve((error as Error).message);
  }
  return new Promise((resolve) => {
    const socket = tls.connect({
      host: target.host,
      port: target.port,
      ca,
      servername: net.isIP(target.host) ? undefined : target.host,
      ALPNProtocols: ['h2'],
    });
    const done = (result: string | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(`no TLS handshake within ${timeoutMs} ms`), timeoutMs);
    socket.once('secureConnect', () => done(null));
    socket.once('error', (error) => done(error.message));
  });
}

/** Node's words for a certificate the agent does not trust, as grpc-js passes them on. */
const TLS_TRUST_FAILURE =
  /certificate|self[- ]signed|Hostname\/IP does not match|unable to get (local )?issuer/i;

/** grpc-js appends "Resolution note: " even when it has none. */
function cleanDetails(details: string): string {
  return details.replace(/\.?\s*Resolution note:\s*$/, '').trim();
}

/**
 * A gRPC failure as an operator-facing error: exit 69 when the control plane is unreachable;
 * a certificate the agent does not trust is named as such (it is not a network problem, and
 * retrying will not help), with the CA file it was checked against.
 */
export function describeGrpcError(
  error: unknown,
  action: string,
  connection?: ControlPlaneConnection,
): AgentError {
  const service = error as Partial<grpc.ServiceError>;
  const code = service.code;
  const details = cleanDetails(
    service.details || (error instanceof Error ? error.message : String(error)),
  );
  if (
    connection?.tls &&
    (code === grpc.status.UNAVAILABLE || code === undefined) &&
    TLS_TRUST_FAILURE.test(details)
  ) {
    const reason = details.replace(/^.*Last error: (Error: )?/, '');
    const host = parseHostPort(connection.target)?.host ?? connection.target;
    const hostMismatch = /does not match/i.test(reason);
    return new AgentError(
      hostMismatch
        ? `${action}: the control plane's TLS certificate is not valid for ${host} (${reason})`
        : `${action}: the control plane's TLS certificate is not trusted (${reason})` +
            (connection.caFile
              ? `: it was not issued by a CA in ${connection.caFile}`
              : ': it was not issued by a CA this machine trusts'),
      {
        hint: hostMismatch
          ? 'use in --server a host name (or IP) that the control plane certificate lists'
          : connection.caFile
            ? 'pass --ca-file the CA certificate that issued the control plane certificate (GRPC_TLS_CERT)'
            : 'if the control plane certificate comes from a private CA, pass --ca-file <that CA certificate>',
        cause: error,
      },
    );
  }
  if (code === grpc.status.UNAVAILABLE || code === grpc.status.DEADLINE_EXCEEDED) {
    return new AgentError(`${action}: control plane unreachable (${details})`, {
      exitCode: EXIT_CODES.unavailable,
      hint:
        connection && !connection.tls
          ? 'check --server (host:port of the gRPC port) and the firewall; a control plane with a TLS certificate (GRPC_TLS_CERT) needs --ca-file <its CA> (or, with a public CA, a non-loopback --server)'
          : 'check --server (host:port of the gRPC port), the firewall, and TLS vs --insecure',
      cause: error,
    });
  }
  const name = code === undefined ? 'error' : (grpc.status[code] ?? String(code));
  return new AgentError(`${action}: ${name}: ${details}`, { cause: error });
}
