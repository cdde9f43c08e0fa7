import { randomUUID } from 'node:crypto';
import { DEPOSIT_MESSAGES } from '@scn/proto';
import { Keypair } from '@solana/web3.js';
import { DataSource } from 'typeorm';
import { ledgerViolations } from '../../test/support/ledger';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { RateLimitService } from '../rate-limit/rate-limit.service';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { DepositCreditService } from './deposit-credit.service';
import { DepositMatcherService } from './deposit-matcher.service';
import { DepositRequestsService } from './deposit-requests.service';
import { DepositVerifyService } from './deposit-verify.service';
import { DepositWatcherJob } from './deposit-watcher.job';
import { DepositWatcherService } from './deposit-watcher.service';
import { DepositsException } from './deposits.exception';
import { DepositsRepository } from './deposits.repository';
import { FakeChain } from '../../test/support/fake-chain';
import type { ChainTransaction } from './solana-chain';
import { JobRunsRepository } from '../jobs/job-runs.repository';
import { JobScheduler } from '../jobs/job-scheduler';
import { DepositMetrics } from './deposit-metrics';
import { DepositTransfersRepository } from './deposit-transfers.repository';
import { MetricsRegistry } from '../metrics/metrics-registry';

const key = () => Keypair.generate().publicKey.toBase58();
/** Unique, signature-shaped (base58, 64+ characters): the fake chain only compares them. */
const signature = () => key() + key();
const treasury = key();
const config = {
  solana: {
    rpcUrl: 'http://127.0.0.1:1',
    publicRpcUrl: 'http://127.0.0.1:1',
    cluster: 'localnet',
    depositAddress: treasury,
    commitment: 'finalized',
    sslPerSol: 5143,
    quoteTtlSeconds: 1800,
    demoWalletUrl: null,
  },
} as AppConfig;
const clock = { now: () => new Date() };
const admitAll = { consume: () => Promise.resolve({ release: () => Promise.resolve() }) };

let db: TestDatabase;
let dataSource: DataSource;
let chain: FakeChain;
let requests: DepositRequestsService;
let verifier: DepositVerifyService;
let watcher: DepositWatcherJob;
let walletUpdated: jest.Mock;
let wallets: WalletRepository;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 40 } });
  await dataSource.initialize();
  chain = new FakeChain();
  walletUpdated = jest.fn();
  const repository = new DepositsRepository(dataSource);
  const transactions = new TransactionRunner(dataSource);
  wallets = new WalletRepository(dataSource);
  const metrics = new DepositMetrics(
    new MetricsRegistry(),
    new DepositTransfersRepository(dataSource),
  );
  const credits = new DepositCreditService(
    repository,
    transactions,
    new LedgerService(wallets),
    { walletUpdated } as unknown as RealtimeGateway,
    metrics,
    clock,
  );
  const matcher = new DepositMatcherService(repository, credits, chain, config, clock);
  const limits = admitAll as unknown as RateLimitService;
  requests = new DepositRequestsService(repository, limits, config, clock);
  verifier = new DepositVerifyService(requests, repository, matcher, limits, metrics, clock);
  watcher = new DepositWatcherJob(
    new DepositWatcherService(repository, matcher, chain, config, clock),
    transactions,
    config,
    new JobScheduler(new JobRunsRepository(dataSource)),
  );
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

function session(userType: 'client' | 'node' = 'client'): ActiveSession {
  return { account: { uuid: randomUUID(), userType } } as ActiveSession;
}

/** A finalized transfer of `lamports` from `payer` to the treasury (with the reference if any). */
function transfer(payer: string, lamports: bigint, reference?: string): ChainTransaction {
  const tx: ChainTransaction = {
    signature: signature(),
    blockTime: new Date(),
    failed: false,
    confirmation: 'finalized',
    feePayer: payer,
    accountKeys: [payer, treasury, ...(reference ? [reference] : [])],
    transfers: [{ source: payer, destination: treasury, lamports }],
  };
  chain.add(tx);
  return tx;
}

async function balance(owner: string, kind = 'client_wallet' as const): Promise<bigint> {
  const id = await wallets.findAccountId(kind, owner);
  return id ? wallets.balance(id) : 0n;
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
  } catch (error) {
    if (error instanceof DepositsException) return error.code;
    throw error;
  }
  return 'credited';
}

