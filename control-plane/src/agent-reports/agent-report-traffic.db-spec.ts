import { randomUUID } from 'node:crypto';
import { reportColumns, rowVersion } from '../../test/support/agent-report-rows';
import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import {
  TRAFFIC_RETENTION_DAYS,
  TrafficRepository,
  trafficRetentionCutoff,
} from '../traffic/traffic.repository';
import {
  AgentReportRepository,
  type ClientTrafficDelta,
  MAX_REPORT_CLIENT_BYTES,
} from './agent-report.repository';

const t = repositoryDatabase();

/** A subscription of a new client with a place on `servers`; answers its id and VLESS UUID. */
async function insertSubscription(servers: string[]): Promise<{ id: string; vless: string }> {
  const owner = randomUUID();
  await t.db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'client', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = randomUUID();
  const vless = randomUUID();
  await t.db.query(
    `INSERT INTO subscriptions (id, owner_uuid, vless_uuid, status, billing_cycle, expires_at)
     VALUES ($1, $2, $3, 'active', 'monthly', now() + interval '30 days')`,
    [id, owner, vless],
  );
  for (const server of servers)
    await t.db.query(`INSERT INTO server_clients (server_id, client_uuid) VALUES ($1, $2)`, [
      server,
      vless,
    ]);
  return { id, vless };
}

async function days(): Promise<Record<string, unknown>[]> {
  return t.db.query(
    `SELECT subscription_id, server_id, to_char(day, 'YYYY-MM-DD') AS day, upload_bytes, download_bytes
     FROM subscription_traffic_days ORDER BY subscription_id, server_id, day`,
  );
}

const delta = (
  clientUuid: string,
  up: number | string,
  down: number | string,
): ClientTrafficDelta => ({
  clientUuid,
  uplinkBytes: String(up),
  downlinkBytes: String(down),
});

