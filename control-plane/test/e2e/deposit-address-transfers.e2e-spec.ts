import { DEPOSIT_ROUTES, type WalletData } from '@scn/proto';
import {
  type Devchain,
  MINT_SIZE,
  startDevchain,
  TOKEN_ACCOUNT_SIZE,
  token2022DepositInstructions,
} from '@scn/devchain';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { DepositAddressWatcherJob } from '../../src/deposits/deposit-address-watcher.job';
import { registerAccount } from '../support/accounts';
import {
  addressOf,
  fundedKeypair,
  payFromDemoWallet,
  reach,
  sendMany,
  transfersOf,
  waitForTransfer,
  type Who,
} from '../support/address-deposits';
import { ledgerViolations } from '../support/ledger';
import { startStallingProxy, type StallingProxy } from '../support/stalling-proxy';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Per-account deposit addresses on the built control plane and the real local chain: transfers to per-account
 * addresses with no reference, from anyone, seen by the block watcher and credited once when
 * finalized (32 slots of 50 ms). The control plane reads the chain through a relay the tests can
 * stall. USDC is accepted; USDT is not on this server (an unknown mint to it).
 */
const SEED = 'c4'.repeat(32);
const treasury = Keypair.generate().publicKey.toBase58();
let chain: Devchain;
let proxy: StallingProxy;
let connection: Connection;
let env: Record<string, string>;
let t: TestApp;

beforeAll(async () => {
  chain = await startDevchain({ slotMs: 50 });
  proxy = await startStallingProxy(chain.url);
  connection = new Connection(chain.url, 'confirmed');
  env = {
    SOLANA_RPC_URL: proxy.url,
    SOLANA_DEPOSIT_ADDRESS: treasury,
    SOLANA_CLUSTER: 'localnet',
    SOLANA_COMMITMENT: 'finalized',
    SOLANA_DEMO_WALLET_URL: chain.demoWalletUrl,
    SOLANA_DEPOSIT_SEED: SEED,
    SOLANA_USDC_MINT: chain.testMints.USDC,
  };
  t = await startTestApp(env);
}, 60_000);
afterAll(async () => {
  await t.close();
  await proxy.close();
  await chain.stop();
});

async function account(userType: 'client' | 'node' = 'client'): Promise<Who & { address: string }> {
  const registered = await registerAccount(t, { userType });
  const who = { uuid: registered.uuid, cookie: registered.cookie, userType };
  return { ...who, address: (await addressOf(t, who)).address };
}

async function balance(who: Who): Promise<string> {
  const response = await t
    .http()
    .get(`/wallet/${who.userType}/${who.uuid}`)
    .set('Cookie', who.cookie)
    .expect(200);
  return (response.body as { data: WalletData }).data.balanceMicro;
}

const credited = (x: { status: string }) => x.status === 'credited';

