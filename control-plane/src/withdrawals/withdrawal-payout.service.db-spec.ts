import { Keypair } from '@solana/web3.js';
import { DataSource } from 'typeorm';
import { FakePayoutChain } from '../../test/support/fake-payout-chain';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { insertAccount } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { AppConfig } from '../config/app-config';
import { TreasuryKey } from '../config/withdrawal-settings';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { JobScheduler } from '../jobs/job-scheduler';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { IdempotencyRepository } from '../wallet/idempotency.repository';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { WithdrawalPayoutService } from './withdrawal-payout.service';
import { WithdrawalsRepository } from './withdrawals.repository';
import { WithdrawalsService } from './withdrawals.service';
import { WithdrawalMetrics } from './withdrawal-metrics';
import { MetricsRegistry } from '../metrics/metrics-registry';

/**
 * The payout worker against real PostgreSQL and a scripted chain: a payout is signed and stored
 * before it is sent, resent as the same bytes while the chain has not seen it, confirmed only at
 * the commitment, and failed (with one reversal) only when it can never land.
 */
const SSL = 1_000_000n;
const config = {
  solana: {
    rpcUrl: 'http://127.0.0.1:1',
    publicRpcUrl: 'http://127.0.0.1:1',
    cluster: 'localnet',
    depositAddress: '',
    commitment: 'confirmed',
    sslPerSol: 5143,
    quoteTtlSeconds: 1800,
    demoWalletUrl: null,
  },
  withdrawals: {
    minimumMicro: 10n * SSL,
    dailyCapMicro: 1_000_000n * SSL,
    treasury: new TreasuryKey(Keypair.generate()),
  },
} as unknown as AppConfig;
config.solana!.depositAddress = config.withdrawals!.treasury.address;
const clock = { now: () => new Date() };

let db: TestDatabase;
let dataSource: DataSource;
let chain: FakePayoutChain;
let requests: WithdrawalsService;
let worker: WithdrawalPayoutService;
let walletUpdated: jest.Mock;
let wallets: WalletRepository;

function workerOn(payoutChain: FakePayoutChain): WithdrawalPayoutService {
  const repository = new WithdrawalsRepository(dataSource);
  return new WithdrawalPayoutService(
    repository,
    new LedgerService(wallets),
    new TransactionRunner(dataSource),
    { walletUpdated } as unknown as RealtimeGateway,
    new WithdrawalMetrics(new MetricsRegistry(), repository),
    payoutChain,
    config,
    clock,
  );
}

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource(dataSourceOptions(db.url));
  await dataSource.initialize();
  wallets = new WalletRepository(dataSource);
  const transactions = new TransactionRunner(dataSource);
  requests = new WithdrawalsService(
    new WithdrawalsRepository(dataSource),
    new LedgerService(wallets),
    new IdempotencyService(transactions, new IdempotencyRepository(dataSource)),
    transactions,
    { runNow: () => undefined } as unknown as JobScheduler,
    config,
    clock,
  );
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});
// Each test starts with nothing open: what a test left sent counts as paid.
afterEach(() =>
  db.query(
    `UPDATE withdrawals SET status = 'confirmed', confirmed_at = now() WHERE status = 'sent'`,
  ),
);
beforeEach(() => {
  chain = new FakePayoutChain();
  walletUpdated = jest.fn();
  worker = workerOn(chain);
});

/** An operator with `ssl` in the node wallet and one withdrawal of `amount` SSL. */
async function withdrawal(ssl = 100, amount = '40') {
  const owner = await insertAccount(db);
  await depositSsl(db.url, owner, ssl, 'node_wallet');
  const destination = Keypair.generate().publicKey.toBase58();
  const { withdrawal: created } = await requests.withdraw(
    owner,
    { amount, destinationAddress: destination },
    undefined,
  );
  // The withdrawal's ledger movement names its code and destination.
  expect(
    await db.query(
      `SELECT description_code, description_values FROM ledger_transactions WHERE external_ref = $1`,
      [`payout:${created.id}`],
    ),
  ).toEqual([{ description_code: 'withdrawal', description_values: { destination } }]);
  return { owner, id: created.id };
}

async function row(id: string) {
  const [found] = await db.query<{
    status: string;
    signature: string | null;
    signed_transaction: string | null;
    send_attempts: number;
  }>(`SELECT status, signature, signed_transaction, send_attempts FROM withdrawals WHERE id = $1`, [
    id,
  ]);
  return found!;
}

async function nodeBalance(owner: string): Promise<bigint> {
  const [account] = await db.query<{ b: string }>(
    `SELECT balance_micro::text AS b FROM ledger_accounts WHERE kind = 'node_wallet' AND owner_uuid = $1`,
    [owner],
  );
  return BigInt(account?.b ?? '0');
}

