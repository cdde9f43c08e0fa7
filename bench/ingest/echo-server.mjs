// The baseline of bench/ingest: a bare @grpc/grpc-js server for the same AgentService contract
// (same proto, same loader options) whose Report, and each message on a ReportStream, answers a
// constant response and does nothing else.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS } = require('@scn/proto');

const proto = grpc.loadPackageDefinition(
  protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
);
const response = {
  accepted: true,
  serverTimeMs: String(Date.now()),
  reliability: 100,
  available: true,
  nextReportIntervalMs: 60_000,
  handlingMs: 0,
};
const server = new grpc.Server({ 'grpc.max_receive_message_length': 4 * 1024 * 1024 });
server.addService(proto.scn.agent.v1.AgentService.service, {
  Report: (_call, callback) => callback(null, response),
  ReportStream: (call) => {
    call.on('data', () => call.write(response));
    call.on('end', () => call.end());
  },
});
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  process.send({ port });
});
process.on('message', (m) => {
  if (m === 'exit') server.tryShutdown(() => process.exit(0));
});
