import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source';
import { depositAddress } from './deposit-address-derivation';
import { DepositAddressService } from './deposit-address.service';
import { DepositAddressesRepository } from './deposit-addresses.repository';
import { DepositsException } from './deposits.exception';

const seed = Buffer.from('5e'.repeat(32), 'hex');
const solana = {
  rpcUrl: 'http://127.0.0.1:1',
  publicRpcUrl: 'http://127.0.0.1:1',
  cluster: 'localnet',
  depositAddress: '11111111111111111111111111111111',
  commitment: 'finalized',
  sslPerSol: 5143,
  quoteTtlSeconds: 1800,
  demoWalletUrl: null,
  depositAddresses: {
    seed,
    usdcMint: null,
    usdtMint: null,
    minLamports: 10_000_000n,
    minTokenBaseUnits: 1_000_000n,
  },
};
const config = { solana } as AppConfig;

let db: TestDatabase;
let dataSource: DataSource;
let repository: DepositAddressesRepository;
let service: DepositAddressService;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 30 } });
  await dataSource.initialize();
  repository = new DepositAddressesRepository(dataSource);
  service = new DepositAddressService(repository, config);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function account(userType: 'client' | 'node' = 'client'): Promise<ActiveSession> {
  const uuid = randomUUID();
  await dataSource.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, $3, 'x', 'T')`,
    [uuid, `${uuid}@example.com`, userType],
  );
  return { account: { uuid, userType } } as ActiveSession;
}

describe('DepositAddressService (real PostgreSQL)', () => {
  it('should give one address per account, the same on every call, derived from the stored index', async () => {
    const session = await account();
    const first = await service.forSession(session, undefined);
    const again = await service.forSession(session, 'client');
    expect(again.address).toBe(first.address);
    const row = await repository.findOwned(session.account.uuid, 'client_wallet');
    expect(row?.address).toBe(first.address);
    expect(depositAddress(seed, row!.derivationIndex)).toBe(first.address);
  });

  it('should give different accounts (and kinds) different indexes and addresses', async () => {
    const sessions = [await account(), await account(), await account('node')];
    const answers = await Promise.all(sessions.map((s) => service.forSession(s, undefined)));
    expect(new Set(answers.map((a) => a.address)).size).toBe(3);
    expect(answers[2]!.wallet).toBe('node');
    const indexes = await Promise.all(
      sessions.map(async (s, i) => {
        const kind = i === 2 ? 'node_wallet' : 'client_wallet';
        return (await repository.findOwned(s.account.uuid, kind))!.derivationIndex;
      }),
    );
    expect(new Set(indexes).size).toBe(3);
  });

  it('should store exactly one address when 20 first calls race', async () => {
    const session = await account('node');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => service.forSession(session, 'node')),
    );
    expect(new Set(answers.map((a) => a.address)).size).toBe(1);
    const rows = await dataSource.query<{ n: string }[]>(
      `SELECT count(*) AS n FROM deposit_addresses WHERE owner_uuid = $1`,
      [session.account.uuid],
    );
    expect(rows[0]!.n).toBe('1');
  });

  it("should refuse the other account type's wallet with wrong_wallet_type and store nothing", async () => {
    const client = await account('client');
    await expect(service.forSession(client, 'node')).rejects.toMatchObject({
      code: 'wrong_wallet_type',
    });
    const node = await account('node');
    await expect(service.forSession(node, 'client')).rejects.toBeInstanceOf(DepositsException);
    expect(await repository.findOwned(client.account.uuid, 'node_wallet')).toBeNull();
    expect(await repository.findOwned(node.account.uuid, 'client_wallet')).toBeNull();
  });

  it('should refuse the database a second row of the same index or address', async () => {
    const [a, b] = [await account(), await account()];
    await service.forSession(a, undefined);
    const row = (await repository.findOwned(a.account.uuid, 'client_wallet'))!;
    await expect(
      dataSource.query(
        `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, derivation_index, address) VALUES ($1, 'client_wallet', $2, 'other')`,
        [b.account.uuid, row.derivationIndex],
      ),
    ).rejects.toThrow(/uq_deposit_addresses_index/);
    await expect(
      dataSource.query(
        `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, address) VALUES ($1, 'client_wallet', $2)`,
        [b.account.uuid, row.address],
      ),
    ).rejects.toThrow(/uq_deposit_addresses_address/);
  });

  it('should answer addresses_off, and never show an address, when the seed no longer derives it', async () => {
    const session = await account();
    await service.forSession(session, undefined);
    const other = new DepositAddressService(repository, {
      solana: {
        ...solana,
        depositAddresses: { ...solana.depositAddresses, seed: Buffer.alloc(32, 7) },
      },
    } as AppConfig);
    await expect(other.forSession(session, undefined)).rejects.toMatchObject({
      code: 'addresses_off',
    });
    const off = new DepositAddressService(repository, {
      solana: { ...solana, depositAddresses: null },
    } as AppConfig);
    await expect(off.forSession(session, undefined)).rejects.toMatchObject({
      code: 'addresses_off',
      kind: 'conflict',
    });
  });
});
