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
import {
  type ControlPlaneConnection,
  credentialsFor,
  loadAgentService,
} from './control-plane-client';

/** A vantage point's credential, sent as metadata on ProbeTasks and ReportProbe. */
export interface ProbeCredential {
  probeId: string;
  probeSecret: string;
}

const DEADLINE_MS = 15_000;

/** A vantage point's side of scn.agent.v1.AgentService (same TLS rules as the node's client). */
export class ProbeClient {
  readonly raw: AgentServiceClient;

  constructor(
    readonly connection: ControlPlaneConnection,
    private readonly credential?: ProbeCredential,
  ) {
    const AgentService = loadAgentService();
    this.raw = new AgentService(connection.target, credentialsFor(connection), {
      'grpc.keepalive_time_ms': 60_000,
      'grpc.keepalive_timeout_ms': 20_000,
    });
  }

  private metadata(): grpc.Metadata {
    if (!this.credential) throw new Error('this client has no probe credential: enroll first');
    const metadata = new grpc.Metadata();
    metadata.set(AGENT_METADATA.probeId, this.credential.probeId);
    metadata.set(AGENT_METADATA.authorization, `Bearer ${this.credential.probeSecret}`);
    return metadata;
  }

  private deadline(ms: number): grpc.CallOptions {
    return { deadline: Date.now() + ms };
  }

  enrollProbe(request: EnrollProbeRequest): Promise<EnrollProbeResponse__Output> {
    return new Promise((resolve, reject) =>
      this.raw.EnrollProbe(request, this.deadline(DEADLINE_MS), (error, response) =>
        error || !response
          ? reject(error ?? new Error('empty EnrollProbe response'))
          : resolve(response),
      ),
    );
  }

  probeTasks(request: ProbeTasksRequest): Promise<ProbeTasksResponse__Output> {
    return new Promise((resolve, reject) =>
      this.raw.ProbeTasks(
        request,
        this.metadata(),
        this.deadline(DEADLINE_MS),
        (error, response) =>
          error || !response
            ? reject(error ?? new Error('empty ProbeTasks response'))
            : resolve(response),
      ),
    );
  }

  reportProbe(request: ProbeReport): Promise<ProbeReportResponse__Output> {
    return new Promise((resolve, reject) =>
      this.raw.ReportProbe(
        request,
        this.metadata(),
        this.deadline(DEADLINE_MS),
        (error, response) =>
          error || !response
            ? reject(error ?? new Error('empty ReportProbe response'))
            : resolve(response),
      ),
    );
  }

  close(): void {
    this.raw.close();
  }
}
