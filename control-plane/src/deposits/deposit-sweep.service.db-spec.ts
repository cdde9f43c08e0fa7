import { randomBytes } from 'node:crypto';
import { type Devchain, startDevchain } from '@scn/devchain';
import {
  Connection,
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import { DataSource } from 'typeorm';
import { insertAccount } from '../../test/support/market-fixtures';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { AppConfig } from '../config/app-config';
import { TreasuryKey } from '../config/withdrawal-settings';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import { depositAddress } from './deposit-address-derivation';
import { type SweepChain, Web3SweepChain } from './deposit-sweep-chain';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  associatedTokenAddress,
} from './deposit-sweep-transaction';
import { DepositSweepService } from './deposit-sweep.service';
import { DepositSweepsRepository } from './deposit-sweeps.repository';

jest.setTimeout(60_000);

const seed = randomBytes(32);
const feePayerKey = Keypair.generate();
const clock = { now: () => new Date() };
const SOL = 1_000_000_000n;

let db: TestDatabase;
let dataSource: DataSource;
let chain: Devchain;
let rpc: Connection;
let config: AppConfig;
let realChain: SweepChain;
let nextIndex = 1;

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource(dataSourceOptions(db.url));
  await dataSource.initialize();
  chain = await startDevchain({ slotMs: 50, finalizeAfterSlots: 2 });
  rpc = new Connection(chain.url, 'confirmed');
  const solana = {
    rpcUrl: chain.url,
    publicRpcUrl: chain.url,
    cluster: 'localnet',
    depositAddress: chain.depositAddress,
    commitment: 'confirmed',
    sslPerSol: 5143,
    quoteTtlSeconds: 1800,
    demoWalletUrl: chain.demoWalletUrl,
    depositAddresses: {
      seed,
      usdcMint: chain.testMints.USDC,
      usdtMint: chain.testMints.USDT,
      minLamports: 10_000_000n,
      minTokenBaseUnits: 1_000_000n,
    },
  };
  config = { solana, sweeps: { feePayer: new TreasuryKey(feePayerKey) } } as unknown as AppConfig;
  realChain = new Web3SweepChain(config.solana!);
  await airdrop(feePayerKey.publicKey, 10n * SOL);
});
afterAll(async () => {
  await chain?.stop();
  await dataSource?.destroy();
  await db?.drop();
});

function service(sweepChain: SweepChain = realChain, source: DataSource = dataSource) {
  return new DepositSweepService(
    new DepositSweepsRepository(source),
    new TransactionRunner(source),
    sweepChain,
    config,
    clock,
  );
}

async function until<T>(what: string, probe: () => Promise<T | null | false>): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function airdrop(to: PublicKey, lamports: bigint) {
  const before = BigInt(await rpc.getBalance(to));
  await rpc.requestAirdrop(to, Number(lamports));
  await until('the airdrop', async () => BigInt(await rpc.getBalance(to)) >= before + lamports);
}

async function tokenBalance(owner: PublicKey, mint: string): Promise<bigint> {
  const ata = associatedTokenAddress(owner, new PublicKey(mint));
  const info = await rpc.getAccountInfo(ata);
  if (!info) return 0n;
  return (await rpc.getTokenAccountBalance(ata)).value.amount as unknown as bigint;
}
const tokens = async (owner: PublicKey, mint: string) => BigInt(await tokenBalance(owner, mint));

