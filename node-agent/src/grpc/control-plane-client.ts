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
import { AgentError, EXIT_CODES } from '../errors';
import { type ClientSetWatch, watchClientSets, type WatchOptions } from './client-set-watch';
import {
  type Endpoint,
  EndpointRotation,
  formatHostPort,
  type HostPort,
  type Lookup,
  movesOn,
  parseControlPlaneList,
} from './control-plane-endpoints';
import { ReportChannel } from './report-channel';

export type { ClientSetWatch, WatchOptions } from './client-set-watch';

export { parseHostPort } from './control-plane-endpoints';
export type { HostPort } from './control-plane-endpoints';

/** The addresses of `target` (one or several), or a usage error naming it. */
export function controlPlaneList(target: string): HostPort[] {
  const list = parseControlPlaneList(target);
  if (!list) {
    throw new AgentError(
      `control plane address "${target}" must be host:port, or several separated by commas`,
      { exitCode: EXIT_CODES.usage },
    );
  }
  return list;
}

export function isLoopback(host: string): boolean {
  if (host === 'localhost' || host === '::1') return true;
  return net.isIPv4(host) && host.startsWith('127.');
}

export interface ControlPlaneConnection {
  /**
   * `host:port`, or several separated by commas (the control plane's replicas); a name with
   * several A/AAAA records counts as several (control-plane-endpoints.ts).
   */
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

const ENROLL_DEADLINE_MS = 15_000;
export const REPORT_DEADLINE_MS = 10_000;

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
  const list = controlPlaneList(connection.target);
  if (connection.tls) {
    // null roots: grpc-js uses the system/bundled roots.
    return grpc.credentials.createSsl(connection.caFile ? readCaFile(connection.caFile) : null);
  }
  // Per endpoint: a loopback replica may speak plaintext, a remote one may not.
  const remote = list.find((entry) => !isLoopback(entry.host));
  if (remote && !connection.insecure) {
    throw new AgentError(
      `refusing plaintext gRPC to ${formatHostPort(remote)}: the node secret would cross the network unencrypted`,
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

/**
 * One channel per endpoint, made on first use with the connection's credentials (checked for
 * every endpoint up front); an address looked up from a name keeps the name for TLS.
 */
export class EndpointChannels {
  private readonly credentials: grpc.ChannelCredentials;
  private readonly channels = new Map<string, AgentServiceClient>();

  constructor(connection: ControlPlaneConnection) {
    this.credentials = credentialsFor(connection);
  }

  get(endpoint: Endpoint): AgentServiceClient {
    let channel = this.channels.get(endpoint.target);
    if (!channel) {
      const AgentService = loadAgentService();
      const name = formatHostPort({ host: endpoint.name, port: endpoint.port });
      channel = new AgentService(endpoint.target, this.credentials, {
        'grpc.keepalive_time_ms': 60_000,
        'grpc.keepalive_timeout_ms': 20_000,
        // The agent's own backoff paces retries; grpc-js's (up to 120 s) must not add to it
        // when a replica comes back.
        'grpc.initial_reconnect_backoff_ms': 1_000,
        'grpc.max_reconnect_backoff_ms': 5_000,
        ...(endpoint.target !== name
          ? { 'grpc.ssl_target_name_override': endpoint.name, 'grpc.default_authority': name }
          : {}),
      });
      this.channels.set(endpoint.target, channel);
    }
    return channel;
  }

  close(): void {
    for (const channel of this.channels.values()) channel.close();
    this.channels.clear();
  }
}

export interface ControlPlaneClientOptions {
  /** How names are looked up (default: node:dns, /etc/hosts then the machine's resolvers). */
  lookup?: Lookup;
}

/**
 * The agent's side of scn.agent.v1.AgentService: promise wrappers with deadlines, over the
 * endpoint the rotation holds current (control-plane-endpoints.ts), one channel per endpoint.
 */
export class ControlPlaneClient {
  readonly rotation: EndpointRotation;
  /** The endpoint that answered the last report (null before one was answered). */
  lastAnswered: Endpoint | null = null;
  private readonly channels: EndpointChannels;
  private reports: { target: string; channel: ReportChannel } | null = null;

  constructor(
    readonly connection: ControlPlaneConnection,
    private readonly credential?: NodeCredential,
    options: ControlPlaneClientOptions = {},
  ) {
    this.channels = new EndpointChannels(connection);
    this.rotation = new EndpointRotation(controlPlaneList(connection.target), {
      key: credential?.nodeId,
      lookup: options.lookup,
    });
  }

  /** The channel of the current endpoint (before any lookup: the first address written). */
  get raw(): AgentServiceClient {
    return this.channelFor(this.rotation.peek());
  }

  channelFor(endpoint: Endpoint): AgentServiceClient {
    return this.channels.get(endpoint);
  }

  metadata(): grpc.Metadata {
    if (!this.credential) throw new Error('this client has no node credential: enroll first');
    const metadata = new grpc.Metadata();
    metadata.set(AGENT_METADATA.nodeId, this.credential.nodeId);
    metadata.set(AGENT_METADATA.authorization, `Bearer ${this.credential.nodeSecret}`);
    return metadata;
  }

  /** Enroll, trying each endpoint in turn while they are unreachable. */
  async enroll(
    request: EnrollRequest,
    deadlineMs = ENROLL_DEADLINE_MS,
  ): Promise<EnrollResponse__Output> {
    let endpoint = await this.rotation.current();
    for (let tried = 1; ; tried += 1) {
      const channel = this.channelFor(endpoint);
      try {
        return await new Promise<EnrollResponse__Output>((resolve, reject) =>
          channel.Enroll(request, { deadline: Date.now() + deadlineMs }, (error, response) =>
            error || !response
              ? reject(error ?? new Error('empty Enroll response'))
              : resolve(response),
          ),
        );
      } catch (error) {
        if (!movesOn(error) || tried >= this.rotation.size) throw error;
        this.rotation.failed(endpoint);
        endpoint = await this.rotation.current();
      }
    }
  }

  /**
   * One report, on the node's long-lived ReportStream to the current endpoint (see
   * ReportChannel). An answer is a contact (every stream's backoff resets); a failure that
   * says the endpoint is gone moves the agent to the next one.
   */
  async report(
    request: ReportRequest,
    deadlineMs = REPORT_DEADLINE_MS,
  ): Promise<ReportResponse__Output> {
    const endpoint = await this.rotation.current();
    try {
      const response = await this.reportChannel(endpoint).report(request, deadlineMs);
      this.lastAnswered = endpoint;
      this.rotation.contact(endpoint);
      return response;
    } catch (error) {
      if (movesOn(error)) this.rotation.failed(endpoint);
      throw error;
    }
  }

  private reportChannel(endpoint: Endpoint): ReportChannel {
    if (this.reports?.target === endpoint.target) return this.reports.channel;
    this.reports?.channel.close();
    const channel = new ReportChannel(this.channelFor(endpoint), () => this.metadata(), {
      // The stream ended while no report waited on it (a replica stopped): move on now, not at
      // the next report.
      onEnded: (error) => {
        if (movesOn(error)) this.rotation.failed(endpoint);
      },
    });
    this.reports = { target: endpoint.target, channel };
    return channel;
  }

  /**
   * Whether a channel to the control plane comes up within the deadline (no RPC is sent), for
   * each endpoint: reachable when one is. When a TLS channel does not come up, a bare handshake
   * tells why (e.g. the certificate is not trusted).
   */
  async checkConnectivity(timeoutMs = 3_000): Promise<Connectivity> {
    const endpoints = await this.rotation.all();
    const results = await Promise.all(
      endpoints.map(async (endpoint) => ({
        target: endpoint.target,
        error: await this.checkEndpoint(endpoint, timeoutMs),
      })),
    );
    const failed = results.filter((result) => result.error !== null);
    return {
      reachable: failed.length < results.length,
      error:
        failed.length === 0
          ? null
          : results.length === 1
            ? failed[0]!.error
            : failed.map((result) => `${result.target}: ${result.error}`).join('; '),
      endpoints: results.map(({ target, error }) => ({ target, reachable: error === null, error })),
    };
  }

  private async checkEndpoint(endpoint: Endpoint, timeoutMs: number): Promise<string | null> {
    const channel = this.channelFor(endpoint);
    const error = await new Promise<Error | undefined>((resolve) =>
      channel.waitForReady(Date.now() + timeoutMs, (failure) => resolve(failure)),
    );
    if (!error) return null;
    const handshake = this.connection.tls
      ? await tlsHandshakeError(
          { target: endpoint.target, caFile: this.connection.caFile },
          Math.min(timeoutMs, 3_000),
          endpoint.name,
        )
      : null;
    return handshake ? `TLS: ${handshake}` : error.message;
  }

  /**
   * Follows the WatchClients stream (client-set-watch.ts): each newer set goes to `onSet`; the
   * stream follows the agent from endpoint to endpoint until stop().
   */
  watchClients(
    knownVersion: string,
    onSet: (set: ClientSet__Output) => Promise<void> | void,
    options: WatchOptions = {},
  ): ClientSetWatch {
    return watchClientSets(this, knownVersion, onSet, options);
  }

  close(): void {
    this.reports?.channel.close();
    this.reports = null;
    this.channels.close();
  }
}

export interface Connectivity {
  reachable: boolean;
  error: string | null;
  endpoints: Array<{ target: string; reachable: boolean; error: string | null }>;
}

/**
 * Why a TLS handshake with the control plane fails (node's words, e.g. "unable to verify the
 * first certificate"), or null when it succeeds: grpc-js's own errors may not say.
 */
export function tlsHandshakeError(
  connection: Pick<ControlPlaneConnection, 'target' | 'caFile'>,
  timeoutMs = 3_000,
  /** The name the certificate must hold, when `target` is an address looked up from it. */
  name?: string,
): Promise<string | null> {
  const target = parseControlPlaneList(connection.target)?.[0];
  if (!target) return Promise.resolve('the address is not host:port');
  const serverName = name ?? target.host;
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
      servername: net.isIP(serverName) ? undefined : serverName,
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
    const host =
      parseControlPlaneList(connection.target)
        ?.map((entry) => entry.host)
        .join(', ') ?? connection.target;
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