describe('AgentReportRepository traffic', () => {
  beforeEach(() => t.db.query('DELETE FROM subscription_traffic_days'));

  it('should add each report’s deltas to the subscription’s day on the server, split at UTC midnight', async () => {
    const server = await insertAgentServer(t.db);
    const sub = await insertSubscription([server]);
    const writer = new AgentReportRepository(t.dataSource);
    const send = async (at: string, traffic: ClientTrafficDelta[]) =>
      writer.write(
        server,
        await rowVersion(t.db, server),
        reportColumns({ lastReportAt: new Date(at) }),
        'ok',
        traffic,
      );
    expect(await send('2026-11-01T23:58:00Z', [delta(sub.vless, 100, 1000)])).not.toBeNull();
    await send('2026-11-01T23:59:30Z', [delta(sub.vless, 5, 50)]);
    // The core restarted: the agent counted from 0 again, so the delta is small, never negative.
    await send('2026-11-02T00:00:30Z', [delta(sub.vless, 7, 70)]);
    // A report with no movement stores nothing new.
    await send('2026-11-02T00:01:30Z', [delta(sub.vless, 0, 0)]);
    expect(await days()).toEqual([
      {
        subscription_id: sub.id,
        server_id: server,
        day: '2026-11-01',
        upload_bytes: '105',
        download_bytes: '1050',
      },
      {
        subscription_id: sub.id,
        server_id: server,
        day: '2026-11-02',
        upload_bytes: '7',
        download_bytes: '70',
      },
    ]);
  });

  it('should count only the server’s own clients, a client listed twice both times, and cap a report’s bytes', async () => {
    const [server, other] = await Promise.all([insertAgentServer(t.db), insertAgentServer(t.db)]);
    const mine = await insertSubscription([server]);
    const elsewhere = await insertSubscription([other]);
    const writer = new AgentReportRepository(t.dataSource);
    await writer.write(
      server,
      await rowVersion(t.db, server),
      reportColumns({ lastReportAt: new Date('2026-11-03T10:00:00Z') }),
      'ok',
      [
        delta(mine.vless, 1, 2),
        delta(mine.vless, 10, '18446744073709551615'),
        // Not placed on this server: a node cannot charge another server's subscription.
        delta(elsewhere.vless, 999, 999),
        delta(randomUUID(), 999, 999),
      ],
    );
    expect(await days()).toEqual([
      {
        subscription_id: mine.id,
        server_id: server,
        day: '2026-11-03',
        upload_bytes: '11',
        download_bytes: String(2 + MAX_REPORT_CLIENT_BYTES),
      },
    ]);
  });

  it('should not count the traffic of a report whose write did not apply (re-applied, it counts once)', async () => {
    const server = await insertAgentServer(t.db);
    const sub = await insertSubscription([server]);
    const stale = await rowVersion(t.db, server);
    await t.db.query(`UPDATE servers SET name = 'renamed' WHERE id = $1`, [server]);
    const writer = new AgentReportRepository(t.dataSource);
    const columns = reportColumns({ lastReportAt: new Date('2026-11-04T10:00:00Z') });
    expect(await writer.write(server, stale, columns, 'ok', [delta(sub.vless, 3, 4)])).toBeNull();
    expect(await days()).toEqual([]);
    await writer.write(server, await rowVersion(t.db, server), columns, 'ok', [
      delta(sub.vless, 3, 4),
    ]);
    expect(await days()).toEqual([
      {
        subscription_id: sub.id,
        server_id: server,
        day: '2026-11-04',
        upload_bytes: '3',
        download_bytes: '4',
      },
    ]);
  });

  it('should add a traffic batch once per server: a resend after a lost answer adds nothing, a new batch or an empty id adds', async () => {
    const [server, other] = await Promise.all([insertAgentServer(t.db), insertAgentServer(t.db)]);
    const sub = await insertSubscription([server, other]);
    const writer = new AgentReportRepository(t.dataSource);
    const columns = reportColumns({ lastReportAt: new Date('2026-11-06T10:00:00Z') });
    const send = async (id: string, batch: string, up: number, down: number) =>
      writer.write(
        id,
        await rowVersion(t.db, id),
        columns,
        'ok',
        [delta(sub.vless, up, down)],
        batch,
      );
    const totals = async () =>
      t.db.query<{ server_id: string; upload_bytes: string; download_bytes: string }>(
        `SELECT server_id, upload_bytes, download_bytes FROM subscription_traffic_days
         WHERE subscription_id = $1 ORDER BY server_id = $2 DESC`,
        [sub.id, server],
      );
    const [first, second] = [randomUUID(), randomUUID()];
    expect(await send(server, first, 10, 100)).not.toBeNull();
    // The same batch again (its answer was lost): the row is written, the bytes are not added.
    expect(await send(server, first, 10, 100)).not.toBeNull();
    // The stored id in upper case is still the same batch.
    await send(server, first.toUpperCase(), 10, 100);
    expect(await totals()).toMatchObject([{ upload_bytes: '10', download_bytes: '100' }]);
    // A report without traffic keeps the stored id: a late copy of the batch still adds nothing.
    await writer.write(server, await rowVersion(t.db, server), columns, 'ok', [], '');
    await send(server, first, 10, 100);
    expect(await totals()).toMatchObject([{ upload_bytes: '10', download_bytes: '100' }]);
    // Concurrent writes (the batcher groups them in one statement): a resend on one server, the same id
    // on another server (ids are per server) and a new batch.
    await Promise.all([send(server, first, 10, 100), send(other, first, 1, 2)]);
    await send(server, second, 5, 50);
    expect(await totals()).toMatchObject([
      { server_id: server, upload_bytes: '15', download_bytes: '150' },
      { server_id: other, upload_bytes: '1', download_bytes: '2' },
    ]);
    // An older agent (empty id) adds every report, and the stored id stays.
    await send(server, '', 1, 1);
    await send(server, '', 1, 1);
    await send(server, second, 5, 50);
    expect(await totals()).toMatchObject([{ upload_bytes: '17', download_bytes: '152' }, {}]);
    const [row] = await t.db.query<{ id: string }>(
      'SELECT last_traffic_batch_id AS id FROM servers WHERE id = $1',
      [server],
    );
    expect(row!.id).toBe(second);
  });

  it('should add every concurrent report of many servers and subscriptions exactly, drops and traffic in one batch', async () => {
    const servers = await Promise.all(Array.from({ length: 12 }, () => insertAgentServer(t.db)));
    // Every subscription on every server: concurrent batches touch the same subscriptions' rows.
    const subs = await Promise.all(Array.from({ length: 5 }, () => insertSubscription(servers)));
    const writers = [
      new AgentReportRepository(t.dataSource),
      new AgentReportRepository(t.dataSource),
    ];
    const at = new Date('2026-11-05T12:00:00Z');
    const rounds = 4;
    for (let round = 0; round < rounds; round += 1) {
      await Promise.all(
        servers.map(async (server, i) => {
          const quality = i % 3 === 0 ? 'client_count_failed' : 'ok';
          const writer = writers[(i + round) % 2]!;
          return writer.write(
            server,
            await rowVersion(t.db, server),
            reportColumns({ lastReportAt: at }),
            quality,
            subs.map((s, j) => delta(s.vless, i + j + 1, 1000 * (i + 1))),
          );
        }),
      );
    }
    const rows = await t.db.query<{
      server_id: string;
      subscription_id: string;
      upload_bytes: string;
      download_bytes: string;
    }>(
      'SELECT server_id, subscription_id, upload_bytes, download_bytes FROM subscription_traffic_days',
    );
    expect(rows).toHaveLength(servers.length * subs.length);
    for (const row of rows) {
      const i = servers.indexOf(row.server_id);
      const j = subs.findIndex((s) => s.id === row.subscription_id);
      expect(row).toMatchObject({
        upload_bytes: String(rounds * (i + j + 1)),
        download_bytes: String(rounds * 1000 * (i + 1)),
      });
    }
    const [{ failed }] = (await t.db.query<{ failed: number }>(
      'SELECT sum(failed_reports)::int AS failed FROM server_reliability_days',
    )) as [{ failed: number }];
    expect(failed).toBe(rounds * 4);
  });
});