describe('a deposit address takes SOL and USDC from anyone, with no reference', () => {
  it('should credit SOL within seconds of finalization, announcing it seen then credited', async () => {
    const alice = await account();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    const socket = io(`http://127.0.0.1:${port}`, {
      transports: ['websocket'],
      reconnection: false,
      extraHeaders: { Cookie: alice.cookie },
    });
    const heard: string[] = [];
    socket.on('wallet-updated', (event: { reason: string }) => heard.push(event.reason));
    await new Promise((resolve) => socket.once('connect', () => resolve(null)));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const signature = await payFromDemoWallet(chain.demoWalletUrl, alice.address, '0.5');
    const seen = await waitForTransfer(t, alice, signature, () => true);
    expect(seen).toMatchObject({ currency: 'SOL', amount: '0.5', baseUnits: '500000000' });
    await reach(connection, signature, 'finalized');
    const finalizedAt = Date.now();
    const done = await waitForTransfer(t, alice, signature, credited);
    console.log(`deposit address: SOL credited ${Date.now() - finalizedAt} ms after finalization`);
    // 0.5 SOL at 5,143 SSL per SOL, rounded down to micro-SSL.
    expect(done).toMatchObject({ sslPerUnitMicro: '5143000000', creditMicro: '2571500000' });
    expect(await balance(alice)).toBe('2571500000');
    for (const end = Date.now() + 2000; !heard.includes('deposit') && Date.now() < end;)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(heard).toEqual(['deposit_seen', 'deposit']);
    socket.close();
  }, 30_000);

  it('should credit USDC at $1 = 28.571428 SSL into an operator node wallet', async () => {
    const operator = await account('node');
    const signature = await payFromDemoWallet(
      chain.demoWalletUrl,
      operator.address,
      '2.5',
      chain.testMints.USDC,
    );
    const done = await waitForTransfer(t, operator, signature, credited);
    // floor(2,500,000 x 10^6 x 1000 / (35 x 10^6)) micro-SSL.
    expect(done).toMatchObject({
      currency: 'USDC',
      mint: chain.testMints.USDC,
      amount: '2.5',
      creditMicro: '71428571',
      sslPerUnitMicro: '28571428',
    });
    expect(await balance(operator)).toBe('71428571');
  }, 30_000);

  it('should hold transfers below the minimum as pending, and credit them all once their total reaches it', async () => {
    const bob = await account();
    const first = await payFromDemoWallet(chain.demoWalletUrl, bob.address, '0.004');
    // Another amount: the same transfer in the same slot would be the same transaction.
    const second = await payFromDemoWallet(chain.demoWalletUrl, bob.address, '0.003');
    for (const signature of [first, second])
      await waitForTransfer(t, bob, signature, (x) => x.status === 'pending_minimum');
    const waiting = await transfersOf(t, bob);
    expect(waiting.pending).toEqual([
      {
        currency: 'SOL',
        baseUnits: '7000000',
        amount: '0.007',
        minimumBaseUnits: '10000000',
        minimum: '0.01',
      },
    ]);
    expect(await balance(bob)).toBe('0');
    const third = await payFromDemoWallet(chain.demoWalletUrl, bob.address, '0.004');
    await waitForTransfer(t, bob, third, credited);
    const after = await transfersOf(t, bob);
    expect(after.transfers.map((x) => [x.status, x.creditMicro])).toEqual([
      ['credited', '20572000'],
      ['credited', '15429000'],
      ['credited', '20572000'],
    ]);
    expect(after.pending).toEqual([]);
    expect(await balance(bob)).toBe('56573000');
  }, 40_000);

  it('should refuse a mint this server does not accept, showing it refused and crediting nothing', async () => {
    const carol = await account();
    const signature = await payFromDemoWallet(
      chain.demoWalletUrl,
      carol.address,
      '5',
      chain.testMints.USDT,
    );
    const refused = await waitForTransfer(t, carol, signature, () => true);
    expect(refused).toMatchObject({
      status: 'refused',
      refusedReason: 'unknown_mint',
      currency: null,
      amount: '5',
      mint: chain.testMints.USDT,
      creditMicro: null,
    });
    await reach(connection, signature, 'finalized');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect((await waitForTransfer(t, carol, signature, () => true)).status).toBe('refused');
    expect(await balance(carol)).toBe('0');
  }, 30_000);
  it('should refuse a Token-2022 token, showing it refused and crediting nothing', async () => {
    const ivan = await account();
    const payer = await fundedKeypair(connection, 1);
    const mint = Keypair.generate();
    const holding = Keypair.generate();
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight });
    tx.add(
      ...token2022DepositInstructions({
        payer: payer.publicKey,
        mint: mint.publicKey,
        account: holding.publicKey,
        owner: new PublicKey(ivan.address),
        amount: 9_000_000n,
        mintRent: BigInt(await connection.getMinimumBalanceForRentExemption(MINT_SIZE)),
        accountRent: BigInt(await connection.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE)),
      }),
    );
    tx.sign(payer, mint, holding);
    const signature = await connection.sendRawTransaction(tx.serialize());
    const refused = await waitForTransfer(t, ivan, signature, () => true);
    expect(refused).toMatchObject({
      status: 'refused',
      refusedReason: 'token_2022',
      mint: mint.publicKey.toBase58(),
      baseUnits: '9000000',
      creditMicro: null,
    });
    await reach(connection, signature, 'finalized');
    const verified = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', ivan.cookie)
      .send({ signature });
    expect(verified.status).toBe(200);
    expect(verified.body).toMatchObject({ transfers: [{ status: 'refused' }] });
    expect(await balance(ivan)).toBe('0');
  }, 30_000);
});

describe('verify by signature', () => {
  it('should credit one transfer once when 20 verifies race the watcher', async () => {
    const dave = await account();
    const signature = await payFromDemoWallet(chain.demoWalletUrl, dave.address, '0.02');
    await reach(connection, signature, 'finalized');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t
          .http()
          .post(DEPOSIT_ROUTES.depositAddressVerify)
          .set('Cookie', dave.cookie)
          .send({ signature }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    await waitForTransfer(t, dave, signature, credited);
    expect(await balance(dave)).toBe('102860000');
    const rows = await t.db.query<{ n: string }>(
      `SELECT count(*) AS n FROM ledger_transactions WHERE external_ref LIKE $1`,
      [`addr:${signature}:%`],
    );
    expect(rows[0]!.n).toBe('1');
  }, 30_000);

  it("should credit a transfer to another account's address to that account only", async () => {
    const erin = await account();
    const frank = await account();
    const signature = await payFromDemoWallet(chain.demoWalletUrl, erin.address, '0.03');
    await reach(connection, signature, 'finalized');
    const answer = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', frank.cookie)
      .send({ signature });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ code: 'deposits.wrong_recipient' });
    await waitForTransfer(t, erin, signature, credited);
    expect(await balance(erin)).toBe('154290000');
    expect(await balance(frank)).toBe('0');
    expect((await transfersOf(t, frank)).transfers).toEqual([]);
  }, 30_000);

  it('should refuse a failed transaction and an unknown signature, never with a 5xx', async () => {
    const gina = await account();
    const poor = await fundedKeypair(connection, 0.01);
    const signature = await sendMany(connection, poor, [
      { to: gina.address, lamports: 1_000_000_000n },
    ]);
    await reach(connection, signature, 'finalized');
    const failed = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', gina.cookie)
      .send({ signature });
    expect(failed.status).toBe(422);
    expect(failed.body).toMatchObject({ code: 'deposits.failed_transaction' });
    const unknown = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', gina.cookie)
      .send({ signature: signature.slice(0, -4) + '1111' });
    expect(unknown.status).toBe(404);
    const malformed = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', gina.cookie)
      .send({ signature: 'not a signature' });
    expect(malformed.status).toBe(400);
    expect((await transfersOf(t, gina)).transfers).toEqual([]);
    expect(await balance(gina)).toBe('0');
  }, 30_000);
});

