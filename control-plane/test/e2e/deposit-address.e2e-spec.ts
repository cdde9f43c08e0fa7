import {
  DEPOSIT_ROUTES,
  type DepositAddressResponse,
  depositAddressResponseSchema,
} from '@scn/proto';
import { Keypair } from '@solana/web3.js';
import { depositAddress } from '../../src/deposits/deposit-address-derivation';
import { registerAccount } from '../support/accounts';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * docs/deposits.md#per-account-addresses over HTTP on the built control plane: each account's
 * own address, created once, re-derivable from the seed and the stored index; owner-scoped.
 * No chain is read by this route: the RPC is a closed loopback port.
 */
const SEED = 'a7'.repeat(32);
const USDC = Keypair.generate().publicKey.toBase58();
const solana = {
  SOLANA_RPC_URL: 'http://127.0.0.1:1',
  SOLANA_DEPOSIT_ADDRESS: Keypair.generate().publicKey.toBase58(),
  SOLANA_CLUSTER: 'localnet',
};
let t: TestApp;

beforeAll(async () => {
  t = await startTestApp({ ...solana, SOLANA_DEPOSIT_SEED: SEED, SOLANA_USDC_MINT: USDC });
}, 60_000);
afterAll(() => t.close());

async function addressOf(cookie: string, wallet?: string): Promise<DepositAddressResponse> {
  const request = t.http().get(DEPOSIT_ROUTES.depositAddress).set('Cookie', cookie);
  const response = await (wallet ? request.query({ wallet }) : request).expect(200);
  return depositAddressResponseSchema.parse(response.body);
}

async function storedIndex(uuid: string): Promise<number[]> {
  const rows = await t.db.query<{ derivation_index: number }>(
    `SELECT derivation_index FROM deposit_addresses WHERE owner_uuid = $1`,
    [uuid],
  );
  return rows.map((row) => row.derivation_index);
}

describe('GET /api/solana/deposit-address', () => {
  it('should answer the same address on every call, re-derivable from the seed and the stored index', async () => {
    const client = await registerAccount(t);
    const first = await addressOf(client.cookie);
    expect(first.wallet).toBe('client');
    expect((await addressOf(client.cookie)).address).toBe(first.address);
    expect((await addressOf(client.cookie, 'client')).address).toBe(first.address);
    const [index] = await storedIndex(client.uuid);
    expect(depositAddress(Buffer.from(SEED, 'hex'), index!)).toBe(first.address);
    expect(first.address).not.toBe(solana.SOLANA_DEPOSIT_ADDRESS);
    expect(first.address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
  });

  it('should list SOL at the rate and USDC at $1 = 28.571428 SSL, with minimums; no USDT without its mint', async () => {
    const client = await registerAccount(t);
    const { currencies } = await addressOf(client.cookie);
    expect(currencies).toEqual([
      {
        code: 'SOL',
        mint: null,
        decimals: 9,
        sslPerUnitMicro: '5143000000',
        minimumBaseUnits: '10000000',
        minimum: '0.01',
      },
      {
        code: 'USDC',
        mint: USDC,
        decimals: 6,
        sslPerUnitMicro: '28571428',
        minimumBaseUnits: '1000000',
        minimum: '1',
      },
    ]);
  });

  it("should give different accounts different addresses, a node account its node wallet's", async () => {
    const [a, b, node] = [
      await registerAccount(t),
      await registerAccount(t),
      await registerAccount(t, { userType: 'node' }),
    ];
    const answers = [
      await addressOf(a.cookie),
      await addressOf(b.cookie),
      await addressOf(node.cookie, 'node'),
    ];
    expect(answers[2]!.wallet).toBe('node');
    expect((await addressOf(node.cookie)).address).toBe(answers[2]!.address);
    expect(new Set(answers.map((x) => x.address)).size).toBe(3);
    // Each session sees its own only: every answer is the row stored for that session's account.
    const owners = await t.db.query<{ owner_uuid: string; address: string }>(
      `SELECT owner_uuid, address FROM deposit_addresses WHERE address = ANY($1)`,
      [answers.map((x) => x.address)],
    );
    const ownerOf = new Map(owners.map((row) => [row.address, row.owner_uuid]));
    expect(answers.map((x) => ownerOf.get(x.address))).toEqual([a.uuid, b.uuid, node.uuid]);
  });

  it('should create one address when 20 first calls race', async () => {
    const client = await registerAccount(t);
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        t.http().get(DEPOSIT_ROUTES.depositAddress).set('Cookie', client.cookie),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((r) => (r.body as DepositAddressResponse).address)).size).toBe(1);
    expect(await storedIndex(client.uuid)).toHaveLength(1);
  });

  it("should refuse the other account type's wallet with 403 deposits.wrong_wallet_type", async () => {
    const client = await registerAccount(t);
    const node = await registerAccount(t, { userType: 'node' });
    for (const [who, wallet] of [
      [client, 'node'],
      [node, 'client'],
    ] as const) {
      const response = await t
        .http()
        .get(DEPOSIT_ROUTES.depositAddress)
        .query({ wallet })
        .set('Cookie', who.cookie)
        .expect(403);
      expect(response.body).toMatchObject({ code: 'deposits.wrong_wallet_type' });
      expect(await storedIndex(who.uuid)).toEqual([]);
    }
  });

  it('should answer 400 for an unknown wallet and 401 without a session', async () => {
    const client = await registerAccount(t);
    await t
      .http()
      .get(DEPOSIT_ROUTES.depositAddress)
      .query({ wallet: 'treasury' })
      .set('Cookie', client.cookie)
      .expect(400);
    const anonymous = await t.http().get(DEPOSIT_ROUTES.depositAddress).expect(401);
    expect(JSON.stringify(anonymous.body)).not.toMatch(/[1-9A-HJ-NP-Za-km-z]{43,44}/);
  });
});

describe('GET /api/solana/deposit-address without SOLANA_DEPOSIT_SEED', () => {
  let off: TestApp;
  beforeAll(async () => {
    off = await startTestApp(solana);
  }, 60_000);
  afterAll(() => off.close());

  it('should answer 409 deposits.addresses_off (never a 5xx) and store nothing', async () => {
    const client = await registerAccount(off);
    const response = await off
      .http()
      .get(DEPOSIT_ROUTES.depositAddress)
      .set('Cookie', client.cookie)
      .expect(409);
    expect(response.body).toMatchObject({ code: 'deposits.addresses_off' });
    expect(await off.db.query(`SELECT 1 FROM deposit_addresses`)).toEqual([]);
  });
});
