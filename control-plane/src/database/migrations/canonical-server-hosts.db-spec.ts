import { insertAccount, insertServers } from '../../../test/support/market-fixtures';
import { migrationSpec } from '../../../test/support/migration-spec';
import { CanonicalServerHosts1764000001300 } from './1764000001300-canonical-server-hosts';

const spec = migrationSpec(new CanonicalServerHosts1764000001300());

describe('migration 1764000001300: canonical server hosts', () => {
  it('should unbracket, compress and lower-case stored hosts, and leave what it cannot read', async () => {
    const owner = await insertAccount(spec.db);
    const stored = [
      '[2001:DB8:0:0::1]',
      '[::1]',
      '2001:db8::7',
      'Node.Example.NET',
      '203.0.113.7',
      '[bad',
    ];
    const ids = await insertServers(
      spec.db,
      stored.map((host) => ({ ownerUuid: owner, host })),
      new Date(),
    );
    await spec.run('up');
    const rows = await spec.db.query<{ id: string; host: string }>(
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
