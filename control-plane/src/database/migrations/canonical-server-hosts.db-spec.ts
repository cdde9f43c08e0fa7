import { DataSource } from 'typeorm';
import { insertAccount, insertServers } from '../../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { dataSourceOptions } from '../data-source';
import { CanonicalServerHosts1764000001300 } from './1764000001300-canonical-server-hosts';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe('migration 1764000001300: canonical server hosts', () => {
  it('should unbracket, compress and lower-case stored hosts, and leave what it cannot read', async () => {
    const owner = await insertAccount(db);
    const stored = [
      '[2001:DB8:0:0::1]',
      '[::1]',
      '2001:db8::7',
      'Node.Example.NET',
      '203.0.113.7',
      '[bad',
    ];
    const ids = await insertServers(
      db,
      stored.map((host) => ({ ownerUuid: owner, host })),
      new Date(),
    );
    const dataSource = new DataSource(dataSourceOptions(db.url));
    await dataSource.initialize();
    try {
      const runner = dataSource.createQueryRunner();
      await new CanonicalServerHosts1764000001300().up(runner);
      await runner.release();
    } finally {
      await dataSource.destroy();
    }
    const rows = await db.query<{ id: string; host: string }>(
      'SELECT id, host FROM servers WHERE id = ANY($1::uuid[])',
      [ids],
    );
    const hosts = ids.map((id) => rows.find((row) => row.id === id)?.host);
    expect(hosts).toEqual([
      '2001:db8::1',
      '::1',
      '2001:db8::7',
      'node.example.net',
      '203.0.113.7',
      '[bad',
    ]);
  });
});
