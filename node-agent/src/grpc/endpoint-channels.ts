import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceClient,
  GRPC_LOADER_OPTIONS,
} from '@scn/proto';
import { AgentError, EXIT_CODES } from '../errors';
import {
  type Endpoint,
  formatHostPort,
  type HostPort,
  movesOn,
  parseControlPlaneList,
} from './control-plane-endpoints';

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

/** The standard gRPC health check's method: cheap to ask any gRPC server. */
const HEALTH_CHECK = '/grpc.health.v1.Health/Check';

/**
 * Whether the control plane behind `channel` answers within the deadline: a health check, which
 * carries no credential and reaches no handler. Any status the server itself sends counts
 * (UNIMPLEMENTED too: the server process is up and serving gRPC); refused, unreachable and
 * timed-out do not (the statuses after which the agent moves on).
 */
export function endpointAnswers(channel: grpc.Client, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    channel.makeUnaryRequest(
      HEALTH_CHECK,
      () => Buffer.alloc(0), // an empty HealthCheckRequest: the whole server
      (bytes: Buffer) => bytes,
      {},
      // Waits out the channel's reconnect backoff (up to 5 s, below) rather than failing at
      // once: the channel that answers is the one the agent's calls use after moving back.
      new grpc.Metadata({ waitForReady: true }),
      { deadline: Date.now() + timeoutMs },
      (error) => resolve(!error || !movesOn(error)),
    );
  });
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
