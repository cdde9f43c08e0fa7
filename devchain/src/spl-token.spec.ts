import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  PublicKey,
  type ParsedInstruction,
} from '@solana/web3.js';
import { startDevchain, type Devchain } from './index';
import { TOKEN_PROGRAM_ID, associatedTokenAddress, readTokenAccount } from './spl-token';

interface WalletInfo {
  address: string;
  balanceLamports: number;
  tokens: { symbol: string; mint: string; decimals: number; amount: string }[];
}

const pay = (chain: Devchain, url: string) =>
  fetch(`${chain.demoWalletUrl}/pay`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ url }),
  });

async function walletInfo(chain: Devchain): Promise<WalletInfo> {
  return (await (await fetch(chain.demoWalletUrl)).json()) as WalletInfo;
}

// The SPL Token program of the real runtime (litesvm), read through web3.js's Connection.
describe('devchain test tokens (USDC, USDT)', () => {
  let chain: Devchain;
  let connection: Connection;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'devchain-spl-'));
    chain = await startDevchain({
      slotMs: 60_000,
      finalizeAfterSlots: 2,
      stateFile: join(dir, 'chain.json'),
    });
    connection = new Connection(chain.url, 'confirmed');
  });

  afterAll(async () => {
    await chain.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should create two 6-decimal mints at start and give the demo wallet 10,000 of each', async () => {
    expect(chain.testMints.USDC).not.toBe(chain.testMints.USDT);
    for (const mint of [chain.testMints.USDC, chain.testMints.USDT]) {
      const account = await connection.getAccountInfo(new PublicKey(mint), 'processed');
      expect(account?.owner.toBase58()).toBe(TOKEN_PROGRAM_ID.toBase58());
      expect(account?.data.length).toBe(82);
      expect(account?.data[44]).toBe(6);
    }
    const info = await walletInfo(chain);
    expect(info.tokens).toEqual([
      { symbol: 'USDC', mint: chain.testMints.USDC, decimals: 6, amount: '10000' },
      { symbol: 'USDT', mint: chain.testMints.USDT, decimals: 6, amount: '10000' },
    ]);
  });

  it('should pay USDC to a fresh address, creating its token account, with the reference and the token balances of a real node', async () => {
    const recipient = Keypair.generate().publicKey;
    const reference = Keypair.generate().publicKey;
    const lamportsBefore = (await walletInfo(chain)).balanceLamports;
    const response = await pay(
      chain,
      `solana:${recipient.toBase58()}?amount=12.5&spl-token=${chain.testMints.USDC}&reference=${reference.toBase58()}&label=SCN`,
    );
    expect(response.status).toBe(200);
    const { signature } = (await response.json()) as { signature: string };
    chain.advanceSlots(1);

    const mint = new PublicKey(chain.testMints.USDC);
    const recipientAccount = associatedTokenAddress(recipient, mint);
    const account = await connection.getAccountInfo(recipientAccount, 'confirmed');
    expect(account?.owner.toBase58()).toBe(TOKEN_PROGRAM_ID.toBase58());
    expect(readTokenAccount(account!.data)).toEqual({
      mint: mint.toBase58(),
      owner: recipient.toBase58(),
      amount: 12_500_000n,
    });
    const info = await walletInfo(chain);
    expect(info.tokens[0]?.amount).toBe('9987.5');
    expect(info.tokens[1]?.amount).toBe('10000');
    // The fee and the new account's rent, both paid by the demo wallet in SOL.
    const rent = await connection.getMinimumBalanceForRentExemption(165);
    expect(info.balanceLamports).toBe(lamportsBefore - 5000 - rent);

    const [found] = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    expect(found).toMatchObject({ signature, err: null });
    const transaction = await connection.getTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    const keys = transaction!.transaction.message.staticAccountKeys.map((key) => key.toBase58());
    const senderIndex = keys.indexOf(
      associatedTokenAddress(new PublicKey(chain.demoWalletAddress), mint).toBase58(),
    );
    const recipientIndex = keys.indexOf(recipientAccount.toBase58());
    expect(keys).toContain(reference.toBase58());
    const balance = (accountIndex: number, owner: string, amount: string, ui: number) => ({
      accountIndex,
      mint: mint.toBase58(),
      owner,
      programId: TOKEN_PROGRAM_ID.toBase58(),
      uiTokenAmount: { amount, decimals: 6, uiAmount: ui, uiAmountString: String(ui) },
    });
    // The recipient's account did not exist before: no pre balance, as on a real node.
    expect(transaction?.meta?.preTokenBalances).toEqual([
      balance(senderIndex, chain.demoWalletAddress, '10000000000', 10000),
    ]);
    expect(transaction?.meta?.postTokenBalances).toEqual(
      expect.arrayContaining([
        balance(senderIndex, chain.demoWalletAddress, '9987500000', 9987.5),
        balance(recipientIndex, recipient.toBase58(), '12500000', 12.5),
      ]),
    );
    expect(transaction?.meta?.postTokenBalances).toHaveLength(2);

    // A second payment to the same address: its token account exists, the create is a no-op.
    const again = await pay(
      chain,
      `solana:${recipient.toBase58()}?amount=0.000001&spl-token=${chain.testMints.USDC}`,
    );
    expect(again.status).toBe(200);
    const after = await connection.getAccountInfo(recipientAccount, 'processed');
    expect(readTokenAccount(after!.data).amount).toBe(12_500_001n);
  });

  it('should answer the token reads of web3.js as a real node: parsed accounts, balances, transferChecked', async () => {
    const recipient = Keypair.generate().publicKey;
    const mint = new PublicKey(chain.testMints.USDT);
    const response = await pay(
      chain,
      `solana:${recipient.toBase58()}?amount=3.25&spl-token=${mint.toBase58()}`,
    );
    const { signature } = (await response.json()) as { signature: string };
    chain.advanceSlots(1);

    const { value: accounts } = await connection.getParsedTokenAccountsByOwner(recipient, { mint });
    const account = associatedTokenAddress(recipient, mint).toBase58();
    expect(accounts.map((found) => found.pubkey.toBase58())).toEqual([account]);
    expect(accounts[0]?.account.data).toEqual({
      program: 'spl-token',
      parsed: {
        type: 'account',
        info: {
          isNative: false,
          mint: mint.toBase58(),
          owner: recipient.toBase58(),
          state: 'initialized',
          tokenAmount: { amount: '3250000', decimals: 6, uiAmount: 3.25, uiAmountString: '3.25' },
        },
      },
      space: 165,
    });
    const all = await connection.getTokenAccountsByOwner(new PublicKey(chain.demoWalletAddress), {
      programId: TOKEN_PROGRAM_ID,
    });
    expect(all.value).toHaveLength(2);
    const { value: balance } = await connection.getTokenAccountBalance(new PublicKey(account));
    expect(balance.uiAmountString).toBe('3.25');
    await expect(connection.getTokenAccountBalance(recipient)).rejects.toThrow(
      /not a Token account/,
    );
    await expect(
      connection.getTokenAccountsByOwner(recipient, { mint: Keypair.generate().publicKey }),
    ).rejects.toThrow(/could not find mint/);

    const { value: parsedMint } = await connection.getParsedAccountInfo(mint);
    expect(parsedMint?.data).toMatchObject({
      parsed: { type: 'mint', info: { decimals: 6, isInitialized: true, freezeAuthority: null } },
    });

    const parsed = await connection.getParsedTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    const [create, transfer] = parsed!.transaction.message.instructions as ParsedInstruction[];
    expect(create).toMatchObject({
      program: 'spl-associated-token-account',
      parsed: { type: 'createIdempotent', info: { wallet: recipient.toBase58(), account } },
    });
    expect(transfer).toMatchObject({
      program: 'spl-token',
      parsed: {
        type: 'transferChecked',
        info: {
          mint: mint.toBase58(),
          destination: account,
          authority: chain.demoWalletAddress,
          tokenAmount: { amount: '3250000', decimals: 6, uiAmountString: '3.25' },
        },
      },
    });
  });

  it('should refuse an unknown mint, too many decimals and more than the balance with a 400', async () => {
    const before = await walletInfo(chain);
    const recipient = Keypair.generate().publicKey.toBase58();
    for (const [url, error] of [
      [
        `solana:${recipient}?amount=1&spl-token=${Keypair.generate().publicKey.toBase58()}`,
        /not a token mint/,
      ],
      [`solana:${recipient}?amount=1&spl-token=${chain.demoWalletAddress}`, /not a token mint/],
      [`solana:${recipient}?amount=0.0000001&spl-token=${chain.testMints.USDT}`, /6 decimals/],
      [`solana:${recipient}?amount=20000&spl-token=${chain.testMints.USDT}`, /would fail/],
    ] as const) {
      const response = await pay(chain, url);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(error);
    }
    expect((await walletInfo(chain)).tokens).toEqual(before.tokens);
  });

  it('should still pay SOL with empty token balances when spl-token is absent', async () => {
    const recipient = Keypair.generate().publicKey;
    const response = await pay(chain, `solana:${recipient.toBase58()}?amount=0.5`);
    const { signature } = (await response.json()) as { signature: string };
    chain.advanceSlots(1);
    expect(await connection.getBalance(recipient, 'confirmed')).toBe(LAMPORTS_PER_SOL / 2);
    const transaction = await connection.getTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(transaction?.meta?.preTokenBalances).toEqual([]);
    expect(transaction?.meta?.postTokenBalances).toEqual([]);
  });

  it('should keep the same mints and balances after a restart with the same state file', async () => {
    const before = await walletInfo(chain);
    const mints = chain.testMints;
    await chain.stop();
    chain = await startDevchain({ slotMs: 60_000, stateFile: join(dir, 'chain.json') });
    connection = new Connection(chain.url, 'confirmed');
    expect(chain.testMints).toEqual(mints);
    expect(await walletInfo(chain)).toEqual(before);
    const response = await pay(
      chain,
      `solana:${Keypair.generate().publicKey.toBase58()}?amount=1&spl-token=${mints.USDT}`,
    );
    expect(await response.json()).toEqual({ signature: expect.any(String) });
    expect((await walletInfo(chain)).tokens[1]?.amount).toBe('9995.75');
  });

  it('should give a new chain other mints than a saved one', async () => {
    const other = await startDevchain({ slotMs: 60_000 });
    try {
      expect(other.testMints.USDC).not.toBe(chain.testMints.USDC);
      expect((await walletInfo(other)).tokens.map((token) => token.amount)).toEqual([
        '10000',
        '10000',
      ]);
    } finally {
      await other.stop();
    }
  });
});
