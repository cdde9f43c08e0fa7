import { randomUUID } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { DataSource } from 'typeorm';
import { ledgerViolations } from '../../test/support/ledger';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import type { AddressChain, SignatureState } from './address-chain';
import { AddressDepositsService } from './address-deposits.service';
import {
  BLOCKS_PER_TICK,
  DepositAddressScanner,
  DROP_AFTER_MS,
  LOOKBACK_SLOTS,
} from './deposit-address-scanner.service';
import { DepositTransfersRepository } from './deposit-transfers.repository';
import type { TxBalances } from './incoming-transfers';
import { DepositMetrics } from './deposit-metrics';
import { MetricsRegistry } from '../metrics/metrics-registry';

/**
 * The scanner's own rules on real PostgreSQL with a chain kept in memory (the real-chain paths
 * are test/e2e/deposit-address-transfers.e2e-spec.ts): where it starts, how it resumes, what it
 * asks per tick, finality and dropping.
 */
const key = () => Keypair.generate().publicKey.toBase58();

class MemoryChain implements AddressChain {
  slot = 1000;
  readonly blocks = new Map<number, TxBalances[]>();
  readonly states = new Map<string, SignatureState>();
  readonly calls: string[] = [];

  confirmedSlot(): Promise<number> {
    this.calls.push('getSlot');
    return Promise.resolve(this.slot);
  }
  blocksFrom(start: number, limit: number): Promise<number[]> {
    this.calls.push('getBlocks');
    const slots: number[] = [];
    for (let s = start; s <= this.slot && slots.length < limit; s++) slots.push(s);
    return Promise.resolve(slots);
  }
  blockTransactions(slot: number): Promise<TxBalances[]> {
    this.calls.push('getBlock');
    return Promise.resolve(this.blocks.get(slot) ?? []);
  }
  transaction(): Promise<null> {
    return Promise.resolve(null);
  }
  statuses(signatures: readonly string[]): Promise<Array<SignatureState | null>> {
    this.calls.push(`getSignatureStatuses:${signatures.length}`);
    return Promise.resolve(signatures.map((s) => this.states.get(s) ?? null));
  }
  /** A SOL transfer of `lamports` to `to` in a new block. */
  pay(to: string, lamports: bigint): string {
    this.slot += 1;
    const signature = key() + key();
    const payer = key();
    this.blocks.set(this.slot, [
      {
        signature,
        slot: this.slot,
        blockTime: null,
        failed: false,
        accountKeys: [payer, to],
        signers: [payer],
        preBalances: [10n ** 12n, 0n],
        postBalances: [10n ** 12n - lamports - 5000n, lamports],
        preTokenBalances: [],
        postTokenBalances: [],
      },
    ]);
    this.states.set(signature, { confirmation: 'confirmed', failed: false });
    return signature;
  }
}

let db: TestDatabase;
let dataSource: DataSource;
let chain: MemoryChain;
let scanner: DepositAddressScanner;
let restart: () => DepositAddressScanner;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 10 } });
  await dataSource.initialize();
  chain = new MemoryChain();
  const config = {
    solana: {
      commitment: 'finalized',
      sslPerSol: 5143,
      depositAddresses: {
        seed: Buffer.alloc(32),
        usdcMint: null,
        usdtMint: null,
        minLamports: 10_000_000n,
        minTokenBaseUnits: 1_000_000n,
      },
    },
  } as AppConfig;
  const repository = new DepositTransfersRepository(dataSource);
  const deposits = new AddressDepositsService(
    repository,
    new TransactionRunner(dataSource),
    new LedgerService(new WalletRepository(dataSource)),
    { walletUpdated: () => undefined } as unknown as RealtimeGateway,
    new DepositMetrics(new MetricsRegistry(), repository),
    config,
    clock,
  );
  restart = () => new DepositAddressScanner(repository, deposits, chain, clock);
  scanner = restart();
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function depositAddress(): Promise<string> {
  const uuid = randomUUID();
  const address = key();
  await dataSource.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'client', 'x', 'T')`,
    [uuid, `${uuid}@example.com`],
  );
  await dataSource.query(
    `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, address) VALUES ($1, 'client_wallet', $2)`,
    [uuid, address],
  );
  return address;
}

async function statusOf(signature: string): Promise<string | undefined> {
  const rows = await db.query<{ status: string }>(
    `SELECT status FROM deposit_transfers WHERE signature = $1`,
    [signature],
  );
  return rows[0]?.status;
}

describe('DepositAddressScanner', () => {
  it('should ask the chain nothing while no account has an address', async () => {
    expect(await scanner.tick()).toEqual({ calls: 0, blocks: 0, recorded: 0 });
    expect(chain.calls).toEqual([]);
  });

  it('should start LOOKBACK_SLOTS back, then read each new block once, from the stored cursor', async () => {
    const address = await depositAddress();
    // LOOKBACK_SLOTS back, BLOCKS_PER_TICK at a time.
    expect((await scanner.tick()).blocks).toBe(BLOCKS_PER_TICK);
    expect(chain.calls.slice(0, 2)).toEqual(['getSlot', 'getBlocks']);
    expect((await scanner.tick()).blocks).toBe(LOOKBACK_SLOTS - BLOCKS_PER_TICK);
    chain.calls.length = 0;
    const signature = chain.pay(address, 20_000_000n);
    expect(await scanner.tick()).toEqual({ calls: 3, blocks: 1, recorded: 1 });
    // One getBlocks, one getBlock, one getSignatureStatuses for the transfer still confirming.
    expect(chain.calls).toEqual(['getBlocks', 'getBlock', 'getSignatureStatuses:1']);
    expect(await statusOf(signature)).toBe('confirming');
    chain.states.set(signature, { confirmation: 'finalized', failed: false });
    chain.calls.length = 0;
    expect(await scanner.tick()).toEqual({ calls: 2, blocks: 0, recorded: 0 });
    expect(await statusOf(signature)).toBe('credited');
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should resume from the database after a restart (a new scanner reads no block twice)', async () => {
    const address = await depositAddress();
    const signature = chain.pay(address, 20_000_000n);
    chain.states.set(signature, { confirmation: 'finalized', failed: false });
    const rows = await db.query<{ slot: string }>(`SELECT slot FROM deposit_watch_cursor`);
    expect(Number(rows[0]!.slot)).toBe(chain.slot - 1);
    chain.calls.length = 0;
    scanner = restart();
    await scanner.tick();
    expect(chain.calls.filter((c) => c === 'getBlock')).toHaveLength(1);
    expect(await statusOf(signature)).toBe('credited');
  });

  it('should catch up BLOCKS_PER_TICK blocks per tick after downtime', async () => {
    chain.slot += BLOCKS_PER_TICK + 20;
    expect((await scanner.tick()).blocks).toBe(BLOCKS_PER_TICK);
    expect((await scanner.tick()).blocks).toBe(20);
  });

  it('should drop a transfer the chain forgot after DROP_AFTER_MS, and one that failed', async () => {
    const address = await depositAddress();
    const forgotten = chain.pay(address, 20_000_000n);
    await scanner.tick();
    const failing = chain.pay(address, 20_000_000n);
    await scanner.tick();
    chain.states.delete(forgotten);
    chain.states.set(failing, { confirmation: 'finalized', failed: true });
    await scanner.tick();
    expect(await statusOf(forgotten)).toBe('confirming');
    expect(await statusOf(failing)).toBe('dropped');
    offsetMs = DROP_AFTER_MS + 1000;
    await scanner.tick();
    offsetMs = 0;
    expect(await statusOf(forgotten)).toBe('dropped');
  });
});
