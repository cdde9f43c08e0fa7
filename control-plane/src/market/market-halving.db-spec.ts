import { randomUUID } from 'node:crypto';
import { VPS_TIERS } from '@scn/proto';
import { allowClients, insertAccount, insertServers } from '../../test/support/market-fixtures';
import { useMarketDatabase } from '../../test/support/market-model';
import { ClientSetRefusal, ClientSetsRepository } from '../client-sets/client-sets.repository';
import { allowedClients } from '../rewards/reward-rules';

/**
 * Halving protection's market side (docs/product/states.md#subscription-and-reliability-states): while `servers.halving_cut` is
 * set, a server's capacity in the market and in the capacity check of places is its tier's max
 * clients halved (allowedClients of reward-rules), and it follows the cut both ways.
 */
const market = useMarketDatabase(new Date('2026-11-20T12:00:00.000Z'));
const { clock } = market;
const TIER2 = VPS_TIERS.find((tier) => tier.id === 'tier2')!.maxClients;
const HALVED = allowedClients(TIER2, true);

async function card(serverId: string) {
  const page = (await market.service.servers({ page: 1, limit: 50, country: 'HV' }, null)).value;
  return page.servers.find((s) => s.id === serverId)!;
}

async function capacityOf(serverId: string): Promise<number> {
  const [row] = await market.db.query<{ capacity: number }>(
    `SELECT capacity FROM market_listings WHERE server_id = $1`,
    [serverId],
  );
  return row!.capacity;
}

async function take(serverId: string): Promise<string> {
  const repository = new ClientSetsRepository(market.dataSource);
  try {
    await market.dataSource.transaction((tx) =>
      repository.take(tx, [{ id: serverId }], randomUUID()),
    );
    return 'taken';
  } catch (error) {
    if (error instanceof ClientSetRefusal) return error.reason;
    throw error;
  }
}

describe('halving protection in the market', () => {
  it('should halve the listed capacity and the places while the cut applies, and restore both', async () => {
    expect(HALVED).toBe(Math.floor(TIER2 / 2));
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(
      market.db,
      [{ ownerUuid: owner, tier: 'tier2', country: 'HV' }],
      clock.at,
    );
    await allowClients(market.db, id!, HALVED - 1);
    expect(await capacityOf(id!)).toBe(TIER2);
    expect(await card(id!)).toMatchObject({
      availableUuids: TIER2 - HALVED + 1,
      hasAvailable: true,
    });

    await market.db.query(`UPDATE servers SET halving_cut = true WHERE id = $1`, [id]);
    expect(await capacityOf(id!)).toBe(HALVED);
    expect(await card(id!)).toMatchObject({ availableUuids: 1, hasAvailable: true });
    // The last place of the halved capacity, then full: the market disables it and a place is refused.
    expect(await take(id!)).toBe('taken');
    expect(await card(id!)).toMatchObject({ availableUuids: 0, hasAvailable: false });
    expect(await take(id!)).toBe('server_full');

    // An agent report batch's write (no tier, no cut) leaves the capacity as it is.
    await market.db.query(
      `UPDATE servers SET last_report_at = $2, ping_ms = 80, uptime_seconds = 90000 WHERE id = $1`,
      [id, clock.at],
    );
    expect(await capacityOf(id!)).toBe(HALVED);

    await market.db.query(`UPDATE servers SET halving_cut = false WHERE id = $1`, [id]);
    expect(await capacityOf(id!)).toBe(TIER2);
    expect(await card(id!)).toMatchObject({ availableUuids: TIER2 - HALVED, hasAvailable: true });
    expect(await take(id!)).toBe('taken');
  });

  it('should follow a tier change with the cut applied', async () => {
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(
      market.db,
      [{ ownerUuid: owner, tier: 'tier2', country: 'HV' }],
      clock.at,
    );
    await market.db.query(`UPDATE servers SET halving_cut = true, tier = 'tier4' WHERE id = $1`, [
      id,
    ]);
    const tier4 = VPS_TIERS.find((tier) => tier.id === 'tier4')!.maxClients;
    expect(await capacityOf(id!)).toBe(allowedClients(tier4, true));
  });

  it('should give every tier its rule in SQL exactly as allowedClients does', async () => {
    for (const tier of [...VPS_TIERS.map((t) => t.id), null]) {
      for (const cut of [false, true]) {
        const [row] = await market.db.query<{ c: number }>(
          `SELECT market_allowed_clients($1, $2) AS c`,
          [tier, cut],
        );
        const max = (VPS_TIERS.find((t) => t.id === tier) ?? VPS_TIERS[0]!).maxClients;
        expect([tier, cut, row!.c]).toEqual([tier, cut, allowedClients(max, cut)]);
      }
    }
  });
});
