import * as grpc from '@grpc/grpc-js';
import { PassThrough } from 'node:stream';
import type { Socket } from 'socket.io-client';
import type { AgentServiceClient } from '@scn/proto';
import { ClientSetsService } from '../../src/client-sets/client-sets.service';
import { registerAccount } from '../support/accounts';
import { watch } from '../support/agent-client';
import {
  type AppBehindDbProxy,
  startAppBehindDbProxy,
  until,
} from '../support/app-behind-db-proxy';
import { enrolledNode } from '../support/enrolled-node';
import type { TcpProxy } from '../support/tcp-proxy';
import type { TestApp } from '../support/test-app';

/**
 * A database outage from the control plane's side: it reaches PostgreSQL through a TCP proxy this spec
 * takes down (every connection reset, new ones refused: a stopped server) and brings back. While
 * down: 503 with Retry-After, gRPC UNAVAILABLE, live but not ready. Once back: ready, LISTEN
 * back, every open WatchClients stream sent its set again, browsers told to refetch.
 * (node-agent/test/e2e/database-outage.e2e-spec.ts does it with a real database stop, a real
 * agent and v2ray.)
 */
let env: AppBehindDbProxy;
let proxy: TcpProxy;
let t: TestApp;
let agent: AgentServiceClient;
let socket: Socket;
const realtime: string[] = [];
let logs = '';

interface LogLine {
  level: number;
  msg: string;
  req?: { path: string };
}

/** The lines about requests (access log, exception filter) logged since `from`. */
function requestLinesSince(from: number): LogLine[] {
  return logs
    .slice(from)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as LogLine)
    .filter((line) => line.req !== undefined);
}

beforeAll(async () => {
  const logStream = new PassThrough();
  logStream.on('data', (chunk: Buffer) => (logs += chunk.toString()));
  env = await startAppBehindDbProxy({ LOG_LEVEL: 'warn' }, { logStream });
  ({ proxy, t, agent, socket } = env);
  socket.on('server-list-updated', (event: { reason: string }) => realtime.push(event.reason));
});

afterAll(() => env.close());

describe('the control plane across a database outage', () => {
  it('should answer 503 and UNAVAILABLE while down, then re-listen and re-sync', async () => {
    const client = await registerAccount(t, { userType: 'client' });
    const node = await enrolledNode(t, agent, 'tier1');
    const { metadata } = node;
    const stream = watch(agent, metadata);
    // A node holding no set first gets the current one (version 0, the probe UUID).
    await stream.waitFor(() => stream.sets.length === 1);
    stream.sets.shift();
    const version = await t.app
      .get(ClientSetsService)
      .setAllowedClients(node.id, ['11111111-1111-4111-8111-111111111111']);
    await stream.waitFor(() => stream.sets.length === 1);
    expect(stream.sets[0]!.version).toBe(version);

    proxy.down();
    const outageLogs = logs.length;
    const refused = await until('a 503', async () => {
      const response = await t
        .http()
        .get(`/wallet/client/${client.uuid}`)
        .set('Cookie', client.cookie);
      return response.status === 503 ? response : undefined;
    });
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.body).toEqual({
      success: false,
      message: 'The service is temporarily unavailable (database); retry shortly',
      code: 'common.unavailable',
    });
    expect((await t.http().get('/data/stats')).status).toBe(503);
    expect((await t.http().get('/health/live')).status).toBe(200);
    const notReady = await t.http().get('/health/ready').expect(503);
    expect(notReady.headers['retry-after']).toBe('5');
    expect(notReady.body).toMatchObject({ success: false, database: 'down', listen: 'down' });
    expect((await t.http().get('/healthz')).status).toBe(503);
    // An outage is expected: each 503 is one line at warn, no stack, never "Unhandled error".
    await new Promise((resolve) => setTimeout(resolve, 200));
    const outageLines = requestLinesSince(outageLogs);
    expect(
      outageLines.filter((line) => line.level !== 40 || line.msg !== 'request unavailable'),
    ).toEqual([]);
    for (const path of ['/data/stats', '/health/ready', '/healthz'])
      expect([path, outageLines.filter((line) => line.req?.path === path).length]).toEqual([
        path,
        1,
      ]);
    expect(JSON.stringify(outageLines)).not.toContain('stack');
    // A new stream needs the database (the node's credential is read there, fresh).
    const during = watch(agent, metadata);
    const status = await new Promise<grpc.StatusObject>((resolve) => during.onStatus(resolve));
    expect(status.code).toBe(grpc.status.UNAVAILABLE);

    const reconnectsBefore = realtime.filter((r) => r === 'resync').length;
    proxy.up();
    const ready = await until('readiness', async () => {
      const response = await t.http().get('/health/ready');
      return response.status === 200 ? response : undefined;
    });
    expect(ready.body).toEqual({
      success: true,
      status: 'ready',
      database: 'ok',
      migrations: 'ok',
      listen: 'ok',
    });
    // LISTEN is back: the open stream got its (unchanged) set again, the browsers a refetch.
    await stream.waitFor(() => stream.sets.length === 2, 10_000);
    expect(stream.sets[1]).toEqual(stream.sets[0]);
    await until('a resync event', async () =>
      realtime.filter((r) => r === 'resync').length > reconnectsBefore ? true : undefined,
    );
    expect(stream.failure).toBeNull();

    // And changes flow again.
    const next = await t.app
      .get(ClientSetsService)
      .setAllowedClients(node.id, [
        '11111111-1111-4111-8111-111111111111',
        '22222222-2222-4222-8222-222222222222',
      ]);
    await stream.waitFor(() => stream.sets.some((s) => s.version === next));
    await t.http().get(`/wallet/client/${client.uuid}`).set('Cookie', client.cookie).expect(200);
    stream.cancel();
  }, 90_000);
});
