import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceClient,
  GRPC_LOADER_OPTIONS,
  type ReportRequest,
  type ReportRequest__Output,
  type ReportResponse,
} from '@scn/proto';
import { ReportChannel, UNARY_FALLBACK_MS } from './report-channel';

const proto = grpc.loadPackageDefinition(
  protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
) as unknown as AgentProtoGrpcType;

const answer = (uptime: string): ReportResponse => ({
  accepted: true,
  serverTimeMs: '1',
  reliability: Number(uptime),
  available: true,
  nextReportIntervalMs: 60_000,
  handlingMs: 0,
});

const request = (uptime: number): ReportRequest => ({
  agentVersion: '0.1.0',
  uptimeSeconds: String(uptime),
});

type StreamBehaviour = 'answer' | 'silent' | { refuseWith: grpc.status } | 'end-after-one';

/**
 * A bare AgentService on loopback that records what reached it. Without `stream`, it has no
 * ReportStream (grpc-js answers UNIMPLEMENTED), as a control plane from before it would.
 */
async function fakeControlPlane(stream: StreamBehaviour | null) {
  const seen = {
    streams: 0,
    streamReports: [] as string[],
    unaryReports: [] as string[],
    cancelled: 0,
  };
  const server = new grpc.Server();
  const handlers: grpc.UntypedServiceImplementation = {
    Report: (
      call: grpc.ServerUnaryCall<ReportRequest__Output, ReportResponse>,
      callback: grpc.sendUnaryData<ReportResponse>,
    ) => {
      seen.unaryReports.push(call.request.uptimeSeconds);
      callback(null, answer(call.request.uptimeSeconds));
    },
  };
  if (stream) {
    handlers.ReportStream = (
      call: grpc.ServerDuplexStream<ReportRequest__Output, ReportResponse>,
    ) => {
      seen.streams += 1;
      call.on('cancelled', () => (seen.cancelled += 1));
      call.on('data', (message: ReportRequest__Output) => {
        seen.streamReports.push(message.uptimeSeconds);
        if (stream === 'answer') call.write(answer(message.uptimeSeconds));
        else if (stream === 'end-after-one') {
          call.write(answer(message.uptimeSeconds));
          call.end();
        } else if (stream !== 'silent')
          call.emit('error', { code: stream.refuseWith, details: 'refused here' });
      });
    };
  }
  server.addService(proto.scn.agent.v1.AgentService.service, handlers);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const raw: AgentServiceClient = new proto.scn.agent.v1.AgentService(
    `127.0.0.1:${port}`,
    grpc.credentials.createInsecure(),
  );
  return {
    seen,
    raw,
    close: () => {
      raw.close();
      server.forceShutdown();
    },
  };
}

const metadata = () => new grpc.Metadata();
let cleanup: Array<() => void> = [];
afterEach(() => {
  for (const close of cleanup) close();
  cleanup = [];
});
async function setUp(stream: StreamBehaviour | null, clock = { now: () => Date.now() }) {
  const cp = await fakeControlPlane(stream);
  const channel = new ReportChannel(cp.raw, metadata, { clock });
  cleanup.push(() => {
    channel.close();
    cp.close();
  });
  return { ...cp, channel };
}

describe('ReportChannel', () => {
  it('should send every report on one stream and match the answers in order', async () => {
    const { channel, seen } = await setUp('answer');
    const first = await channel.report(request(1), 5_000);
    const both = await Promise.all([
      channel.report(request(2), 5_000),
      channel.report(request(3), 5_000),
    ]);
    expect([first, ...both].map((a) => a.reliability)).toEqual([1, 2, 3]);
    expect(seen).toMatchObject({ streams: 1, streamReports: ['1', '2', '3'], unaryReports: [] });
  });

  it('should open a new stream when the control plane ended the last one', async () => {
    const { channel, seen } = await setUp('end-after-one');
    expect((await channel.report(request(1), 5_000)).reliability).toBe(1);
    await new Promise((r) => setTimeout(r, 50));
    expect((await channel.report(request(2), 5_000)).reliability).toBe(2);
    expect(seen.streams).toBe(2);
  });

  it('should fail a report with the status the stream ended with, and retry on a new stream', async () => {
    const { channel, seen } = await setUp({ refuseWith: grpc.status.PERMISSION_DENIED });
    await expect(channel.report(request(1), 5_000)).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      details: 'refused here',
    });
    await expect(channel.report(request(2), 5_000)).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
    });
    expect(seen).toMatchObject({ streams: 2, unaryReports: [] });
  });

  it('should fail a report that misses its deadline and cancel the stream it waited on', async () => {
    const { channel, seen } = await setUp('silent');
    const started = Date.now();
    const waiting = [channel.report(request(1), 200), channel.report(request(2), 5_000)];
    for (const report of waiting) {
      await expect(report).rejects.toMatchObject({ code: grpc.status.DEADLINE_EXCEEDED });
    }
    expect(Date.now() - started).toBeLessThan(4_000);
    await new Promise((r) => setTimeout(r, 100));
    expect(seen.cancelled).toBe(1);
  });

  it('should send unary reports to a control plane without ReportStream, and try the stream again later', async () => {
    let now = 1_000_000;
    const { channel, seen } = await setUp(null, { now: () => now });
    expect((await channel.report(request(1), 5_000)).reliability).toBe(1);
    expect(channel.unary).toBe(true);
    expect((await channel.report(request(2), 5_000)).reliability).toBe(2);
    expect(seen.unaryReports).toEqual(['1', '2']);
    now += UNARY_FALLBACK_MS;
    expect(channel.unary).toBe(false);
    expect((await channel.report(request(3), 5_000)).reliability).toBe(3);
    expect(seen.unaryReports).toEqual(['1', '2', '3']);
  });

  it('should fail the reports still waiting when it is closed', async () => {
    const { channel } = await setUp('silent');
    const waiting = channel.report(request(1), 5_000);
    await new Promise((r) => setTimeout(r, 50));
    channel.close();
    await expect(waiting).rejects.toMatchObject({ code: grpc.status.CANCELLED });
  });
});