describe('faults', () => {
  it('should credit once across two replicas and a watcher stopped and started in between', async () => {
    const replica = await startTestApp({ ...env, DATABASE_URL: t.db.url });
    const watcher = t.app.get(DepositAddressWatcherJob);
    try {
      const people = await Promise.all([account(), account(), account(), account()]);
      const signatures = [];
      for (const who of people)
        signatures.push(await payFromDemoWallet(chain.demoWalletUrl, who.address, '0.01'));
      // This replica's watcher stops while the transfers finalize, then starts again.
      watcher.onApplicationShutdown();
      await reach(connection, signatures[signatures.length - 1]!, 'finalized');
      await new Promise((resolve) => setTimeout(resolve, 300));
      watcher.onApplicationBootstrap();
      for (const [i, who] of people.entries())
        await waitForTransfer(t, who, signatures[i]!, credited);
      for (const who of people) expect(await balance(who)).toBe('51430000');
    } finally {
      await replica.close();
    }
  }, 40_000);

  it('should credit a transfer made while the RPC stalled for 30 s, once, and keep answering', async () => {
    const hana = await account();
    proxy.stall();
    const stalledAt = Date.now();
    const signature = await payFromDemoWallet(chain.demoWalletUrl, hana.address, '0.05');
    await reach(connection, signature, 'finalized');
    // The history reads the database only: it answers while the chain does not.
    expect((await transfersOf(t, hana)).transfers).toEqual([]);
    const verify = await t
      .http()
      .post(DEPOSIT_ROUTES.depositAddressVerify)
      .set('Cookie', hana.cookie)
      .send({ signature });
    expect(verify.status).toBe(503);
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, 30_000 - (Date.now() - stalledAt))),
    );
    proxy.resume();
    await waitForTransfer(t, hana, signature, credited, 30_000);
    expect(await balance(hana)).toBe('257150000');
  }, 90_000);

  it('should record dust spam to many addresses without a credit or an error', async () => {
    const targets = await Promise.all(Array.from({ length: 15 }, () => account()));
    const spammer = await fundedKeypair(connection, 1);
    const signature = await sendMany(
      connection,
      spammer,
      targets.map((who) => ({ to: who.address, lamports: 1_000_000n })),
    );
    await reach(connection, signature, 'finalized');
    for (const who of targets) {
      const dust = await waitForTransfer(t, who, signature, (x) => x.status === 'pending_minimum');
      expect(dust).toMatchObject({ amount: '0.001', creditMicro: null });
      expect(await balance(who)).toBe('0');
    }
  }, 40_000);
});

describe('the books', () => {
  it('should keep the ledger balanced and every address holding what was recorded for it', async () => {
    expect(await ledgerViolations(t.db.url)).toEqual([]);
    const rows = await t.db.query<{ address: string; lamports: string; credited: string }>(
      `SELECT a.address,
              COALESCE(sum(d.base_units) FILTER (WHERE d.asset = 'SOL' AND d.status IN ('credited', 'pending_minimum')), 0)::text AS lamports,
              COALESCE(sum(d.credit_micro), 0)::text AS credited
         FROM deposit_addresses a LEFT JOIN deposit_transfers d ON d.address = a.address
        GROUP BY a.address`,
    );
    let creditedTotal = 0n;
    for (const row of rows) {
      expect([row.address, await connection.getBalance(new PublicKey(row.address))]).toEqual([
        row.address,
        Number(row.lamports),
      ]);
      creditedTotal += BigInt(row.credited);
    }
    const ledger = await t.db.query<{ total: string }>(
      `SELECT COALESCE(sum(e.amount_micro), 0)::text AS total FROM ledger_entries e
         JOIN ledger_transactions x ON x.id = e.transaction_id
         JOIN ledger_accounts a ON a.id = e.account_id
        WHERE x.external_ref LIKE 'addr:%' AND a.kind <> 'external'`,
    );
    expect(ledger[0]!.total).toBe(creditedTotal.toString());
  });
});