/** The demo wallet pays `amount` of the token to `to`, as a phone wallet would. */
async function payToken(to: string, mint: string, amount: string) {
  const before = await tokens(new PublicKey(to), mint);
  const paid = await fetch(`${chain.demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: `solana:${to}?amount=${amount}&spl-token=${mint}` }),
  });
  if (!paid.ok) throw new Error(`demo wallet: ${paid.status} ${await paid.text()}`);
  await until('the token transfer', async () => (await tokens(new PublicKey(to), mint)) > before);
}

/** A fresh deposit address row with sweep_due_at set; its address. */
async function dueAddress(): Promise<PublicKey> {
  const owner = await insertAccount(db);
  const index = nextIndex++;
  const address = depositAddress(seed, index);
  await dataSource.query(
    `INSERT INTO deposit_addresses (owner_uuid, wallet_kind, derivation_index, address, sweep_due_at)
     VALUES ($1, 'client_wallet', $2, $3, now())`,
    [owner, index, address],
  );
  return new PublicKey(address);
}

async function sweeps(address: PublicKey) {
  return (await dataSource.query(
    `SELECT id, signature, status, lamports, tokens, error FROM deposit_sweeps WHERE address = $1
      ORDER BY created_at`,
    [address.toBase58()],
  )) as Array<{ id: string; signature: string; status: string; lamports: string; error: string }>;
}

async function dueAt(address: PublicKey): Promise<Date | null> {
  const [row] = (await dataSource.query(
    `SELECT sweep_due_at FROM deposit_addresses WHERE address = $1`,
    [address.toBase58()],
  )) as Array<{ sweep_due_at: Date | null }>;
  return row!.sweep_due_at;
}

/** Runs the sweeper until the address has no sweep in flight. */
async function settle(address: PublicKey, worker = service()) {
  await until('the sweep to settle', async () => {
    await worker.runOnce();
    const rows = await sweeps(address);
    return rows.length > 0 && rows.every((row) => row.status !== 'sent');
  });
}

const balance = async (key: PublicKey | string) =>
  BigInt(await rpc.getBalance(typeof key === 'string' ? new PublicKey(key) : key));

describe('DepositSweepService against devchain', () => {
  it('should move the whole SOL balance to the treasury, the fee paid by the fee payer, when only SOL is there', async () => {
    const address = await dueAddress();
    await airdrop(address, 2n * SOL);
    const treasury = await balance(chain.depositAddress);
    const payer = await balance(feePayerKey.publicKey);
    await settle(address);
    const [sweep] = await sweeps(address);
    expect(sweep).toMatchObject({ status: 'done', lamports: String(2n * SOL) });
    expect(await balance(address)).toBe(0n);
    expect((await balance(chain.depositAddress)) - treasury).toBe(2n * SOL);
    expect(await balance(feePayerKey.publicKey)).toBeLessThan(payer);
    expect(await dueAt(address)).toBeNull();
  });

  it('should move USDC and USDT to the treasury, keeping the deposit token accounts open, when only tokens are there', async () => {
    const address = await dueAddress();
    await payToken(address.toBase58(), chain.testMints.USDC, '5');
    await payToken(address.toBase58(), chain.testMints.USDT, '7.25');
    const treasury = new PublicKey(chain.depositAddress);
    const usdc = await tokens(treasury, chain.testMints.USDC);
    const usdt = await tokens(treasury, chain.testMints.USDT);
    const treasuryLamports = await balance(treasury);
    await settle(address);
    expect((await sweeps(address))[0]!.status).toBe('done');
    expect((await tokens(treasury, chain.testMints.USDC)) - usdc).toBe(5_000_000n);
    expect((await tokens(treasury, chain.testMints.USDT)) - usdt).toBe(7_250_000n);
    expect(await tokens(address, chain.testMints.USDC)).toBe(0n);
    const ata = associatedTokenAddress(address, new PublicKey(chain.testMints.USDC));
    expect(await rpc.getAccountInfo(ata)).not.toBeNull();
    // The treasury pays nothing: its token accounts' rent and the fee are the fee payer's.
    expect(await balance(treasury)).toBe(treasuryLamports);
    expect(await dueAt(address)).toBeNull();
  });

  it('should sweep SOL and tokens in one transaction when both are there', async () => {
    const address = await dueAddress();
    await payToken(address.toBase58(), chain.testMints.USDC, '3');
    await airdrop(address, SOL / 2n);
    const treasury = await balance(chain.depositAddress);
    await settle(address);
    const rows = await sweeps(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'done', lamports: String(SOL / 2n) });
    expect(await balance(address)).toBe(0n);
    expect(await tokens(address, chain.testMints.USDC)).toBe(0n);
    expect((await balance(chain.depositAddress)) - treasury).toBe(SOL / 2n);
  });

  it('should leave a token of an unknown mint untouched', async () => {
    const address = await dueAddress();
    const mint = await unknownMintHeldBy(address, 4_000_000n);
    await airdrop(address, SOL / 4n);
    await settle(address);
    expect((await sweeps(address))[0]).toMatchObject({
      status: 'done',
      lamports: String(SOL / 4n),
    });
    expect(await tokens(address, mint.toBase58())).toBe(4_000_000n);
    expect(await tokens(new PublicKey(chain.depositAddress), mint.toBase58())).toBe(0n);
  });

  it('should clear sweep_due_at without a sweep when nothing is there', async () => {
    const address = await dueAddress();
    await service().runOnce();
    expect(await sweeps(address)).toEqual([]);
    expect(await dueAt(address)).toBeNull();
  });

  it('should keep sweep_due_at and sweep again when a credit came after the sweep read the balances', async () => {
    const address = await dueAddress();
    await airdrop(address, SOL / 10n);
    const treasury = await balance(chain.depositAddress);
    await service(dropSends(realChain).chain).runOnce();
    expect((await sweeps(address))[0]).toMatchObject({
      status: 'sent',
      lamports: String(SOL / 10n),
    });
    // A deposit lands after the sweep read the balances, and the watcher credits it.
    await airdrop(address, SOL / 5n);
    await dataSource.query(`UPDATE deposit_addresses SET sweep_due_at = now() WHERE address = $1`, [
      address.toBase58(),
    ]);
    await settle(address);
    const rows = await sweeps(address);
    expect(rows.map((row) => [row.status, row.lamports])).toEqual([
      ['done', String(SOL / 10n)],
      ['done', String(SOL / 5n)],
    ]);
    expect(await balance(address)).toBe(0n);
    expect((await balance(chain.depositAddress)) - treasury).toBe((3n * SOL) / 10n);
    expect(await dueAt(address)).toBeNull();
  });

  it('should resend the same signature and land it once when the process died between store and send', async () => {
    const address = await dueAddress();
    await airdrop(address, SOL);
    const treasury = await balance(chain.depositAddress);
    const crashing = dropSends(realChain, () => {
      throw new Error('killed before sending');
    });
    await service(crashing.chain).runOnce();
    const [stored] = await sweeps(address);
    expect(stored!.status).toBe('sent');
    expect(crashing.dropped).toBe(1);
    expect(await rpc.getSignatureStatus(stored!.signature)).toMatchObject({ value: null });
    await settle(address);
    const rows = await sweeps(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ signature: stored!.signature, status: 'done' });
    expect((await balance(chain.depositAddress)) - treasury).toBe(SOL);
  });

  it('should settle a sweep sent just before the process died', async () => {
    const address = await dueAddress();
    await airdrop(address, SOL);
    const sentThenDied: SweepChain = Object.create(realChain) as SweepChain;
    sentThenDied.send = async (wire) => {
      await realChain.send(wire);
      throw new Error('killed after sending');
    };
    await service(sentThenDied).runOnce();
    await settle(address);
    const rows = await sweeps(address);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.status).toBe('done');
    expect(await balance(address)).toBe(0n);
  });

  it('should mark a sweep expired once its blockhash is past and then make a new one', async () => {
    const address = await dueAddress();
    await airdrop(address, SOL);
    const treasury = await balance(chain.depositAddress);
    const holding = dropSends(realChain);
    await service(holding.chain).runOnce();
    const [first] = await sweeps(address);
    chain.advanceSlots(200);
    await until('finalized past the blockhash', async () => {
      await service(holding.chain).runOnce();
      return (await sweeps(address))[0]!.status === 'expired';
    });
    const rows = await sweeps(address);
    expect(rows).toHaveLength(2);
    expect(rows[1]!.signature).not.toBe(first!.signature);
    await settle(address);
    expect((await sweeps(address)).map((row) => row.status)).toEqual(['expired', 'done']);
    expect((await balance(chain.depositAddress)) - treasury).toBe(SOL);
    expect(await dueAt(address)).toBeNull();
  });

  it('should keep one sweep in flight per address when two replicas run at once', async () => {
    const address = await dueAddress();
    await airdrop(address, SOL);
    const other = new DataSource(dataSourceOptions(db.url));
    await other.initialize();
    try {
      const holding = dropSends(realChain);
      await Promise.all([
        service(holding.chain).runOnce(),
        service(holding.chain, other).runOnce(),
      ]);
      expect(await sweeps(address)).toHaveLength(1);
      // Past the lock, the in-flight index refuses a second stored sweep of the address.
      const repository = new DepositSweepsRepository(other);
      const signed = {
        signature: 'x'.repeat(88),
        blockhash: 'b',
        lastValidBlockHeight: 1,
        signedTransaction: '',
      };
      const second = await repository.insertSent(
        address.toBase58(),
        { lamports: 1n, tokens: [] },
        signed,
        new Date(),
      );
      expect(second).toBeNull();
    } finally {
      await other.destroy();
    }
    await settle(address);
    expect(await sweeps(address)).toHaveLength(1);
  });
});

/** The real chain, except that sends are dropped (a lost packet or a process killed). */
function dropSends(real: SweepChain, onSend: () => void = () => undefined) {
  const state = { dropped: 0, chain: Object.create(real) as SweepChain };
  state.chain.send = () => {
    state.dropped += 1;
    onSend();
    return Promise.resolve();
  };
  return state;
}

/** A new SPL Token mint (6 decimals, not accepted) and `amount` of it in `owner`'s ATA. */
async function unknownMintHeldBy(owner: PublicKey, amount: bigint): Promise<PublicKey> {
  const authority = Keypair.generate();
  const mint = Keypair.generate();
  await airdrop(authority.publicKey, SOL);
  const rent = await rpc.getMinimumBalanceForRentExemption(82);
  const ata = associatedTokenAddress(owner, mint.publicKey);
  const amountBytes = Buffer.alloc(8);
  amountBytes.writeBigUInt64LE(amount);
  const { blockhash } = await rpc.getLatestBlockhash();
  const tx = new Transaction({ feePayer: authority.publicKey, recentBlockhash: blockhash }).add(
    SystemProgram.createAccount({
      fromPubkey: authority.publicKey,
      newAccountPubkey: mint.publicKey,
      lamports: rent,
      space: 82,
      programId: TOKEN_PROGRAM_ID,
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [{ pubkey: mint.publicKey, isSigner: false, isWritable: true }],
      data: Buffer.concat([Buffer.from([20, 6]), authority.publicKey.toBuffer(), Buffer.from([0])]),
    }),
    new TransactionInstruction({
      programId: ASSOCIATED_TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: authority.publicKey, isSigner: true, isWritable: true },
        { pubkey: ata, isSigner: false, isWritable: true },
        { pubkey: owner, isSigner: false, isWritable: false },
        { pubkey: mint.publicKey, isSigner: false, isWritable: false },
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
        { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
      ],
      data: Buffer.from([1]),
    }),
    new TransactionInstruction({
      programId: TOKEN_PROGRAM_ID,
      keys: [
        { pubkey: mint.publicKey, isSigner: false, isWritable: true },
        { pubkey: ata, isSigner: false, isWritable: true },
        { pubkey: authority.publicKey, isSigner: true, isWritable: false },
      ],
      data: Buffer.concat([Buffer.from([7]), amountBytes]),
    }),
  );
  tx.sign(authority, mint);
  await rpc.sendRawTransaction(tx.serialize());
  await until(
    'the unknown mint',
    async () => (await tokens(owner, mint.publicKey.toBase58())) > 0n,
  );
  return mint.publicKey;
}
