import { Keypair, PublicKey } from '@solana/web3.js';
import {
  SOLANA_RESERVED_ADDRESSES,
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_ROUTES,
  type WithdrawResponse,
  withdrawalQuote,
} from '@scn/proto';
import { registerAccount } from '../support/accounts';
import { depositThroughChain } from '../support/chain-deposits';
import { ledgerViolations } from '../support/ledger';
import { insertServers } from '../support/market-fixtures';
import { buy, walletBalance } from '../support/subscriptions';
import {
  airdrop,
  settled,
  startWithdrawalStack,
  type WithdrawalStack,
  withdraw,
  withdrawals,
} from '../support/withdrawals';

/**
 * docs/product/input-rules.md#market-and-account-input: what a withdrawal may take (balance minus the 60-day frozen rewards,
 * at least the minimum, within the daily cap), where it may go (a wallet's public key on the
 * curve), and that it happens once (Idempotency-Key; concurrent requests never overspend).
 * Refusals move nothing. The clock is fixed: one UTC day for the cap.
 */
const SSL = 1_000_000n;
const now = new Date('2026-11-20T12:00:00.000Z');
let s: WithdrawalStack;

beforeAll(async () => {
  s = await startWithdrawalStack(
    {
      WITHDRAWAL_MIN_SSL: '10',
      WITHDRAWAL_DAILY_CAP_SSL: '1000',
      LAUNCH_PERIOD_ENDS: '2026-06-30',
    },
    { now: () => now },
  );
  await airdrop(s.connection, s.treasury.publicKey, 100);
});
afterAll(() => s?.stop());

async function operatorWith(ssl: number) {
  const operator = await registerAccount(s.t, { userType: 'node' });
  await depositThroughChain(s.t, s.funding, operator, ssl);
  return operator;
}

const anywhere = () => Keypair.generate().publicKey.toBase58();

async function refused(
  operator: { uuid: string; cookie: string },
  body: Record<string, unknown>,
  status: number,
  message: string,
) {
  const before = await walletBalance(s.t.db, operator.uuid, 'node_wallet');
  const response = await withdraw(s.t, operator, body).expect(status);
  expect(response.body).toMatchObject({ success: false, message });
  expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(before);
  return response;
}

