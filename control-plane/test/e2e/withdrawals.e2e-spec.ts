import { Keypair, PublicKey } from '@solana/web3.js';
import {
  WALLET_ROUTES,
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_ROUTES,
  type WithdrawResponse,
  withdrawalQuote,
} from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { depositThroughChain, startFundingChain } from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { platformRevenue, walletBalance } from '../support/subscriptions';
import { startTestApp } from '../support/test-app';
import {
  airdrop,
  drainTreasury,
  entriesOf,
  settled,
  startWithdrawalStack,
  type WithdrawalStack,
  withdraw,
  withdrawals,
} from '../support/withdrawals';

/**
 * Withdrawals end to end on the local chain: a withdrawal debits the node wallet (amount, its
 * 25% fee, the net), the worker signs the payout with the treasury key file, sends it and
 * confirms it; the destination receives exactly the quoted lamports. A payout the chain refuses
 * ends failed with one reversal. Off, the route answers "suspended".
 */
const SSL = 1_000_000n;
const RATE = 5143;
let s: WithdrawalStack;

beforeAll(async () => {
  s = await startWithdrawalStack({ WITHDRAWAL_MIN_SSL: '10', WITHDRAWAL_DAILY_CAP_SSL: '1000' });
  await airdrop(s.connection, s.treasury.publicKey, 100);
});
afterAll(() => s?.stop());

async function operatorWith(ssl: number) {
  const operator = await registerAccount(s.t, { userType: 'node' });
  await depositThroughChain(s.t, s.funding, operator, ssl);
  return operator;
}

