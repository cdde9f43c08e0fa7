import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { VPS_TIERS } from '@scn/proto';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import {
  CLIENT_SET_CHANNEL,
  ClientSetRefusal,
  ClientSetsRepository,
} from './client-sets.repository';

type TakeOutcome =
  | { status: 'taken'; changedServers: string[] }
  | { status: ClientSetRefusal['reason']; serverId: string };

let db: TestDatabase;
let dataSource: DataSource;
let repository: ClientSetsRepository;
let operator: string;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 6 } });
  await dataSource.initialize();
  repository = new ClientSetsRepository(dataSource);
  operator = await insertAccount(dataSource, { userType: 'node' });
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function newServer(tier: 'tier1' | 'tier2' | null = 'tier2'): Promise<string> {
  const id = randomUUID();
  await insertServers(dataSource, [{ id, ownerUuid: operator, tier }], new Date());
  return id;
}

/** Fills `n` places with other clients. */
async function fill(serverId: string, n: number): Promise<void> {
  await dataSource.query(
    `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, gen_random_uuid() FROM generate_series(1, $2)`,
    [serverId, n],
  );
}

async function state(serverId: string) {
  const [row] = await dataSource.query<{ taken: number; version: string; allowed: number }[]>(
    `SELECT (SELECT count(*)::int FROM server_clients WHERE server_id = $1) AS taken,
            (SELECT version::text FROM server_client_sets WHERE server_id = $1) AS version,
            (SELECT allowed_clients FROM market_listings WHERE server_id = $1) AS allowed`,
    [serverId],
  );
  return row!;
}

function take(
  places: Array<{ id: string; capacity?: number }>,
  client = randomUUID(),
): Promise<TakeOutcome> {
  return dataSource
    .transaction((manager) => repository.take(manager, places, client))
    .then(
      (changedServers): TakeOutcome => ({ status: 'taken', changedServers }),
      (error: unknown): TakeOutcome => {
        if (!(error instanceof ClientSetRefusal)) throw error;
        return { status: error.reason, serverId: error.serverId };
      },
    );
}

describe('ClientSetsRepository.take (client_sets_take: the one capacity rule)', () => {
  it('should add the client to every set, bump their versions and notify at commit', async () => {
    const [a, b] = [await newServer(), await newServer()];
    const listener = new Client({ connectionString: db.url });
    await listener.connect();
    const notified: string[] = [];
    listener.on('notification', (message) => notified.push(message.payload ?? ''));
    await listener.query(`LISTEN ${CLIENT_SET_CHANNEL}`);
    try {
      const outcome = await take([{ id: b }, { id: a }]);
      expect(outcome).toEqual({ status: 'taken', changedServers: [a, b].sort() });
      for (const id of [a, b])
        expect(await state(id)).toEqual({ taken: 1, version: '1', allowed: 1 });
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(notified.sort()).toEqual([a, b].sort());
    } finally {
      await listener.end();
    }
  });

  it("should refuse when a server is at its tier's capacity (VPS_TIERS), every place counted", async () => {
    const tier1 = VPS_TIERS.find((t) => t.id === 'tier1')!.maxClients;
    const [full, manual] = [await newServer('tier1'), await newServer(null)];
    await fill(full, tier1);
    await fill(manual, tier1 - 1);
    expect(await take([{ id: manual }, { id: full }])).toEqual({
      status: 'server_full',
      serverId: full,
    });
    // Nothing of the refused call stays: the transaction rolled back.
    expect(await state(manual)).toMatchObject({ taken: tier1 - 1, version: '0' });
    // A server without a tier takes the first tier's capacity: its last place, then full.
    expect(await take([{ id: manual }])).toMatchObject({ status: 'taken' });
    expect(await take([{ id: manual }])).toEqual({ status: 'server_full', serverId: manual });
  });

  it('should take the capacity given instead of the tier when there is one', async () => {
    const id = await newServer('tier2');
    await fill(id, 1);
    expect(await take([{ id, capacity: 1 }])).toEqual({ status: 'server_full', serverId: id });
    expect(await take([{ id, capacity: 2 }])).toMatchObject({ status: 'taken' });
  });

  it('should refuse the first server (in the order given) that does not exist', async () => {
    const [a, gone] = [await newServer(), randomUUID()];
    expect(await take([{ id: a }, { id: gone }])).toEqual({
      status: 'server_not_found',
      serverId: gone,
    });
    expect(await state(a)).toMatchObject({ taken: 0, version: '0' });
  });

  it('should never let concurrent callers take more places than the capacity', async () => {
    const id = await newServer('tier1');
    const tier1 = VPS_TIERS.find((t) => t.id === 'tier1')!.maxClients;
    await fill(id, tier1 - 2);
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => take([{ id }])));
    expect(outcomes.filter((o) => o.status === 'taken')).toHaveLength(2);
    expect(outcomes.filter((o) => o.status === 'server_full')).toHaveLength(3);
    expect(await state(id)).toMatchObject({ taken: tier1, allowed: tier1 });
  });

  it('should take nothing and answer no change for no servers', async () => {
    expect(await take([])).toEqual({ status: 'taken', changedServers: [] });
  });
});
