import type { AddressInfo } from 'node:net';
import { io, type Socket } from 'socket.io-client';
import type { AgentServiceClient } from '@scn/proto';
import type { AppOptions } from '../../src/app.module';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { agentClient } from './agent-client';
import { TcpProxy } from './tcp-proxy';
import { startTestApp, type TestApp } from './test-app';
import { createTestDatabase, type TestDatabase } from './test-database';

export interface AppBehindDbProxy {
  db: TestDatabase;
  /** Between the app and PostgreSQL: `down()` is a stopped database server, `up()` brings it back. */
  proxy: TcpProxy;
  t: TestApp;
  agent: AgentServiceClient;
  /** A browser's socket.io connection to the app. */
  socket: Socket;
  close(): Promise<void>;
}

/**
 * The real app listening on loopback, reaching a fresh database only through a TCP proxy a spec
 * can take down, with short database timeouts so that an outage shows within seconds; an agent
 * gRPC client and a socket.io client on it.
 */
export async function startAppBehindDbProxy(
  env: Record<string, string>,
  options: AppOptions = {},
): Promise<AppBehindDbProxy> {
  const db = await createTestDatabase();
  const target = new URL(db.url);
  const proxy = await TcpProxy.start({
    host: target.hostname,
    port: Number(target.port || 5432),
  });
  const t = await startTestApp(
    {
      DATABASE_URL: proxy.urlFor(db.url),
      DB_CONNECT_TIMEOUT_MS: '1000',
      DB_STATEMENT_TIMEOUT_MS: '2000',
      DB_QUERY_TIMEOUT_MS: '3000',
      DB_LOCK_TIMEOUT_MS: '1000',
      ...env,
    },
    options,
  );
  await t.app.listen(0, '127.0.0.1');
  const { port } = t.app.getHttpServer().address() as AddressInfo;
  const socket = io(`http://127.0.0.1:${port}`, { transports: ['websocket'] });
  const agent = agentClient(t.app.get(AgentGrpcServer).port);
  return {
    db,
    proxy,
    t,
    agent,
    socket,
    async close() {
      proxy.up();
      socket.close();
      agent.close();
      await t.close();
      await proxy.close();
      await db.drop();
    },
  };
}

/** Polls `attempt` until it gives a value (30 s at most). */
export async function until<T>(what: string, attempt: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await attempt();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
