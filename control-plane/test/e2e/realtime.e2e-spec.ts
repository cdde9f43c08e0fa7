import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createApp } from '../../src/bootstrap';
import { loadConfig } from '../../src/config/app-config';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { registerAccount } from '../support/accounts';
import { agentClient, enroll, nodeMetadata, report } from '../support/agent-client';
import { insertServers } from '../support/market-fixtures';
import { watchServerList } from '../support/realtime';
import { startTestApp, type TestApp } from '../support/test-app';

let t: TestApp;
let socket: Socket;
const events: Array<{ reason: string }> = [];

beforeAll(async () => {
  t = await startTestApp();
  socket = await watchServerList(t, events);
});
afterAll(async () => {
  socket.close();
  await t.close();
});

async function until(predicate: () => boolean) {
  const deadline = Date.now() + 5000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`no event; got ${JSON.stringify(events)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('server-list-updated', () => {
  it('should be emitted when a server appears, reports its address, and disappears', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const { body } = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ tier: 'tier1' })
      .expect(201);
    const client = agentClient(t.app.get(AgentGrpcServer).port);
    const node = await enroll(client, {
      enrollmentToken: body.token,
      tier: 'TIER_1',
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
    });
    await until(() => events.some((e) => e.reason === 'added'));
    await report(client, nodeMetadata(node.nodeId, node.nodeSecret), {
      agentVersion: '0.1.0',
      uptimeSeconds: '1',
      activeClients: 0,
      clientCountFailed: false,
      clientTraffic: [],
      pingMs: 5,
      publicHost: '127.0.0.1',
      publicPort: 20001,
      inbound: { security: 'none', sni: '', fp: '', pbk: '', sid: '', flow: '', network: 'tcp' },
      appliedClientSetVersion: '0',
    });
    client.close();
    await until(() => events.some((e) => e.reason === 'address'));
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${node.nodeId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    await until(() => events.some((e) => e.reason === 'removed'));
  });
});

describe('several replicas', () => {
  let replica: NestExpressApplication;
  let replicaSocket: Socket;
  const heard: Array<{ reason: string }> = [];

  beforeAll(async () => {
    // A second control plane on the same database, as a second replica behind a balancer.
    const config = loadConfig({ ...process.env, ...envOf(t), GRPC_PORT: 'off' });
    replica = await createApp(config, t.db.url);
    await replica.listen(0, '127.0.0.1');
    const { port } = replica.getHttpServer().address() as AddressInfo;
    replicaSocket = io(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      reconnection: false,
    });
    replicaSocket.on('server-list-updated', (event: { reason: string }) => heard.push(event));
    await new Promise<void>((resolve, reject) => {
      replicaSocket.once('connect', () => resolve());
      replicaSocket.once('connect_error', reject);
    });
  });
  afterAll(async () => {
    replicaSocket.close();
    await replica.close();
  });

  it('should reach the browsers of every replica, not only the one that made the change', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    // A change on this replica (Node Configuration renames a server) ...
    const [serverId] = await insertServers(t.db, [{ ownerUuid: operator.uuid }], new Date());
    await t
      .http()
      .patch(`/nodes/server/${operator.uuid}/${serverId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ name: 'Renamed' })
      .expect(200);
    // ... is heard by the browsers of the other.
    const deadline = Date.now() + 5000;
    while (!heard.some((e) => e.reason === 'updated')) {
      if (Date.now() > deadline) throw new Error(`replica heard nothing: ${JSON.stringify(heard)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  });
});

/** The environment the test app was configured from (the replica must share its database and secret). */
function envOf(app: TestApp): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: app.db.url,
    SMTP_URL: 'smtp://127.0.0.1:1',
    APP_SECRET: app.config.appSecret,
    DATA_DIR: app.config.dataDir,
  };
}
