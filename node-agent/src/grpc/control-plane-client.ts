import * as grpc from '@grpc/grpc-js';
import {
  AGENT_METADATA,
  type AgentServiceClient,
  type ClientSet__Output,
  type EnrollRequest,
  type EnrollResponse__Output,
  type ReportRequest,
  type ReportResponse__Output,
} from '@scn/proto';
import { type ClientSetWatch, watchClientSets, type WatchOptions } from './client-set-watch';
import { tlsHandshakeError } from './control-plane-errors';
import { type Endpoint, EndpointRotation, type Lookup, movesOn } from './control-plane-endpoints';
import {
  type ControlPlaneConnection,
  controlPlaneList,
  EndpointChannels,
  endpointAnswers,
} from './endpoint-channels';
import { ReportChannel } from './report-channel';

// What the agent's commands import from here, wherever it lives.
export type { ClientSetWatch, WatchOptions } from './client-set-watch';
export { describeGrpcError, tlsHandshakeError } from './control-plane-errors';
export { parseHostPort } from './control-plane-endpoints';
export type { HostPort } from './control-plane-endpoints';
export { PREFERRED_CHECK_MS, PreferredEndpointReturn } from './preferred-endpoint-return';
export {
  type ControlPlaneConnection,
  controlPlaneList,
  credentialsFor,
  EndpointChannels,
  isLoopback,
  loadAgentService,
  readCaFile,
} from './endpoint-channels';

/** A node's credential, sent as metadata on every call but Enroll. */
export interface NodeCredential {
  nodeId: string;
  nodeSecret: string;
}

const ENROLL_DEADLINE_MS = 15_000;
export const REPORT_DEADLINE_MS = 10_000;
/**
 * A replica that does not answer a health check this fast is not worth moving back to; longer
 * than the channel's longest reconnect backoff (endpoint-channels.ts), which the check waits out.
 */
export const ANSWER_DEADLINE_MS = 10_000;

export interface ControlPlaneClientOptions {
  /** How names are looked up (default: node:dns, /etc/hosts then the machine's resolvers). */
  lookup?: Lookup;
  /**
   * The channel for an endpoint, when the caller shares channels between clients (the ingest
   * benchmark: thousands of nodes over a few connections); it closes them itself.
   */
  channel?: (endpoint: Endpoint) => AgentServiceClient;
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
  private readonly sharedChannel: ((endpoint: Endpoint) => AgentServiceClient) | undefined;
  private reports: { target: string; channel: ReportChannel } | null = null;

  constructor(
    readonly connection: ControlPlaneConnection,
    private readonly credential?: NodeCredential,
    options: ControlPlaneClientOptions = {},
  ) {
    this.channels = new EndpointChannels(connection);
    this.sharedChannel = options.channel;
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
    return this.sharedChannel?.(endpoint) ?? this.channels.get(endpoint);
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

  /** Whether `endpoint` answers now (a health check): PreferredEndpointReturn's check. */
  answers(endpoint: Endpoint, timeoutMs = ANSWER_DEADLINE_MS): Promise<boolean> {
    return endpointAnswers(this.channelFor(endpoint), timeoutMs);
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