describe('a withdrawal on the local chain', () => {
  it('should pay the destination exactly the quoted lamports and record amount, fee and net', async () => {
    const operator = await operatorWith(400);
    const destination = Keypair.generate().publicKey;
    const treasuryBefore = BigInt(await s.connection.getBalance(s.treasury.publicKey));
    const revenueBefore = await platformRevenue(s.t.db);

    const response = await withdraw(s.t, operator, {
      amount: '100',
      destinationAddress: destination.toBase58(),
    }).expect(201);
    const body = response.body as WithdrawResponse;
    const quote = withdrawalQuote(100n * SSL, RATE);
    expect(body.message).toBe(`Successfully withdrew 100 SSL to ${destination.toBase58()}`);
    expect(body.withdrawal).toMatchObject({
      amountMicro: String(100n * SSL),
      feeMicro: String(25n * SSL),
      netMicro: String(75n * SSL),
      sslPerSol: RATE,
      lamports: quote.lamports.toString(),
      destinationAddress: destination.toBase58(),
    });
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(300n * SSL);

    const done = await settled(s.t, operator, body.withdrawal.id);
    expect(done.status).toBe('confirmed');
    expect(done.signature).toMatch(/^[1-9A-HJ-NP-Za-km-z]{86,88}$/);
    expect(done.explorerUrl).toBe(
      `https://explorer.solana.com/tx/${done.signature}?cluster=custom&customUrl=${encodeURIComponent(s.funding.chain.url)}`,
    );
    expect(BigInt(await s.connection.getBalance(destination))).toBe(quote.lamports);
    expect(quote.lamports).toBe(14_582_928n);
    // The treasury paid the payout and its 5,000-lamport fee, nothing else.
    expect(BigInt(await s.connection.getBalance(s.treasury.publicKey))).toBe(
      treasuryBefore - quote.lamports - 5000n,
    );
    const transaction = await s.connection.getParsedTransaction(done.signature!, 'confirmed');
    expect(transaction?.meta?.err).toBeNull();
    expect(
      transaction?.transaction.message.accountKeys[0]?.pubkey.equals(s.treasury.publicKey),
    ).toBe(true);

    expect(await entriesOf(s.t, `payout:${done.id}`)).toEqual({
      'withdrawal:node_wallet': -100n * SSL,
      'withdrawal:platform_revenue': 25n * SSL,
      'withdrawal:external': 75n * SSL,
    });
    expect(await platformRevenue(s.t.db)).toBe(revenueBefore + 25n * SSL);
    const wallet = await s.t
      .http()
      .get(WALLET_ROUTES.nodeWallet(operator.uuid))
      .set('Cookie', operator.cookie)
      .expect(200);
    expect(wallet.body.data.transactions[0]).toMatchObject({
      type: 'withdrawal',
      amountMicro: String(-100n * SSL),
    });
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });

  it('should list the withdrawals with the settings and what is left of the day', async () => {
    const operator = await operatorWith(300);
    const first = await withdraw(s.t, operator, {
      amount: '12.5',
      destinationAddress: Keypair.generate().publicKey.toBase58(),
    }).expect(201);
    await settled(s.t, operator, (first.body as WithdrawResponse).withdrawal.id);
    const list = await withdrawals(s.t, operator);
    expect(list.settings).toEqual({
      enabled: true,
      minimumMicro: String(10n * SSL),
      dailyCapMicro: String(1000n * SSL),
      feePercent: 25,
      sslPerSol: RATE,
      cluster: 'localnet',
    });
    expect(list.usedTodayMicro).toBe(String(12_500_000n));
    expect(list.leftTodayMicro).toBe(String(1000n * SSL - 12_500_000n));
    expect(list.withdrawals.map((w) => w.status)).toEqual(['confirmed']);
    const settings = await s.t.http().get(WALLET_ROUTES.settings).set('Cookie', operator.cookie);
    expect(settings.body.settings.withdrawalsEnabled).toBe(true);
  });

  it('should answer only the owner, and only for a node account', async () => {
    const operator = await operatorWith(50);
    const other = await registerAccount(s.t, { userType: 'node' });
    const client = await registerAccount(s.t, { userType: 'client' });
    const body = { amount: '10', destinationAddress: Keypair.generate().publicKey.toBase58() };
    await s.t
      .http()
      .post(WITHDRAWAL_ROUTES.withdraw(operator.uuid))
      .set('Cookie', other.cookie)
      .send(body)
      .expect(403);
    await s.t
      .http()
      .get(WITHDRAWAL_ROUTES.list(operator.uuid))
      .set('Cookie', other.cookie)
      .expect(403);
    await withdraw(s.t, client, body).expect(403);
    await s.t.http().post(WITHDRAWAL_ROUTES.withdraw(operator.uuid)).send(body).expect(401);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(50n * SSL);
  });

  it('should end a payout the chain refuses (treasury without SOL) failed, reversed once', async () => {
    const operator = await operatorWith(200);
    const revenueBefore = await platformRevenue(s.t.db);
    await drainTreasury(s.connection, s.treasury);
    const destination = Keypair.generate().publicKey;
    const response = await withdraw(s.t, operator, {
      amount: '150',
      destinationAddress: destination.toBase58(),
    }).expect(201);
    const id = (response.body as WithdrawResponse).withdrawal.id;
    const done = await settled(s.t, operator, id);
    expect(done.status).toBe('failed');
    expect(done.failureReason).toMatch(/^The payout was refused by the chain: /);
    expect(await s.connection.getBalance(destination)).toBe(0);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(200n * SSL);
    expect(await platformRevenue(s.t.db)).toBe(revenueBefore);
    expect(await entriesOf(s.t, `payout-reversal:${id}`)).toEqual({
      'withdrawal_reversal:node_wallet': 150n * SSL,
      'withdrawal_reversal:platform_revenue': -37_500_000n,
      'withdrawal_reversal:external': -112_500_000n,
    });
    // A failed withdrawal does not count towards the day's cap.
    expect((await withdrawals(s.t, operator)).usedTodayMicro).toBe('0');

    // More runs of the worker change nothing: one reversal, the wallet restored once.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const reversals = await s.t.db.query(
      `SELECT 1 FROM ledger_transactions WHERE type = 'withdrawal_reversal' AND external_ref = $1`,
      [`payout-reversal:${id}`],
    );
    expect(reversals).toHaveLength(1);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(200n * SSL);

    // With SOL again, the operator can withdraw the same SSL.
    await airdrop(s.connection, s.treasury.publicKey, 100);
    const again = await withdraw(s.t, operator, {
      amount: '150',
      destinationAddress: destination.toBase58(),
    }).expect(201);
    expect((await settled(s.t, operator, again.body.withdrawal.id)).status).toBe('confirmed');
    expect(BigInt(await s.connection.getBalance(destination))).toBe(
      withdrawalQuote(150n * SSL, RATE).lamports,
    );
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });
});

describe('withdrawals off (the default)', () => {
  it('should answer "Withdrawals are suspended" whatever the body, and say so in the settings', async () => {
    const funding = await startFundingChain();
    const t = await startTestApp(funding.env);
    try {
      const operator = await registerAccount(t, { userType: 'node' });
      await depositThroughChain(t, funding, operator, 50);
      for (const body of [
        {
          amount: '20',
          destinationAddress: new PublicKey(Keypair.generate().publicKey).toBase58(),
        },
        { amount: 'x' },
        {},
      ]) {
        const response = await withdraw(t, operator, body).expect(403);
        expect(response.body).toEqual({
          success: false,
          message: WITHDRAWAL_MESSAGES.suspended,
          code: 'withdrawals.withdrawals_suspended',
        });
      }
      const list = await withdrawals(t, operator);
      expect(list.settings).toMatchObject({ enabled: false, sslPerSol: null });
      expect(list.withdrawals).toEqual([]);
      const settings = await t.http().get(WALLET_ROUTES.settings).set('Cookie', operator.cookie);
      expect(settings.body.settings.withdrawalsEnabled).toBe(false);
      expect(await walletBalance(t.db, operator.uuid, 'node_wallet')).toBe(50n * SSL);
      expect(await ledgerViolations(t.db.url)).toEqual([]);
    } finally {
      await t.close();
      await funding.stop();
    }
  });
});
