import {
  DEPOSIT_MESSAGES,
  DEPOSIT_ROUTES,
  type DepositRequest,
  type SolanaConfig,
  type WalletData,
} from '@scn/proto';
import { type Devchain, startDevchain } from '@scn/devchain';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionSignature,
} from '@solana/web3.js';
import type { AddressInfo } from 'node:net';
import { io } from 'socket.io-client';
import { registerAccount } from '../support/accounts';
import { ledgerViolations } from '../support/ledger';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Deposits against the real local chain (@scn/devchain: litesvm behind a JSON-RPC
 * server) and the built control plane, over HTTP. Slots of 50 ms; finalized after 32 slots.
 */
const SLOT_MS = 50;
let offsetMs = 0;
const clock = { now: () => new Date(Date.now() + offsetMs) };
const treasury = Keypair.generate().publicKey.toBase58();
let chain: Devchain;
let connection: Connection;
let t: TestApp;

beforeAll(async () => {
  chain = await startDevchain({ slotMs: SLOT_MS });
  connection = new Connection(chain.url, 'confirmed');
  t = await startTestApp(
    {
      SOLANA_RPC_URL: chain.url,
      SOLANA_DEPOSIT_ADDRESS: treasury,
      SOLANA_CLUSTER: 'localnet',
      SOLANA_COMMITMENT: 'finalized',
      SOLANA_DEMO_WALLET_URL: chain.demoWalletUrl,
    },
    { clock },
  );
}, 60_000);
afterAll(async () => {
  await t.close();
  await chain.stop();
});
afterEach(() => {
  offsetMs = 0;
});

interface Account {
  uuid: string;
  cookie: string;
  token: string;
  userType: 'client' | 'node';
}

async function account(userType: 'client' | 'node' = 'client'): Promise<Account> {
  const registered = await registerAccount(t, { userType });
  return { uuid: registered.uuid, cookie: registered.cookie, token: registered.token, userType };
}

async function depositRequest(
  who: Account,
  solAmount: string,
  userAddress: string,
): Promise<DepositRequest> {
  const response = await t
    .http()
    .post(DEPOSIT_ROUTES.requests)
    .set('Cookie', who.cookie)
    .send({ solAmount, userAddress })
    .expect(201);
  return (response.body as { request: DepositRequest }).request;
}

function verify(who: Account, body: Record<string, unknown>) {
  return t
    .http()
    .post(DEPOSIT_ROUTES.verify)
    .set('Cookie', who.cookie)
    .send({ userId: who.uuid, ...body });
}

async function wallet(who: Account): Promise<WalletData> {
  const response = await t
    .http()
    .get(`/wallet/${who.userType}/${who.uuid}`)
    .set('Cookie', who.cookie)
    .expect(200);
  return (response.body as { data: WalletData }).data;
}

async function fundedKeypair(sol: number): Promise<Keypair> {
  const keypair = Keypair.generate();
  const signature = await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
  await reach(signature, 'confirmed');
  return keypair;
}

/** Sends a System Program transfer carrying `references`, without preflight (it may fail). */
async function send(
  from: Keypair,
  to: string,
  lamports: bigint,
  references: string[] = [],
): Promise<TransactionSignature> {
  const instruction = SystemProgram.transfer({
    fromPubkey: from.publicKey,
    toPubkey: new PublicKey(to),
    lamports,
  });
  for (const reference of references) {
    instruction.keys.push({ pubkey: new PublicKey(reference), isSigner: false, isWritable: false });
  }
  // A fresh blockhash each time: web3.js caches one for 30 s, longer than 150 slots of 50 ms.
  const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
  const tx = new Transaction({ feePayer: from.publicKey, blockhash, lastValidBlockHeight });
  tx.add(instruction).sign(from);
  return connection.sendRawTransaction(tx.serialize(), { skipPreflight: true });
}

