import { DataSource } from 'typeorm';
import { insertAccount, insertServers } from '../../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../../test/support/test-database';
import { dataSourceOptions } from '../data-source';
import { NodeHostNames1764000003600 } from './1764000003600-node-host-names';
import { SERVER_DIRECTORY_VIEW } from './1764000004320-more-read-models';

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

async function run(step: 'up' | 'down'): Promise<void> {
  const dataSource = new DataSource(dataSourceOptions(db.url));
  await dataSource.initialize();
  try {
    const runner = dataSource.createQueryRunner();
    // server_directory (a later migration) reads the columns this one adds: set aside meanwhile.
    if (step === 'down') await runner.query('DROP VIEW server_directory');
    await new NodeHostNames1764000003600()[step](runner);
    if (step === 'up') await runner.query(SERVER_DIRECTORY_VIEW);
    await runner.release();
  } finally {
    await dataSource.destroy();
  }
}

describe('migration 1764000003600: node host names', () => {
  it('should name every existing agent server once, distinctly, and no manual one', async () => {
    await run('down');
    const owner = await insertAccount(db, { userType: 'node' });
    const agents = await insertServers(
      db,
      Array.from({ length: 50 }, () => ({ ownerUuid: owner })),
      new Date(),
    );
    const [manual] = await insertServers(
      db,
      [{ ownerUuid: owner, source: 'manual', vlessString: 'vless://x' }],
      new Date(),
    );
    await run('up');
    const rows = await db.query<{ id: string; host_name: string | null }>(
      'SELECT id, host_name FROM servers',
    );
    const names = new Map(rows.map((row) => [row.id, row.host_name]));
    const agentNames = agents.map((id) => names.get(id));
    for (const name of agentNames) expect(name).toMatch(/^n[0-9a-f]{16}$/);
    expect(new Set(agentNames).size).toBe(agents.length);
    expect(names.get(manual!)).toBeNull();
    // A name is unique and of the one shape.
    await expect(
      db.query('UPDATE servers SET host_name = $1 WHERE id = $2', [agentNames[0], agents[1]]),
    ).rejects.toThrow(/uq_servers_host_name/);
    await expect(
      db.query(`UPDATE servers SET host_name = 'N0123' WHERE id = $1`, [agents[1]]),
    ).rejects.toThrow(/ck_servers_host_name/);
  });
});