describe('amounts', () => {
  it('should refuse what is frozen: the operator rewards of the last 60 days', async () => {
    const operator = await operatorWith(40);
    // A client buys a month on two of the operator's servers: 2 x 10 SSL of frozen reward.
    const servers = await insertServers(
      s.t.db,
      [{ ownerUuid: operator.uuid }, { ownerUuid: operator.uuid }],
      now,
    );
    const client = await registerAccount(s.t, { userType: 'client' });
    await depositThroughChain(s.t, s.funding, client, 20);
    await buy(s.t, client, servers).expect(200);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(60n * SSL);

    const response = await refused(
      operator,
      { amount: '40.000001', destinationAddress: anywhere() },
      402,
      WITHDRAWAL_MESSAGES.overAvailable('40.00'),
    );
    expect(response.body.availableMicro).toBe(String(40n * SSL));
    const ok = await withdraw(s.t, operator, { amount: '40', destinationAddress: anywhere() });
    expect(ok.status).toBe(201);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(20n * SSL);
    await settled(s.t, operator, (ok.body as WithdrawResponse).withdrawal.id);
    await refused(
      operator,
      { amount: '10', destinationAddress: anywhere() },
      402,
      WITHDRAWAL_MESSAGES.overAvailable('0.00'),
    );
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });

  it('should refuse less than the minimum', async () => {
    const operator = await operatorWith(30);
    await refused(
      operator,
      { amount: '9.999999', destinationAddress: anywhere() },
      422,
      WITHDRAWAL_MESSAGES.belowMinimum('10.00'),
    );
    for (const amount of ['0', '-5', '1.0000001', 'ten', '1e3'])
      await refused(
        operator,
        { amount, destinationAddress: anywhere() },
        400,
        WITHDRAWAL_MESSAGES.invalidAmount,
      );
  });

  it('should read the amount by its one grammar: a decimal string or a plain JSON number', async () => {
    const operator = await operatorWith(100);
    // docs/withdrawals.md#the-amount: no whitespace, sign, exponent or bare point in a string; a
    // number must be what a double holds exactly and say no more than 6 decimals.
    const loose: unknown[] = [
      ' 10',
      '10 ',
      '\t10',
      '10\n',
      '+10',
      '1e1',
      '10.',
      '.5',
      '1,5',
      '0x10',
      '\u0661\u0660',
      '',
      10.0000001,
      1e-7,
      -10,
      0,
      true,
      null,
      [10],
      { amount: 10 },
    ];
    for (const amount of loose)
      await refused(
        operator,
        { amount, destinationAddress: anywhere() },
        400,
        WITHDRAWAL_MESSAGES.invalidAmount,
      );
    // As a client writes it: 17 significant digits, more than the double it parses to holds.
    const inexact = await s.t
      .http()
      .post(WITHDRAWAL_ROUTES.withdraw(operator.uuid))
      .set('Cookie', operator.cookie)
      .set('Content-Type', 'application/json')
      .send(`{"amount":123456789012.12345,"destinationAddress":"${anywhere()}"}`)
      .expect(400);
    expect(inexact.body.message).toBe(WITHDRAWAL_MESSAGES.invalidAmount);
    const accepted: Array<[unknown, string]> = [
      ['10', '10000000'],
      ['010.5', '10500000'],
      [10, '10000000'],
      [10.25, '10250000'],
    ];
    for (const [amount, micro] of accepted) {
      const response = await withdraw(s.t, operator, { amount, destinationAddress: anywhere() });
      expect(response.status).toBe(201);
      expect((response.body as WithdrawResponse).withdrawal.amountMicro).toBe(micro);
      await settled(s.t, operator, (response.body as WithdrawResponse).withdrawal.id);
    }
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(59_250_000n);
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });

  it('should document that grammar in the OpenAPI document', async () => {
    const document = await s.t.http().get('/api/docs-json').expect(200);
    const { amount } = document.body.components.schemas.WithdrawDto.properties;
    expect(amount.anyOf).toEqual([
      expect.objectContaining({ type: 'string', pattern: '^\\d{1,12}(\\.\\d{1,6})?$' }),
      expect.objectContaining({ type: 'number' }),
    ]);
  });

  it("should refuse what would take the day's withdrawals past the cap", async () => {
    const operator = await operatorWith(1200);
    const first = await withdraw(s.t, operator, { amount: '600', destinationAddress: anywhere() });
    expect(first.status).toBe(201);
    const response = await refused(
      operator,
      { amount: '400.01', destinationAddress: anywhere() },
      422,
      WITHDRAWAL_MESSAGES.dailyCap('1000.00', '400.00'),
    );
    expect(response.body).toMatchObject({
      dailyCapMicro: String(1000n * SSL),
      leftTodayMicro: String(400n * SSL),
    });
    const last = await withdraw(s.t, operator, { amount: '400', destinationAddress: anywhere() });
    expect(last.status).toBe(201);
    await refused(
      operator,
      { amount: '10', destinationAddress: anywhere() },
      422,
      WITHDRAWAL_MESSAGES.dailyCap('1000.00', '0.00'),
    );
    for (const done of [first, last])
      expect((await settled(s.t, operator, done.body.withdrawal.id)).status).toBe('confirmed');
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(200n * SSL);
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });
});