/** Waits until the signature reaches `level`; answers when (ms since epoch). */
async function reach(
  signature: string,
  level: 'confirmed' | 'finalized',
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { value } = await connection.getSignatureStatuses([signature]);
    const status = value[0]?.confirmationStatus;
    if (status === level || status === 'finalized') return Date.now();
    if (Date.now() > deadline) throw new Error(`${signature} did not reach ${level}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function payWithDemoWallet(transferUrl: string): Promise<string> {
  const response = await fetch(`${chain.demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url: transferUrl }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { signature: string }).signature;
}

describe('deposits off (no SOLANA_RPC_URL or SOLANA_DEPOSIT_ADDRESS)', () => {
  it('should answer 503 "Failed to initialize payment system"', async () => {
    const off = await startTestApp();
    try {
      for (const path of [DEPOSIT_ROUTES.config, DEPOSIT_ROUTES.apiConfig]) {
        const response = await off.http().get(path).expect(503);
        expect(response.body).toMatchObject({ message: DEPOSIT_MESSAGES.initFailed });
      }
      const client = await registerAccount(off);
      const response = await off
        .http()
        .post(DEPOSIT_ROUTES.requests)
        .set('Cookie', client.cookie)
        .send({ solAmount: '1', userAddress: treasury })
        .expect(503);
      expect(response.body).toMatchObject({ message: DEPOSIT_MESSAGES.initFailed });
    } finally {
      await off.close();
    }
  }, 30_000);
});

