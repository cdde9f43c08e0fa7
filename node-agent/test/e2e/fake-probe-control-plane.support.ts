import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_METADATA,
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type EnrollProbeRequest__Output,
  GRPC_LOADER_OPTIONS,
  type ProbeReport__Output,
  type ProbeTasksResponse,
} from '@scn/proto';

/**
 * The three vantage-point calls of scn.agent.v1.AgentService on an in-process grpc-js server on
 * loopback: it records what the probe sent (requests and credential metadata) and answers what
 * the test sets. The node's calls answer UNIMPLEMENTED.
 */
export interface FakeProbeControlPlane {
  target: string;
  probeId: string;
  probeSecret: string;
  enrollments: EnrollProbeRequest__Output[];
  /** The credential metadata of each ProbeTasks and ReportProbe call, and when it came. */
  calls: Array<{
    rpc: 'ProbeTasks' | 'ReportProbe';
    probeId: string;
    authorization: string;
    at: number;
  }>;
  reports: ProbeReport__Output[];
  tasks: ProbeTasksResponse;
  /** When set, ProbeTasks fails with this status. */
  failTasksWith: grpc.status | null;
  nextIntervalMs: number;
  close(): Promise<void>;
}

export async function startFakeProbeControlPlane(): Promise<FakeProbeControlPlane> {
  const definition = protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS);
  const proto = grpc.loadPackageDefinition(definition) as unknown as AgentProtoGrpcType;
  const server = new grpc.Server();
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<never>) =>
    callback({ code: grpc.status.UNIMPLEMENTED, details: 'not here' });
  const fake: FakeProbeControlPlane = {
    target: '',
    probeId: 'b3c1f6a2-4c55-4d0e-9a51-0f3e0a4c2d11',
    probeSecret: 'probe-secret-0123456789abcdef',
    enrollments: [],
    calls: [],
    reports: [],
    tasks: { endpoints: [], intervalMs: 60_000, timeoutMs: 5_000, targetUrl: '' },
    failTasksWith: null,
    nextIntervalMs: 0,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
  const record = (rpc: 'ProbeTasks' | 'ReportProbe', metadata: grpc.Metadata) =>
    fake.calls.push({
      rpc,
      probeId: String(metadata.get(AGENT_METADATA.probeId)[0] ?? ''),
      authorization: String(metadata.get(AGENT_METADATA.authorization)[0] ?? ''),
      at: Date.now(),
    });
  server.addService(proto.scn.agent.v1.AgentService.service, {
    Enroll: unimplemented,
    Report: unimplemented,
    ReportStream: (call: grpc.ServerDuplexStream<unknown, unknown>) =>
      call.destroy(Object.assign(new Error('not here'), { code: grpc.status.UNIMPLEMENTED })),
    WatchClients: (call: grpc.ServerWritableStream<unknown, unknown>) =>
      call.destroy(Object.assign(new Error('not here'), { code: grpc.status.UNIMPLEMENTED })),
    EnrollProbe: (
      call: grpc.ServerUnaryCall<EnrollProbeRequest__Output, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      fake.enrollments.push(call.request);
      callback(null, {
        probeId: fake.probeId,
        probeSecret: fake.probeSecret,
        country: 'IR',
        asn: 44244,
      });
    },
    ProbeTasks: (
      call: grpc.ServerUnaryCall<unknown, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      record('ProbeTasks', call.metadata);
      if (fake.failTasksWith !== null) callback({ code: fake.failTasksWith, details: 'not yet' });
      else callback(null, fake.tasks);
    },
    ReportProbe: (
      call: grpc.ServerUnaryCall<ProbeReport__Output, unknown>,
      callback: grpc.sendUnaryData<unknown>,
    ) => {
      record('ReportProbe', call.metadata);
      fake.reports.push(call.request);
      callback(null, {
        accepted: call.request.results.length,
        nextIntervalMs: fake.nextIntervalMs,
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  fake.target = `127.0.0.1:${port}`;
  return fake;
}
