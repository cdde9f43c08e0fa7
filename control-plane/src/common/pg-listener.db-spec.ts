import type { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { TcpProxy } from '../../test/support/tcp-proxy';
import { dataSourceOptions } from '../database/data-source';
import { PgListener } from './pg-listener';

/**
 * The LISTEN connection across outages, for real: the control plane reaches PostgreSQL through a
 * TCP proxy this spec takes down (connections reset, new ones refused) or freezes (nothing
 * answers) and brings back.
 */
const CHANNEL = 'scn_listener_spec';

let db: TestDatabase;
let proxy: TcpProxy;
let dataSource: DataSource;

beforeAll(async () => {
  db = await createTestDatabase();
  const url = new URL(db.url);
  proxy = await TcpProxy.start({ host: url.hostname, port: Number(url.port || 5432) });
  dataSource = await new DataSource(
    dataSourceOptions(proxy.urlFor(db.url), {
      connectMs: 500,
      statementMs: 2000,
      queryMs: 3000,
      lockMs: 1000,
    }),
  ).initialize();
});

afterAll(async () => {
  proxy.up();
  await dataSource.destroy();
  await proxy.close();
  await db.drop();
});

async function until(what: string, predicate: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function recordingLogger() {
  const lines: Array<{ level: string; message: string }> = [];
  const at =
    (level: string) =>
    (_fields: unknown, message: string): void => {
      lines.push({ level, message });
    };
  const logger = { warn: at('warn'), log: at('log'), debug: at('debug'), error: at('error') };
  return { lines, logger: logger as unknown as Logger };
}

function startListener() {
  const heard: string[] = [];
  let reconnects = 0;
  const { lines, logger } = recordingLogger();
  const listener = new PgListener(
    dataSource,
    CHANNEL,
    { notified: (payload) => heard.push(payload), reconnected: () => (reconnects += 1) },
    logger,
    { initialDelayMs: 20, maxDelayMs: 100, heartbeatMs: 200, heartbeatTimeoutMs: 300 },
  );
  return { listener, heard, lines, reconnects: () => reconnects };
}

const notify = (payload: string) => db.query(`SELECT pg_notify($1, $2)`, [CHANNEL, payload]);

describe('PgListener', () => {
  it('should re-listen after many failed attempts and log the loss and the recovery once', async () => {
    const { listener, heard, lines, reconnects } = startListener();
    await listener.start();
    await notify('before');
    await until('the first notification', () => heard.includes('before'));

    proxy.down();
    const refusedBefore = proxy.refused;
    // Far more attempts than the old single retry.
    await until('ten refused attempts', () => proxy.refused - refusedBefore >= 10);
    expect(listener.connected).toBe(false);
    await notify('missed'); // sent while LISTEN is down: never heard, hence the re-sync

    proxy.up();
    await until('LISTEN to come back', () => listener.connected && reconnects() === 1);
    await notify('after');
    await until('a notification after the outage', () => heard.includes('after'));
    expect(heard).toEqual(['before', 'after']);

    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'log')).toHaveLength(1);
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(0);
    await listener.stop();
  }, 60_000);

  it('should notice a frozen connection by its heartbeat and re-listen when it thaws', async () => {
    const { listener, heard, reconnects } = startListener();
    await listener.start();
    proxy.freeze();
    await until('the heartbeat to give up on the connection', () => !listener.connected);
    proxy.up();
    await until('LISTEN to come back', () => listener.connected && reconnects() === 1);
    await notify('thawed');
    await until('a notification after the freeze', () => heard.includes('thawed'));
    await listener.stop();
  }, 60_000);

  it('should keep trying in the background when the database is down at start', async () => {
    proxy.down();
    const { listener, heard, reconnects } = startListener();
    await listener.start(); // resolves: the process starts, readiness says not ready
    expect(listener.connected).toBe(false);
    proxy.up();
    await until('LISTEN to come up', () => listener.connected && reconnects() === 1);
    await notify('late');
    await until('a notification', () => heard.includes('late'));
    await listener.stop();
  }, 60_000);
});
