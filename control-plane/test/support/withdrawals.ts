import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type PublicKey,
  SystemProgram,
  Transaction,
} from '@solana/web3.js';
import {
  WITHDRAWAL_ROUTES,
  type Withdrawal,
  type WithdrawalsResponse,
  type WithdrawalStatus,
} from '@scn/proto';
import type { Test } from 'supertest';
import { type FundingChain, startFundingChain } from './chain-deposits';
import { startTestApp, type TestApp } from './test-app';

/**
 * The control plane with withdrawals on against a local chain whose treasury key
 * file it signs with (the devchain creates the file; the deposit address is its public key).
 */
export interface WithdrawalStack {
  t: TestApp;
  funding: FundingChain;
  connection: Connection;
  treasury: Keypair;
  stop(): Promise<void>;
}

export async function startWithdrawalStack(
  env: Record<string, string> = {},
  options: { now?: () => Date } = {},
): Promise<WithdrawalStack> {
  const keyFile = join(mkdtempSync(join(tmpdir(), 'scn-treasury-')), 'treasury.json');
  const now = options.now;
  const funding = await startFundingChain({
    treasuryKeyFile: keyFile,
    ...(now ? { now: () => now().getTime() } : {}),
  });
  const t = await startTestApp(
    {
      ...funding.env,
      WITHDRAWALS_ENABLED: 'true',
      SOLANA_TREASURY_KEY_FILE: keyFile,
      ...env,
    },
    now ? { clock: { now } } : {},
  );
  const treasury = Keypair.fromSecretKey(
    Uint8Array.from(JSON.parse(readFileSync(keyFile, 'utf8')) as number[]),
  );
  return {
    t,
    funding,
    connection: new Connection(funding.chain.url, 'confirmed'),
    treasury,
    async stop() {
      await t.close();
      await funding.stop();
    },
  };
}

/** SOL for the treasury from the chain's faucet (a real transfer), confirmed. */
export async function airdrop(connection: Connection, to: PublicKey, sol: number): Promise<void> {
  const signature = await connection.requestAirdrop(to, sol * LAMPORTS_PER_SOL);
  await waitFor(async () => {
    const [status] = (await connection.getSignatureStatuses([signature])).value;
    return status?.confirmationStatus === 'confirmed' || status?.confirmationStatus === 'finalized';
  }, `airdrop ${signature}`);
}

/** Moves every lamport of the treasury elsewhere (it pays the fee itself): it holds nothing. */
export async function drainTreasury(connection: Connection, treasury: Keypair): Promise<void> {
  const balance = await connection.getBalance(treasury.publicKey, 'confirmed');
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
  const transaction = new Transaction({
    feePayer: treasury.publicKey,
    blockhash,
    lastValidBlockHeight,
  }).add(
    SystemProgram.transfer({
      fromPubkey: treasury.publicKey,
      toPubkey: Keypair.generate().publicKey,
      lamports: balance - 5000,
    }),
  );
  transaction.sign(treasury);
  await connection.sendRawTransaction(transaction.serialize());
  await waitFor(
    async () => (await connection.getBalance(treasury.publicKey, 'confirmed')) === 0,
    'the treasury drained',
  );
}

export async function waitFor(check: () => Promise<boolean>, what: string, ms = 20_000) {
  for (const deadline = Date.now() + ms; ;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

type Who = { uuid: string; cookie: string };

export function withdraw(
  t: TestApp,
  who: Who,
  body: Record<string, unknown>,
  idempotencyKey?: string,
): Test {
  const request = t.http().post(WITHDRAWAL_ROUTES.withdraw(who.uuid)).set('Cookie', who.cookie);
  if (idempotencyKey) request.set('Idempotency-Key', idempotencyKey);
  return request.send(body);
}

export async function withdrawals(t: TestApp, who: Who): Promise<WithdrawalsResponse> {
  const response = await t
    .http()
    .get(WITHDRAWAL_ROUTES.list(who.uuid))
    .set('Cookie', who.cookie)
    .expect(200);
  return response.body as WithdrawalsResponse;
}

/** Waits until the withdrawal is settled (confirmed or failed) and answers it. */
export async function settled(
  t: TestApp,
  who: Who,
  id: string,
  statuses: readonly WithdrawalStatus[] = ['confirmed', 'failed'],
): Promise<Withdrawal> {
  let found: Withdrawal | undefined;
  await waitFor(
    async () => {
      found = (await withdrawals(t, who)).withdrawals.find((w) => w.id === id);
      return found !== undefined && statuses.includes(found.status);
    },
    `withdrawal ${id} ${statuses.join(' or ')}`,
  );
  return found!;
}

/** The entries of one ledger transaction by account kind (micro-SSL). */
export async function entriesOf(t: TestApp, externalRef: string): Promise<Record<string, bigint>> {
  const rows = await t.db.query<{ kind: string; amount: string; type: string }>(
    `SELECT a.kind, e.amount_micro::text AS amount, x.type FROM ledger_entries e
     JOIN ledger_transactions x ON x.id = e.transaction_id
     JOIN ledger_accounts a ON a.id = e.account_id
     WHERE x.external_ref = $1`,
    [externalRef],
  );
  return Object.fromEntries(rows.map((row) => [`${row.type}:${row.kind}`, BigInt(row.amount)]));
}
