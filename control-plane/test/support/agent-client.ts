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

/** A real gRPC client of the agent service, as the agent builds it. */
export function agentClient(port: number, host = '127.0.0.1'): AgentServiceClient {
  const definition = protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS);
  const proto = grpc.loadPackageDefinition(definition) as unknown as AgentProtoGrpcType;
  return new proto.scn.agent.v1.AgentService(`${host}:${port}`, grpc.credentials.createInsecure());
}

export function nodeMetadata(nodeId: string, secret: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(AGENT_METADATA.nodeId, nodeId);
  metadata.set(AGENT_METADATA.authorization, `Bearer ${secret}`);
  return metadata;
}

export function enroll(
  client: AgentServiceClient,
  request: EnrollRequest,
): Promise<EnrollResponse__Output> {
  return new Promise((resolve, reject) =>
    client.Enroll(request, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    ),
  );
}

export function report(
  client: AgentServiceClient,
  metadata: grpc.Metadata,
  request: ReportRequest,
): Promise<ReportResponse__Output> {
  return new Promise((resolve, reject) =>
    client.Report(request, metadata, (error, response) =>
      error || !response ? reject(error) : resolve(response),
    ),
  );
}

/** The gRPC status code a promise fails with. */
export async function statusOf(promise: Promise<unknown>): Promise<grpc.status | 'ok'> {
  try {
    await promise;
    return 'ok';
  } catch (error) {
    return (error as grpc.ServiceError).code;
  }
}

/** Collects the ClientSets of a WatchClients stream. */
export function watch(client: AgentServiceClient, metadata: grpc.Metadata, knownVersion = '0') {
  const sets: ClientSet__Output[] = [];
  let failure: grpc.ServiceError | null = null;
  const call = client.WatchClients({ knownVersion }, metadata);
  const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
  call.on('data', (set: ClientSet__Output) => sets.push(set));
  call.on('error', (error: grpc.ServiceError) => (failure = error));
  return {
    sets,
    get failure() {
      return failure;
    },
    cancel: () => call.cancel(),
    /** Called with the status the stream ended with. */
    onStatus: (listener: (status: grpc.StatusObject) => void) => void status.then(listener),
    async waitFor(predicate: () => boolean, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate()) {
        if (Date.now() > deadline)
          throw new Error(`stream condition not met; sets: ${JSON.stringify(sets)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
}

/**
 * A ReportStream call: `send` writes one report and resolves with its answer (answers come in
 * order); `ended` resolves with the status the stream ended with.
 */
export function reportStream(client: AgentServiceClient, metadata: grpc.Metadata) {
  const call = client.ReportStream(metadata);
  const waiting: Array<{
    resolve: (response: ReportResponse__Output) => void;
    reject: (error: Error) => void;
  }> = [];
  const ended = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
  // A stream that ends cleanly answers nothing more.
  void ended.then(() => {
    for (const w of waiting.splice(0)) w.reject(new Error('stream ended'));
  });
  call.on('data', (response: ReportResponse__Output) => waiting.shift()?.resolve(response));
  call.on('error', (error: grpc.ServiceError) => {
    for (const w of waiting.splice(0)) w.reject(error);
  });
  return {
    send(request: ReportRequest): Promise<ReportResponse__Output> {
      return new Promise((resolve, reject) => {
        waiting.push({ resolve, reject });
        call.write(request);
      });
    },
    /** Writes without waiting for an answer (answers are then dropped). */
    write(request: ReportRequest): void {
      waiting.push({ resolve: () => undefined, reject: () => undefined });
      call.write(request);
    },
    end(): Promise<grpc.StatusObject> {
      call.end();
      return ended;
    },
    ended,
    cancel: () => call.cancel(),
  };
}

/** A machine that meets tier 1 (2 cores, 2 GiB, 50 GB), as an agent reports it. */
export const TIER1_HARDWARE = {
  os: 'linux',
  osRelease: 'Debian 12',
  arch: 'x64',
  cpuCores: 2,
  cpuModel: 'Test CPU',
  cpuGhz: 2.5,
  ramBytes: String(2 * 1024 ** 3),
  diskBytes: String(50 * 1024 ** 3),
};

/**
 * A plausible report of a running v2ray node at node.example.net:443 (TLS), no clients and a
 * fresh uptime; `overrides` set what a test is about (client counts, traffic, a failed count).
 */
export function agentReport(
  uptimeSeconds: number,
  overrides: Partial<ReportRequest> = {},
): ReportRequest {
  return {
    agentVersion: '0.1.0',
    uptimeSeconds: String(uptimeSeconds),
    proxyCore: {
      state: 'PROXY_CORE_STATE_RUNNING',
      name: 'v2ray',
      version: '4.34.0',
      restartCount: 0,
    },
    activeClients: 0,
    clientCountFailed: false,
    clientTraffic: [],
    pingMs: 12,
    publicHost: 'node.example.net',
    publicPort: 443,
    inbound: {
      security: 'tls',
      sni: 'node.example.net',
      fp: 'chrome',
      pbk: '',
      sid: '',
      flow: '',
      network: 'tcp',
    },
    appliedClientSetVersion: '0',
    ...overrides,
  };
}