describe('deposits on the local chain', () => {
  it('should answer the Solana config of the local cluster', async () => {
    const response = await t.http().get(DEPOSIT_ROUTES.config).expect(200);
    expect(response.body as SolanaConfig).toMatchObject({
      success: true,
      depositAddress: treasury,
      conversionRate: 5143,
      sslTokenPrice: 0.035,
      solPriceUsd: 180.005,
      cluster: 'localnet',
      rpcUrl: chain.url,
      quoteValidSeconds: 1800,
      demoWalletUrl: chain.demoWalletUrl,
    });
    await t.http().get(DEPOSIT_ROUTES.apiConfig).expect(200);
  });

  it('should let the watcher credit a demo-wallet deposit within 2 s of finalization', async () => {
    const alice = await account();
    const mallory = await account();
    await t.app.listen(0, '127.0.0.1');
    const { port } = t.app.getHttpServer().address() as AddressInfo;
    // Alice's socket presents her session cookie; Mallory's her bearer token; one has none.
    const listen = (options: { cookie?: string; token?: string }) => {
      const socket = io(`http://127.0.0.1:${port}`, {
        transports: ['websocket'],
        reconnection: false,
        ...(options.cookie ? { extraHeaders: { Cookie: options.cookie } } : {}),
        ...(options.token ? { auth: { token: options.token } } : {}),
      });
      const heard: Array<{ reason: string }> = [];
      socket.on('wallet-updated', (event: { reason: string }) => heard.push(event));
      return { socket, heard };
    };
    const mine = listen({ cookie: alice.cookie });
    const theirs = listen({ token: mallory.token });
    const anonymous = listen({});
    const socket = mine.socket;
    const events = mine.heard;
    for (const { socket: each } of [mine, theirs, anonymous]) {
      await new Promise((resolve) => each.once('connect', () => resolve(null)));
    }
    // The room is joined once the session is checked, just after 'connect'.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const request = await depositRequest(alice, '1.5', treasury);
    expect(request).toMatchObject({
      status: 'open',
      lamports: '1500000000',
      walletType: 'client_wallet',
    });
    const signature = await payWithDemoWallet(request.transferUrl);
    const finalizedAt = await reach(signature, 'finalized');
    let data = await wallet(alice);
    while (data.balanceMicro === '0' && Date.now() - finalizedAt < 5000) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      data = await wallet(alice);
    }
    const lagMs = Date.now() - finalizedAt;
    console.log(`deposit watcher: credited ${lagMs} ms after the transfer was finalized`);
    expect(data.balanceMicro).toBe('7714000000');
    expect(lagMs).toBeLessThan(2000);
    expect(data.transactions[0]).toMatchObject({ type: 'deposit', signature });
    const after = await t
      .http()
      .get(DEPOSIT_ROUTES.request(request.id))
      .set('Cookie', alice.cookie)
      .expect(200);
    expect(after.body).toMatchObject({ request: { status: 'credited', signature } });
    // Verify afterwards: the same answer, nothing more credited.
    const again = await verify(alice, {
      userAddress: treasury,
      expectedAmount: '1.5',
      requestId: request.id,
    }).expect(200);
    expect(again.body).toMatchObject({
      verified: true,
      transaction: { signature, sslTokens: 7714 },
    });
    // The spec's form of the call (sender and amount, no requestId) answers the same, with or
    // without the signature (docs/deposits.md#the-reference-scheme).
    for (const extra of [{}, { signature }]) {
      const repeat = await verify(alice, {
        userAddress: treasury,
        expectedAmount: '1.5',
        ...extra,
      }).expect(200);
      expect(repeat.body).toEqual(again.body);
    }
    expect((await wallet(alice)).balanceMicro).toBe('7714000000');
    // The portal's wallet refreshes itself on this event (pg_notify, then socket.io).
    for (const end = Date.now() + 2000; events.length === 0 && Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(events).toEqual([expect.objectContaining({ reason: 'deposit' })]);
    // Only the owner's sockets hear it: not another account's, not an anonymous one.
    expect(theirs.heard).toEqual([]);
    expect(anonymous.heard).toEqual([]);
    for (const each of [socket, theirs.socket, anonymous.socket]) each.close();
  }, 20_000);

  it('should credit one transfer once when 20 verifies race, into a node wallet for an operator', async () => {
    const operator = await account('node');
    const request = await depositRequest(operator, '0.25', treasury);
    expect(request.walletType).toBe('node_wallet');
    const signature = await payWithDemoWallet(request.transferUrl);
    await reach(signature, 'finalized');
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        verify(operator, {
          userAddress: treasury,
          expectedAmount: '0.25',
          requestId: request.id,
          ...(i % 2 ? { signature } : {}),
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.transaction?.signature))).toEqual(
      new Set([signature]),
    );
    expect((await wallet(operator)).balanceMicro).toBe('1285000000');
    expect(
      await t.db.query(`SELECT 1 FROM deposit_credits WHERE signature = $1`, [signature]),
    ).toHaveLength(1);
    expect(await ledgerViolations(t.db.url)).toEqual([]);
  }, 20_000);

  describe('refusals: the spec messages, nothing credited', () => {
    let payer: Keypair;
    beforeAll(async () => {
      payer = await fundedKeypair(20);
    }, 20_000);

    async function refused(
      who: Account,
      requestId: string,
      signature: string,
      status: number,
      message: string,
      code: string,
    ) {
      const response = await verify(who, {
        userAddress: payer.publicKey.toBase58(),
        expectedAmount: '1',
        requestId,
        signature,
      });
      expect({ status: response.status, body: response.body }).toEqual({
        status,
        body: { verified: false, success: false, message, code },
      });
      expect((await wallet(who)).balanceMicro).toBe('0');
    }

    /**
     * A new account's request for 1 SSL, then `lamports` sent by `from` to `to` with the
     * request's reference and left at `level`: its verification is refused.
     */
    async function refusedTransfer(
      transfer: {
        from?: Keypair;
        to?: string;
        lamports?: bigint;
        level?: 'confirmed' | 'finalized';
      },
      status: number,
      message: string,
      code: string,
    ) {
      const {
        from = payer,
        to = treasury,
        lamports = 1_000_000_000n,
        level = 'finalized',
      } = transfer;
      const bob = await account();
      const request = await depositRequest(bob, '1', from.publicKey.toBase58());
      const signature = await send(from, to, lamports, [request.reference]);
      await reach(signature, level);
      await refused(bob, request.id, signature, status, message, code);
    }

    it('should refuse a transfer to another address', async () => {
      const other = Keypair.generate().publicKey.toBase58();
      await refusedTransfer(
        { to: other },
        422,
        DEPOSIT_MESSAGES.wrongRecipient,
        'deposits.wrong_recipient',
      );
    }, 20_000);

    it('should refuse a wrong amount', async () => {
      await refusedTransfer(
        { lamports: 999_999_999n },
        422,
        DEPOSIT_MESSAGES.wrongAmount,
        'deposits.wrong_amount',
      );
    }, 20_000);

    it('should refuse a failed transaction', async () => {
      const poor = await fundedKeypair(0.01);
      await refusedTransfer(
        { from: poor },
        422,
        DEPOSIT_MESSAGES.failedTransaction,
        'deposits.failed_transaction',
      );
    }, 20_000);

    it('should refuse an unconfirmed transaction (not yet finalized)', async () => {
      await refusedTransfer(
        { level: 'confirmed' },
        409,
        DEPOSIT_MESSAGES.notConfirmed,
        'deposits.not_confirmed',
      );
    }, 20_000);

    it('should refuse a transaction older than the request', async () => {
      const bob = await account();
      const signature = await send(payer, treasury, 3_000_000_000n);
      await reach(signature, 'finalized');
      offsetMs = 5 * 60_000; // the request is made five minutes after the transfer
      const request = await depositRequest(bob, '3', payer.publicKey.toBase58());
      const response = await verify(bob, {
        userAddress: payer.publicKey.toBase58(),
        expectedAmount: '3',
        requestId: request.id,
        signature,
      });
      expect(response.status).toBe(422);
      expect(response.body).toMatchObject({ verified: false, message: DEPOSIT_MESSAGES.tooOld });
      expect((await wallet(bob)).balanceMicro).toBe('0');
    }, 20_000);

    it('should refuse a signature already credited to another account', async () => {
      const alice = await account();
      const bob = await account();
      const mine = await depositRequest(alice, '1', payer.publicKey.toBase58());
      const signature = await send(payer, treasury, 1_000_000_000n, [mine.reference]);
      await reach(signature, 'finalized');
      await verify(alice, {
        userAddress: payer.publicKey.toBase58(),
        expectedAmount: '1',
        requestId: mine.id,
      }).expect(200);
      const theirs = await depositRequest(bob, '1', payer.publicKey.toBase58());
      await refused(
        bob,
        theirs.id,
        signature,
        409,
        DEPOSIT_MESSAGES.creditedElsewhere,
        'deposits.credited_elsewhere',
      );
      expect((await wallet(alice)).balanceMicro).toBe('5143000000');
    }, 20_000);

    it('should refuse malformed addresses and signatures, and another account', async () => {
      const bob = await account();
      const request = await depositRequest(bob, '1', payer.publicKey.toBase58());
      const bad = await verify(bob, {
        userAddress: 'not-an-address',
        expectedAmount: '1',
        requestId: request.id,
      });
      expect([bad.status, bad.body.message]).toEqual([400, DEPOSIT_MESSAGES.invalidAddress]);
      const badSignature = await verify(bob, {
        userAddress: payer.publicKey.toBase58(),
        expectedAmount: '1',
        requestId: request.id,
        signature: 'xyz',
      });
      expect([badSignature.status, badSignature.body.message]).toEqual([
        400,
        DEPOSIT_MESSAGES.invalidSignature,
      ]);
      const alice = await account();
      const other = await verify(bob, {
        userAddress: payer.publicKey.toBase58(),
        expectedAmount: '1',
        userId: alice.uuid,
      });
      expect(other.status).toBe(403);
      await t
        .http()
        .get(DEPOSIT_ROUTES.request(request.id))
        .set('Cookie', alice.cookie)
        .expect(404);
      expect((await wallet(bob)).balanceMicro).toBe('0');
      expect(await ledgerViolations(t.db.url)).toEqual([]);
    }, 20_000);
  });
});