describe('destinations', () => {
  it('should refuse what is not an address with 400', async () => {
    const operator = await operatorWith(30);
    const cases: Array<[unknown, string]> = [
      ['abc', WITHDRAWAL_MESSAGES.invalidAddress],
      ['0OIl' + anywhere().slice(4), WITHDRAWAL_MESSAGES.invalidAddress],
      ['z'.repeat(44), WITHDRAWAL_MESSAGES.invalidAddress],
      ['', WITHDRAWAL_MESSAGES.addressRequired],
      [undefined, WITHDRAWAL_MESSAGES.addressRequired],
    ];
    for (const [destinationAddress, message] of cases)
      await refused(operator, { amount: '10', destinationAddress }, 400, message);
    expect((await withdrawals(s.t, operator)).withdrawals).toEqual([]);
  });

  it("should refuse, with 422 and before taking anything, Solana's own addresses and the treasury", async () => {
    const operator = await operatorWith(30);
    const [pda] = PublicKey.findProgramAddressSync(
      [Buffer.from('withdrawals')],
      new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
    );
    const reserved = (address: string): [string, string] => [
      address,
      WITHDRAWAL_MESSAGES.reservedAddress(SOLANA_RESERVED_ADDRESSES[address]!),
    ];
    const cases: Array<[string, string]> = [
      // On the curve: only the list tells these from a wallet.
      reserved('11111111111111111111111111111111'),
      reserved('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'),
      reserved('SysvarRent111111111111111111111111111111111'),
      // Off the curve, but named for what they are.
      reserved('Vote111111111111111111111111111111111111111'),
      reserved('1nc1nerator11111111111111111111111111111111'),
      [pda.toBase58(), WITHDRAWAL_MESSAGES.offCurve],
      [s.treasury.publicKey.toBase58(), WITHDRAWAL_MESSAGES.treasuryAddress],
    ];
    for (const [destinationAddress, message] of cases)
      await refused(operator, { amount: '10', destinationAddress }, 422, message);
    expect((await withdrawals(s.t, operator)).withdrawals).toEqual([]);
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });
});

describe('once', () => {
  it('should answer a replay of its Idempotency-Key with the same withdrawal and take once', async () => {
    const operator = await operatorWith(100);
    const body = { amount: '30', destinationAddress: anywhere() };
    const first = await withdraw(s.t, operator, body, 'withdraw-1').expect(201);
    const again = await withdraw(s.t, operator, body, 'withdraw-1').expect(201);
    expect(again.body.withdrawal.id).toBe(first.body.withdrawal.id);
    expect(again.body.message).toBe(first.body.message);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(70n * SSL);
    const reused = await withdraw(s.t, operator, { ...body, amount: '31' }, 'withdraw-1').expect(
      422,
    );
    expect(reused.body.message).toBe(
      'This Idempotency-Key was already used for a different request',
    );
    // 50 replays at once: still one.
    const replays = await Promise.all(
      Array.from({ length: 50 }, () => withdraw(s.t, operator, body, 'withdraw-2')),
    );
    expect(new Set(replays.map((r) => `${r.status}:${r.body.withdrawal?.id}`)).size).toBe(1);
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(40n * SSL);
    const list = await withdrawals(s.t, operator);
    expect(list.withdrawals).toHaveLength(2);
    for (const w of list.withdrawals) await settled(s.t, operator, w.id);
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });

  it('should never let concurrent withdrawals take more than is available', async () => {
    const operator = await operatorWith(300);
    const destination = anywhere();
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        withdraw(s.t, operator, { amount: '50', destinationAddress: destination }),
      ),
    );
    const ok = responses.filter((r) => r.status === 201);
    expect(ok).toHaveLength(6);
    for (const r of responses.filter((candidate) => candidate.status !== 201)) {
      expect(r.status).toBe(402);
      expect(r.body.message).toMatch(/^You can withdraw at most (0|50|100|150|200|250)\.00 SSL/);
    }
    expect(await walletBalance(s.t.db, operator.uuid, 'node_wallet')).toBe(0n);
    for (const r of ok)
      expect((await settled(s.t, operator, r.body.withdrawal.id)).status).toBe('confirmed');
    // Six payouts landed, each its own signature: the destination holds exactly six quotes.
    expect(BigInt(await s.connection.getBalance(new PublicKey(destination)))).toBe(
      6n * withdrawalQuote(50n * SSL, 5143).lamports,
    );
    expect(await ledgerViolations(s.t.db.url)).toEqual([]);
  });
});
