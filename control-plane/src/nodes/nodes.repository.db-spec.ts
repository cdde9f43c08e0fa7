import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { ServerEntity } from './entities/server.entity';
import { NodesRepository } from './nodes.repository';
import { ReportWriter } from './report-writer';

let db: TestDatabase;
let dataSource: DataSource;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function insertServer(): Promise<string> {
  const owner = randomUUID();
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = randomUUID();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound, hardware, last_report_at)
     VALUES ($1, $2, 'n', 'agent', 'tier1', $3, 'h.example', 443, '{"security":"tls"}', '{"cpuCores":2}', now())`,
    [id, owner, 'a'.repeat(64)],
  );
  return id;
}

describe('NodesRepository.findServer', () => {
  it('should map a row exactly as TypeORM does, every column included', async () => {
    const id = await insertServer();
    const plain = await new NodesRepository(dataSource).findServer(id);
    const typeorm = await dataSource.getRepository(ServerEntity).findOneBy({ id });
    expect(plain).toEqual(typeorm);
    const metadata = dataSource.getMetadata(ServerEntity);
    const relations = new Set(metadata.relations.map((r) => r.propertyName));
    const mapped = Object.keys(plain ?? {}).filter((key) => !relations.has(key));
    expect(mapped.sort()).toEqual(metadata.columns.map((c) => c.propertyName).sort());
  });
});

describe('NodesRepository.updateOwnedServer', () => {
  it("should change only the owner's server and only the given columns", async () => {
    const id = await insertServer();
    const [{ owner_uuid: owner } = { owner_uuid: '' }] = await db.query<{ owner_uuid: string }>(
      'SELECT owner_uuid FROM servers WHERE id = $1',
      [id],
    );
    const repository = new NodesRepository(dataSource);
    expect(await repository.updateOwnedServer(randomUUID(), id, { name: 'Stolen' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, randomUUID(), { name: 'Ghost' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, id, { country: 'NL', location: 'Ams' })).toBe(
      true,
    );
    expect(
      await db.query('SELECT name, country, location, host FROM servers WHERE id = $1', [id]),
    ).toEqual([{ name: 'n', country: 'NL', location: 'Ams', host: 'h.example' }]);
  });
});

describe('ReportWriter', () => {
  it('should persist a burst of reports in batches, each acknowledged only once written', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => insertServer()));
    const writer = new ReportWriter(dataSource);
    const at = new Date('2026-11-01T00:00:00Z');
    await Promise.all(
      ids.map((id, i) =>
        writer.write(id, {
          reliabilityAtReport: i,
          lastReportAt: at,
          lastCreditedAt: at,
          belowThresholdSince: null,
          bannedAt: null,
          host: `n${i}.example`,
          port: 1000 + i,
          inbound: { security: 'none' },
          hardware: null,
          agentVersion: '0.1.0',
          coreState: 'running',
          activeClients: i,
          pingMs: 7,
          uptimeSeconds: String(i * 10),
          appliedClientSetVersion: '3',
        }),
      ),
    );
    const rows = await db.query<{
      id: string;
      reliability_at_report: number;
      port: number;
      uptime_seconds: string;
      inbound: unknown;
    }>(
      'SELECT id, reliability_at_report, port, uptime_seconds, inbound FROM servers WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    ids.forEach((id, i) =>
      expect(byId.get(id)).toMatchObject({
        reliability_at_report: i,
        port: 1000 + i,
        uptime_seconds: String(i * 10),
        inbound: { security: 'none' },
      }),
    );
  });
});
