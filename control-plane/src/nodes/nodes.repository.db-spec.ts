import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { ServerEntity } from './entities/server.entity';
import { NodesRepository } from './nodes.repository';

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