describe('TrafficRepository.prune', () => {
  it('should delete the days older than the retention, once per UTC day', async () => {
    await t.db.query('DELETE FROM subscription_traffic_days');
    const [sub, server] = [randomUUID(), randomUUID()];
    const now = new Date('2027-12-31T08:00:00Z');
    const cutoff = trafficRetentionCutoff(now);
    expect(cutoff).toBe(
      new Date(Date.UTC(2027, 11, 31) - (TRAFFIC_RETENTION_DAYS - 1) * 86_400_000)
        .toISOString()
        .slice(0, 10),
    );
    await t.db.query(
      `INSERT INTO subscription_traffic_days (subscription_id, server_id, day, upload_bytes, download_bytes)
       VALUES ($1, $2, $3::date - 1, 1, 1), ($1, $2, $3::date, 2, 2), ($1, $2, '2027-12-31', 3, 3)`,
      [sub, server, cutoff],
    );
    const traffic = new TrafficRepository(t.dataSource);
    expect(await traffic.prune(now)).toBe(1);
    // The same day again: nothing to do, no statement.
    await t.db.query(
      `INSERT INTO subscription_traffic_days (subscription_id, server_id, day) VALUES ($1, $2, '2020-01-01')`,
      [sub, server],
    );
    expect(await traffic.prune(new Date('2027-12-31T23:00:00Z'))).toBe(0);
    expect(await traffic.prune(new Date('2028-01-01T00:01:00Z'))).toBe(2);
    expect(await traffic.totalOf(sub)).toEqual({ uploadBytes: '3', downloadBytes: '3' });
    expect(await traffic.totalOf(randomUUID())).toEqual({ uploadBytes: '0', downloadBytes: '0' });
  });
});
