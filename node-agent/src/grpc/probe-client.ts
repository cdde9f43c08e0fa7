import * as grpc from '@grpc/grpc-js';
import {
  AGENT_METADATA,
  type AgentServiceClient,
  type EnrollProbeRequest,
  type EnrollProbeResponse__Output,
  type ProbeReport,
  type ProbeReportResponse__Output,
  type ProbeTasksRequest,
  type ProbeTasksResponse__Output,
} from '@scn/proto';
import { type Endpoint, EndpointRotation, movesOn } from './control-plane-endpoints';
import {
  type ControlPlaneConnection,
  controlPlaneList,
  EndpointChannels,
  endpointAnswers,
} from './endpoint-channels';

/** A vantage point's credential, sent as metadata on ProbeTasks and ReportProbe. */
export interface ProbeCredential {
  probeId: string;
  probeSecret: string;
}

const DEADLINE_MS = 15_000;

/**
 * A vantage point's side of scn.agent.v1.AgentService (same TLS rules as the node's client, and
 * the same failover: each call goes to the current endpoint, and a call that finds it gone moves
 * the next one to another replica).
 */
export class ProbeClient {
  readonly rotation: EndpointRotation;
  private readonly channels: EndpointChannels;

  constructor(
    readonly connection: ControlPlaneConnection,
    private readonly credential?: ProbeCredential,
  ) {
    this.channels = new EndpointChannels(connection);
    this.rotation = new EndpointRotation(controlPlaneList(connection.target), {
      key: credential?.probeId,
    });
  }

  private metadata(): grpc.Metadata {
    if (!this.credential) throw new Error('this client has no probe credential: enroll first');
    const metadata = new grpc.Metadata();
    metadata.set(AGENT_METADATA.probeId, this.credential.probeId);
    metadata.set(AGENT_METADATA.authorization, `Bearer ${this.credential.probeSecret}`);
    return metadata;
  }

  /** One unary call on the current endpoint, with the deadline; moves on when it is gone. */
  private async call<T>(
    name: string,
    invoke: (
      raw: AgentServiceClient,
      options: grpc.CallOptions,
      done: (error: grpc.ServiceError | null, response?: T) => void,
    ) => void,
  ): Promise<T> {
    const endpoint = await this.rotation.current();
    try {
      const response = await new Promise<T>((resolve, reject) =>
        invoke(this.channels.get(endpoint), { deadline: Date.now() + DEADLINE_MS }, (error, r) =>
          error || !r ? reject(error ?? new Error(`empty ${name} response`)) : resolve(r),
        ),
      );
      this.rotation.contact(endpoint);
      return response;
    } catch (error) {
      if (movesOn(error)) this.rotation.failed(endpoint);
      throw error;
    }
  }

  /** Whether `endpoint` answers now (a health check): PreferredEndpointReturn's check. */
  answers(endpoint: Endpoint, timeoutMs = 10_000): Promise<boolean> {
    return endpointAnswers(this.channels.get(endpoint), timeoutMs);
  }

  enrollProbe(request: EnrollProbeRequest): Promise<EnrollProbeResponse__Output> {
    return this.call('EnrollProbe', (raw, options, done) =>
      raw.EnrollProbe(request, options, done),
    );
  }

  probeTasks(request: ProbeTasksRequest): Promise<ProbeTasksResponse__Output> {
    return this.call('ProbeTasks', (raw, options, done) =>
      raw.ProbeTasks(request, this.metadata(), options, done),
    );
  }

  reportProbe(request: ProbeReport): Promise<ProbeReportResponse__Output> {
    return this.call('ReportProbe', (raw, options, done) =>
      raw.ReportProbe(request, this.metadata(), options, done),
    );
  }

  close(): void {
    this.channels.close();
  }
}
