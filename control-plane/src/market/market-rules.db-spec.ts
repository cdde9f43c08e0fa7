import { CORE_DOWN_STATES, isCoreDown } from '@scn/proto';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { hasDialableAddress, type ServerAddress } from '../nodes/server-address';

/**
 * Whether a server can be bought is decided twice, by the market's listing (SQL triggers) and by
 * the purchase (subscribable): these check that both use the same address and core rules.
 */
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

const now = new Date('2026-11-20T12:00:00.000Z');

/** Every mix of what the address rule looks at, each value present, empty or missing. */
function addresses(): ServerAddress[] {
  const out: ServerAddress[] = [];
  for (const source of ['agent', 'manual'] as const) {
    for (const host of ['node.example', '', null]) {
      for (const port of [443, 0, null]) {
        for (const vlessString of ['vless://u@node.example:443', '', null]) {
          out.push({ source, host, port, vlessString });
        }
      }
    }
  }
  return out;
}

async function listing(id: string): Promise<{ has_address: boolean; core_down: boolean }> {
  const [row] = await db.query<{ has_address: boolean; core_down: boolean }>(
    'SELECT has_address, core_down FROM market_listings WHERE server_id = $1',
    [id],
  );
  return row!;
}

describe('the market listing and the purchase share their rules', () => {
  it('should give a listing an address exactly when hasDialableAddress does, on insert', async () => {
    const owner = await insertAccount(db, { userType: 'node' });
    const cases = addresses();
    const ids = await insertServers(
      db,
      cases.map((c) => ({ ownerUuid: owner, ...c })),
      now,
    );
    const seen = await Promise.all(ids.map(async (id) => (await listing(id)).has_address));
    expect(seen).toEqual(cases.map(hasDialableAddress));
    // The stricter of the two old rules: a manual server without its link is not listed (the
    // listing asked only for host and port), nor one without host and port (the purchase asked
    // only for the link).
    expect(hasDialableAddress({ source: 'manual', host: 'h', port: 443, vlessString: null })).toBe(
      false,
    );
    expect(
      hasDialableAddress({ source: 'manual', host: null, port: null, vlessString: 'vless://x' }),
    ).toBe(false);
  });

  it('should follow an address change the same way, on update', async () => {
    const owner = await insertAccount(db, { userType: 'node' });
    const [id] = await insertServers(
      db,
      [{ ownerUuid: owner, source: 'manual', vlessString: 'vless://u@node.example:443' }],
      now,
    );
    expect((await listing(id!)).has_address).toBe(true);
    for (const c of addresses().filter((a) => a.source === 'manual')) {
      await db.query('UPDATE servers SET host = $2, port = $3, vless_string = $4 WHERE id = $1', [
        id,
        c.host,
        c.port,
        c.vlessString,
      ]);
      expect({ ...c, listed: (await listing(id!)).has_address }).toEqual({
        ...c,
        listed: hasDialableAddress(c),
      });
    }
  });

  it('should mark a listing core down exactly for CORE_DOWN_STATES', async () => {
    const owner = await insertAccount(db, { userType: 'node' });
    const states = [...CORE_DOWN_STATES, 'running', 'restarting', 'unspecified', null];
    const ids = await insertServers(
      db,
      states.map((coreState) => ({ ownerUuid: owner, coreState })),
      now,
    );
    const seen = await Promise.all(ids.map(async (id) => (await listing(id)).core_down));
    expect(seen).toEqual(states.map(isCoreDown));
    expect(seen).toEqual([true, true, true, false, false, false, false]);
  });
});