async function reversals(id: string): Promise<number> {
  const rows = await db.query<{ description_code: string }>(
    `SELECT description_code FROM ledger_transactions WHERE external_ref = $1`,
    [`payout-reversal:${id}`],
  );
  // A reversal says so by its code.
  for (const row of rows) expect(row.description_code).toBe('withdrawal_returned');
  return rows.length;
}

describe('WithdrawalPayoutService', () => {
  it('should store the signed payout before sending it, and confirm it only at the commitment', async () => {
    const { id, owner } = await withdrawal();
    expect(await worker.runOnce()).toBe(0);
    const signed = await row(id);
    expect(signed).toMatchObject({ status: 'sent', send_attempts: 1 });
    expect(chain.simulated).toEqual([signed.signed_transaction]);
    expect(chain.sent).toEqual([signed.signed_transaction]);
    expect(FakePayoutChain.signatureOf(chain.sent[0]!)).toBe(signed.signature);

    // Landed but only processed: wait, never resend.
    chain.statusOf.set(signed.signature!, {
      failed: false,
      error: null,
      confirmation: 'processed',
    });
    expect(await worker.runOnce()).toBe(0);
    expect(chain.sent).toHaveLength(1);
    expect((await row(id)).status).toBe('sent');

    chain.statusOf.set(signed.signature!, {
      failed: false,
      error: null,
      confirmation: 'confirmed',
    });
    expect(await worker.runOnce()).toBe(1);
    expect((await row(id)).status).toBe('confirmed');
    expect(walletUpdated).toHaveBeenCalledWith(owner, 'withdrawal');
    expect(await worker.runOnce()).toBe(0);
    expect(chain.sent).toHaveLength(1);
  });

  it('should resend the very same bytes after a lost send, simulating only the first', async () => {
    const { id } = await withdrawal();
    chain.failSends = 1;
    await worker.runOnce();
    const signed = await row(id);
    expect(signed).toMatchObject({ status: 'sent', send_attempts: 1 });
    expect(chain.sent).toEqual([]);

    await worker.runOnce();
    await worker.runOnce();
    expect(chain.sent).toEqual([signed.signed_transaction, signed.signed_transaction]);
    expect(chain.simulated).toHaveLength(1);
    expect((await row(id)).send_attempts).toBe(3);
  });

  it('should fail a payout the chain never saw once its blockhash expired, reversing it once', async () => {
    const { owner, id } = await withdrawal(100, '40');
    chain.failSends = 1;
    await worker.runOnce();
    expect(await nodeBalance(owner)).toBe(60n * SSL);
    // At the last valid height a block could still take it: sent again.
    chain.finalizedHeight += 150;
    await worker.runOnce();
    expect((await row(id)).status).toBe('sent');
    chain.sent.length = 0;
    chain.finalizedHeight += 1;
    expect(await worker.runOnce()).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'failed' });
    expect(chain.sent).toEqual([]);
    expect(await nodeBalance(owner)).toBe(100n * SSL);
    expect(await reversals(id)).toBe(1);
    expect(await worker.runOnce()).toBe(0);
    expect(await reversals(id)).toBe(1);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should fail a payout that landed with an error, but only once that is at the commitment', async () => {
    const { owner, id } = await withdrawal();
    await worker.runOnce();
    const { signature } = await row(id);
    const error = '{"InstructionError":[0,{"Custom":1}]}';
    chain.statusOf.set(signature!, { failed: true, error, confirmation: 'processed' });
    await worker.runOnce();
    expect((await row(id)).status).toBe('sent');
    chain.statusOf.set(signature!, { failed: true, error, confirmation: 'confirmed' });
    await worker.runOnce();
    const [failed] = await db.query<{ failure_reason: string }>(
      `SELECT failure_reason FROM withdrawals WHERE id = $1`,
      [id],
    );
    expect(failed!.failure_reason).toBe(`The payout failed on chain: ${error}`);
    expect(await nodeBalance(owner)).toBe(100n * SSL);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should fail a payout whose first simulation is refused, without sending it', async () => {
    const { owner, id } = await withdrawal();
    chain.simulateError = '"AccountNotFound"';
    expect(await worker.runOnce()).toBe(1);
    expect(chain.sent).toEqual([]);
    expect((await row(id)).status).toBe('failed');
    expect(await nodeBalance(owner)).toBe(100n * SSL);
    expect(await reversals(id)).toBe(1);
  });

  it('should let one replica run at a time', async () => {
    await withdrawal();
    let release!: () => void;
    chain.gate = new Promise((resolve) => (release = resolve));
    const other = workerOn(chain);
    const first = worker.runOnce();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await other.runOnce()).toBeNull();
    release();
    await first;
    expect(chain.sent).toHaveLength(1);
  });
});