describe('DepositVerifyService (real PostgreSQL, fake chain)', () => {
  it('should credit one transfer once when 20 verifies of it race', async () => {
    const alice = session();
    const payer = key();
    const request = await requests.create(alice, { solAmount: '1.5', userAddress: payer });
    const tx = transfer(payer, 1_500_000_000n, request.reference);
    const body = { userAddress: payer, expectedAmount: '1.5', userId: alice.account.uuid };

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        verifier.verify(alice, {
          ...body,
          requestId: request.id,
          ...(i % 2 ? { signature: tx.signature } : {}),
        }),
      ),
    );

    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(answers[0]).toMatchObject({
      verified: true,
      message: DEPOSIT_MESSAGES.credited('7714'),
      transaction: { signature: tx.signature, sslTokens: 7714, sslCreditMicro: '7714000000' },
    });
    expect(await balance(alice.account.uuid)).toBe(7_714_000_000n);
    const rows = await db.query(`SELECT * FROM deposit_credits WHERE signature = $1`, [
      tx.signature,
    ]);
    expect(rows).toHaveLength(1);
    const movements = await db.query(
      `SELECT type, description_code, description_values FROM ledger_transactions
       WHERE external_ref = $1`,
      [`sol:${tx.signature}`],
    );
    // The SOL received as exact text and the request's rate, for the reader's words.
    expect(movements).toEqual([
      {
        type: 'deposit',
        description_code: 'sol_deposit',
        description_values: { sol: '1.5', sslPerSol: 5143 },
      },
    ]);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it('should refuse the same signature for another account, and a second signature for a credited request', async () => {
    const alice = session();
    const bob = session();
    const payer = key();
    const mine = await requests.create(alice, { solAmount: '0.5', userAddress: payer });
    const tx = transfer(payer, 500_000_000n, mine.reference);
    await verifier.verify(alice, {
      userAddress: payer,
      expectedAmount: '0.5',
      userId: alice.account.uuid,
      requestId: mine.id,
    });
    const theirs = await requests.create(bob, { solAmount: '0.5', userAddress: payer });
    const claim = {
      userAddress: payer,
      expectedAmount: '0.5',
      userId: bob.account.uuid,
      requestId: theirs.id,
      signature: tx.signature,
    };
    expect(await refusal(verifier.verify(bob, claim))).toBe('credited_elsewhere');
    const other = transfer(payer, 500_000_000n, mine.reference);
    expect(
      await refusal(
        verifier.verify(alice, {
          ...claim,
          userId: alice.account.uuid,
          requestId: mine.id,
          signature: other.signature,
        }),
      ),
    ).toBe('already_credited');
    expect(await balance(bob.account.uuid)).toBe(0n);
    expect(await balance(alice.account.uuid)).toBe(2_571_000_000n);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it.each<[string, (payer: string, reference: string) => ChainTransaction, string]>([
    [
      'a wrong amount',
      (payer, reference) => transfer(payer, 999_999_999n, reference),
      'wrong_amount',
    ],
    [
      'a failed transaction',
      (payer, reference) => ({ ...transfer(payer, 1_000_000_000n, reference), failed: true }),
      'failed_transaction',
    ],
  ])('should refuse %s and credit nothing', async (_, make, code) => {
    const alice = session();
    const payer = key();
    const request = await requests.create(alice, { solAmount: '1', userAddress: payer });
    const tx = make(payer, request.reference);
    chain.transactions.splice(chain.transactions.length - 1, 1, tx);
    const body = { userAddress: payer, expectedAmount: '1', userId: alice.account.uuid };
    expect(await refusal(verifier.verify(alice, { ...body, requestId: request.id }))).toBe(code);
    expect(await balance(alice.account.uuid)).toBe(0n);
  });

  it("should refuse verifying another account's deposits", async () => {
    const alice = session();
    const payer = key();
    const body = { userAddress: payer, expectedAmount: '1', userId: randomUUID() };
    expect(await refusal(verifier.verify(alice, body))).toBe('not_your_account');
  });

  it('should credit a transfer without a reference only when exactly one open request matches', async () => {
    const alice = session();
    const payer = key();
    const body = { userAddress: payer, expectedAmount: '0.2', userId: alice.account.uuid };
    await requests.create(alice, { solAmount: '0.2', userAddress: payer });
    await requests.create(alice, { solAmount: '0.2', userAddress: payer });
    transfer(payer, 200_000_000n);
    expect(await refusal(verifier.verify(alice, body))).toBe('ambiguous');

    const bob = session();
    const bobPayer = key();
    await requests.create(bob, { solAmount: '0.3', userAddress: bobPayer });
    transfer(bobPayer, 300_000_000n);
    const answer = await verifier.verify(bob, {
      userAddress: bobPayer,
      expectedAmount: '0.3',
      userId: bob.account.uuid,
    });
    expect(answer).toMatchObject({ verified: true, transaction: { sslTokens: 1542 } });
    expect(await balance(alice.account.uuid)).toBe(0n);
  });

  it('should answer every repeat of a verify without requestId as the first, once credited', async () => {
    const alice = session();
    const payer = key();
    const request = await requests.create(alice, { solAmount: '0.4', userAddress: payer });
    const tx = transfer(payer, 400_000_000n);
    const body = { userAddress: payer, expectedAmount: '0.4', userId: alice.account.uuid };
    const first = await verifier.verify(alice, body);
    expect(first).toMatchObject({ verified: true, transaction: { signature: tx.signature } });

    // docs/deposits.md: verifying again is harmless, by any of the call's forms.
    for (const repeat of [
      body,
      { ...body, signature: tx.signature },
      { ...body, requestId: request.id },
      { ...body, requestId: request.id, signature: tx.signature },
    ]) {
      expect(await verifier.verify(alice, repeat)).toEqual(first);
    }
    expect(await balance(alice.account.uuid)).toBe(2_057_000_000n);
    expect(await ledgerViolations(db.url)).toEqual([]);
  });

  it.each([
    ['without a reference (the sender path)', false],
    ['with the reference', true],
  ])(
    'should give every racing verify of one signature %s the same answer, naming the request or not',
    async (_, withReference) => {
      const alice = session();
      const payer = key();
      const request = await requests.create(alice, { solAmount: '0.6', userAddress: payer });
      const tx = transfer(payer, 600_000_000n, withReference ? request.reference : undefined);
      const body = {
        userAddress: payer,
        expectedAmount: '0.6',
        userId: alice.account.uuid,
        signature: tx.signature,
      };

      const answers = await Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          verifier
            .verify(alice, {
              ...body,
              ...(i % 2 ? { requestId: request.id } : {}),
              // A third of them leave the signature out (the watcher's way of finding it).
              ...(i % 3 === 2 ? { signature: undefined } : {}),
            })
            .catch((error: unknown) =>
              error instanceof DepositsException ? error.code : Promise.reject(error),
            ),
        ),
      );

      expect(answers.filter((answer) => typeof answer === 'string')).toEqual([]);
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
      expect(answers[0]).toMatchObject({
        verified: true,
        transaction: { signature: tx.signature, sslTokens: 3085 },
      });
      expect(await balance(alice.account.uuid)).toBe(3_085_000_000n);
      const movements = await db.query(
        `SELECT type FROM ledger_transactions WHERE external_ref = $1`,
        [`sol:${tx.signature}`],
      );
      expect(movements).toEqual([{ type: 'deposit' }]);
      expect(await ledgerViolations(db.url)).toEqual([]);
    },
  );

  it("should let the watcher credit a node operator's deposit into the node wallet, once", async () => {
    const operator = session('node');
    const payer = key();
    const request = await requests.create(operator, { solAmount: '2', userAddress: payer });
    expect(request.walletType).toBe('node_wallet');
    transfer(payer, 2_000_000_000n, request.reference);
    walletUpdated.mockClear();
    expect(await watcher.runOnce()).toBe(1);
    expect(await watcher.runOnce()).toBe(0);
    expect(walletUpdated).toHaveBeenCalledTimes(1);
    expect(walletUpdated).toHaveBeenCalledWith(operator.account.uuid, 'deposit');
    expect(await balance(operator.account.uuid, 'node_wallet' as 'client_wallet')).toBe(
      10_286_000_000n,
    );
    expect(await ledgerViolations(db.url)).toEqual([]);
  });
});
