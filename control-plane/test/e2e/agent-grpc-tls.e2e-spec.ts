import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import {
  AGENT_PROTO_PATH,
  type AgentProtoGrpcType,
  type AgentServiceClient,
  GRPC_LOADER_OPTIONS,
} from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { enroll, statusOf } from '../support/agent-client';
import { startTestApp, type TestApp } from '../support/test-app';

/** The agent gRPC server over TLS when GRPC_TLS_CERT and GRPC_TLS_KEY are set. */
let t: TestApp;
let dir = '';
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'scn-grpc-tls-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  t = await startTestApp({
    GRPC_TLS_CERT: join(dir, 'cert.pem'),
    GRPC_TLS_KEY: join(dir, 'key.pem'),
  });
});
afterAll(() => t.close());

function client(credentials: grpc.ChannelCredentials): AgentServiceClient {
  const proto = grpc.loadPackageDefinition(
    protoLoader.loadSync(AGENT_PROTO_PATH, GRPC_LOADER_OPTIONS),
  ) as unknown as AgentProtoGrpcType;
  return new proto.scn.agent.v1.AgentService(
    `localhost:${t.app.get(AgentGrpcServer).port}`,
    credentials,
  );
}

const request = {
  enrollmentToken: 'A'.repeat(43),
  tier: 'TIER_1' as const,
  agentVersion: '0.1.0',
  hardware: {
    os: 'linux',
    osRelease: '12',
    arch: 'x64',
    cpuCores: 1,
    cpuModel: 'x',
    cpuGhz: 2,
    ramBytes: String(1024 ** 3),
    diskBytes: '1',
  },
};

describe('agent gRPC over TLS', () => {
  it('should serve an agent that trusts the certificate (the unknown token is then refused)', async () => {
    const tls = client(grpc.credentials.createSsl(readFileSync(join(dir, 'cert.pem'))));
    expect(await statusOf(enroll(tls, request))).toBe(grpc.status.UNAUTHENTICATED);
    tls.close();
  });

  it('should not talk plaintext, nor to an agent that does not trust the certificate', async () => {
    const plain = client(grpc.credentials.createInsecure());
    expect(await statusOf(enroll(plain, request))).toBe(grpc.status.UNAVAILABLE);
    plain.close();
    const untrusting = client(grpc.credentials.createSsl());
    expect(await statusOf(enroll(untrusting, request))).toBe(grpc.status.UNAVAILABLE);
    untrusting.close();
  });
});
