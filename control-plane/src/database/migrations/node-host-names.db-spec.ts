import { insertAccount, insertServers } from '../../../test/support/market-fixtures';
import { migrationSpec } from '../../../test/support/migration-spec';
import { NodeHostNames1764000003600 } from './1764000003600-node-host-names';
import { SERVER_DIRECTORY_VIEW } from './1764000004320-more-read-models';

const migration = new NodeHostNames1764000003600();
// server_directory (a later migration) reads the columns this one adds: set aside meanwhile.
const spec = migrationSpec({
  up: async (runner) => {
    await migration.up(runner);
    await runner.query(SERVER_DIRECTORY_VIEW);
  },
  down: async (runner) => {
    await runner.query('DROP VIEW server_directory');
    await migration.down(runner);
  },
});

describe('migration 1764000003600: node host names', () => {
  it('should name every existing agent server once, distinctly, and no manual one', async () => {
    await spec.run('down');
    const owner = await insertAccount(spec.db, { userType: 'node' });
    const agents = await insertServers(
      spec.db,
      Array.from({ length: 50 }, () => ({ ownerUuid: owner })),
      new Date(),
    );
    const [manual] = await insertServers(
      spec.db,
      [{ ownerUuid: owner, source: 'manual', vlessString: 'vless://x' }],
      new Date(),
    );
    await spec.run('up');
    const rows = await spec.db.query<{ id: string; host_name: string | null }>(
      'SELECT id, host_name FROM servers',
    );
    const names = new Map(rows.map((row) => [row.id, row.host_name]));
    const agentNames = agents.map((id) => names.get(id));
    for (const name of agentNames) expect(name).toMatch(/^n[0-9a-f]{16}$/);
    expect(new Set(agentNames).size).toBe(agents.length);
    expect(names.get(manual!)).toBeNull();
    // A name is unique and of the one shape.
    await expect(
      spec.db.query('UPDATE servers SET host_name = $1 WHERE id = $2', [agentNames[0], agents[1]]),
    ).rejects.toThrow(/uq_servers_host_name/);
    await expect(
      spec.db.query(`UPDATE servers SET host_name = 'N0123' WHERE id = $1`, [agents[1]]),
    ).rejects.toThrow(/ck_servers_host_name/);
  });
});
