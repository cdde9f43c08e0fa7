import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  type ParsedInstruction,
} from '@solana/web3.js';
import { DemoWalletError, baseUnits, parseTransferRequest } from './demo-wallet';
import { startDevchain, type Devchain } from './index';

const recipient = Keypair.generate().publicKey.toBase58();
const reference = Keypair.generate().publicKey.toBase58();

describe('parseTransferRequest', () => {
  it('should read recipient, lamports, reference, label and message when the URL is a Solana Pay transfer request', () => {
    const request = parseTransferRequest(
      `solana:${recipient}?amount=0.123456789&reference=${reference}&label=SCN&message=Deposit%201`,
    );
    expect(request.recipient.toBase58()).toBe(recipient);
    expect(request.amount).toBe('0.123456789');
    expect(request.splToken).toBeNull();
    expect(baseUnits(request.amount, 9)).toBe(123_456_789n);
    expect(request.references.map((key) => key.toBase58())).toEqual([reference]);
    expect(request).toMatchObject({ label: 'SCN', message: 'Deposit 1' });
    expect(baseUnits(parseTransferRequest(`solana:${recipient}?amount=12`).amount, 9)).toBe(
      12_000_000_000n,
    );
    const usdc = parseTransferRequest(`solana:${recipient}?amount=1.5&spl-token=${reference}`);
    expect(usdc.splToken?.toBase58()).toBe(reference);
    expect(baseUnits(usdc.amount, 6)).toBe(1_500_000n);
    expect(() => baseUnits('0.0000001', 6)).toThrow(DemoWalletError);
  });

  it.each([
    ['not a string', 42],
    ['another scheme', `bitcoin:${recipient}?amount=1`],
    ['a short recipient', 'solana:abc?amount=1'],
    ['a recipient with 0OIl', `solana:0${recipient.slice(1)}?amount=1`],
    ['no amount', `solana:${recipient}?reference=${reference}`],
    ['a zero amount', `solana:${recipient}?amount=0.000`],
    ['ten decimals', `solana:${recipient}?amount=0.0000000001`],
    ['no leading zero', `solana:${recipient}?amount=.5`],
    ['a negative amount', `solana:${recipient}?amount=-1`],
    ['an exponent', `solana:${recipient}?amount=1e3`],
    ['two amounts', `solana:${recipient}?amount=1&amount=2`],
    ['a bad reference', `solana:${recipient}?amount=1&reference=xyz`],
    ['a bad spl-token', `solana:${recipient}?amount=1&spl-token=nope`],
    [
      'two spl-tokens',
      `solana:${recipient}?amount=1&spl-token=${reference}&spl-token=${reference}`,
    ],
    ['a memo', `solana:${recipient}?amount=1&memo=hi`],
  ])('should refuse %s', (_what, url) => {
    expect(() => parseTransferRequest(url)).toThrow(DemoWalletError);
  });
});

// The demo wallet through HTTP, as the portal calls it, on a chain whose slots run on the timer.
describe('demo wallet (HTTP)', () => {
  let chain: Devchain;

  beforeAll(async () => {
    chain = await startDevchain({
      slotMs: 50,
      finalizeAfterSlots: 3,
      allowOrigin: 'http://portal.test',
    });
  });

  afterAll(async () => {
    await chain.stop();
  });

  const pay = (body: unknown) =>
    fetch(`${chain.demoWalletUrl}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('should pay a transfer request with its reference when the URL is valid, and finalize it on the slot timer', async () => {
    const before = (await (await fetch(chain.demoWalletUrl)).json()) as {
      address: string;
      balanceLamports: number;
    };
    expect(before.address).toBe(chain.demoWalletAddress);
    expect(before.balanceLamports).toBe(1000 * LAMPORTS_PER_SOL);

    const response = await pay({ url: `solana:${recipient}?amount=0.25&reference=${reference}` });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://portal.test');
    const { signature } = (await response.json()) as { signature: string };

    // confirmTransaction subscribes over WebSocket (port + 1), as wallets and verifiers do.
    const connection = new Connection(chain.url, 'confirmed');
    const blockhash = await connection.getLatestBlockhash();
    const confirmed = await connection.confirmTransaction({ signature, ...blockhash }, 'finalized');
    expect(confirmed.value.err).toBeNull();

    const [found] = await connection.getSignaturesForAddress(
      new PublicKey(reference),
      {},
      'finalized',
    );
    expect(found).toMatchObject({ signature, err: null, confirmationStatus: 'finalized' });
    const parsed = await connection.getParsedTransaction(signature, 'finalized');
    const [instruction] = parsed!.transaction.message.instructions as ParsedInstruction[];
    expect(instruction?.parsed).toEqual({
      type: 'transfer',
      info: { source: chain.demoWalletAddress, destination: recipient, lamports: 250_000_000 },
    });
    expect(await connection.getBalance(new PublicKey(recipient), 'finalized')).toBe(250_000_000);
    const after = (await (await fetch(chain.demoWalletUrl)).json()) as { balanceLamports: number };
    expect(after.balanceLamports).toBe(before.balanceLamports - 250_000_000 - 5000);
  });

  it('should answer 400 with a JSON error when the URL or the body is malformed', async () => {
    for (const body of [
      { url: `solana:${recipient}?amount=0.0000000001` },
      { url: `solana:nope?amount=1` },
      { url: `solana:${recipient}?amount=1&reference=nope` },
      { nothing: true },
    ]) {
      const response = await pay(body);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toEqual(expect.any(String));
    }
    const notJson = await fetch(`${chain.demoWalletUrl}/pay`, { method: 'POST', body: '{' });
    expect(notJson.status).toBe(400);
  });

  it('should refuse a transfer above its balance without sending it', async () => {
    const response = await pay({ url: `solana:${recipient}?amount=5000` });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: string }).error).toMatch(/would fail/);
  });

  it('should answer the CORS preflight of the portal when it asks OPTIONS', async () => {
    const response = await fetch(`${chain.demoWalletUrl}/pay`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://portal.test', 'Access-Control-Request-Method': 'POST' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('http://portal.test');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')).toMatch(/content-type/i);
  });
});
