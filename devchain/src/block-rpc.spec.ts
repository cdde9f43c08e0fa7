import { Connection, Keypair, type PublicKey, Transaction } from '@solana/web3.js';
import { startDevchain, type Devchain } from './index';
import {
  MINT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  token2022DepositInstructions,
} from './spl-token';

/** getBlocks, getBlocksWithLimit and getBlock through web3.js, which checks every field it reads. */
describe('devchain blocks', () => {
  let chain: Devchain;
  let connection: Connection;
  let solSignature: string;
  let usdcSignature: string;
  const recipient = Keypair.generate().publicKey.toBase58();

  const pay = async (url: string): Promise<string> => {
    const response = await fetch(`${chain.demoWalletUrl}/pay`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ url }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { signature: string }).signature;
  };
  const rpc = async (method: string, params: unknown[]) =>
    (await (
      await fetch(chain.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      })
    ).json()) as { result?: unknown; error?: { code: number; message: string } };

  beforeAll(async () => {
    chain = await startDevchain({ slotMs: 60_000, finalizeAfterSlots: 3 });
    connection = new Connection(chain.url, 'confirmed');
    chain.advanceSlots(2);
    solSignature = await pay(`solana:${recipient}?amount=0.25`);
    usdcSignature = await pay(`solana:${recipient}?amount=1.5&spl-token=${chain.testMints.USDC}`);
    chain.advanceSlots(1);
  });
  afterAll(() => chain.stop());

  it('should list every slot as a block up to what the commitment sees', async () => {
    const confirmed = await connection.getSlot('confirmed');
    const finalized = await connection.getSlot('finalized');
    expect(await connection.getBlocks(0, undefined, 'confirmed')).toEqual(
      Array.from({ length: confirmed + 1 }, (_, i) => i),
    );
    expect(await connection.getBlocks(1, confirmed + 10, 'finalized')).toEqual(
      Array.from({ length: finalized }, (_, i) => i + 1),
    );
    expect((await rpc('getBlocksWithLimit', [1, 2, { commitment: 'confirmed' }])).result).toEqual([
      1, 2,
    ]);
    expect((await rpc('getBlocks', [0, 600_000])).error).toMatchObject({ code: -32602 });
    expect((await rpc('getBlocks', [0, 5, { commitment: 'processed' }])).error?.code).toBe(-32602);
  });

  it('should give a block its transactions with keys and balances in accounts mode', async () => {
    const { value } = await connection.getSignatureStatuses([solSignature]);
    const slot = value[0]!.slot;
    const block = await connection.getBlock(slot, {
      commitment: 'confirmed',
      transactionDetails: 'accounts',
      rewards: false,
      maxSupportedTransactionVersion: 0,
    });
    expect(block).not.toBeNull();
    const signatures = block!.transactions.map((t) => t.transaction.signatures[0]);
    expect(signatures).toEqual([solSignature, usdcSignature]);
    const [sol, usdc] = block!.transactions as unknown as Array<{
      transaction: { accountKeys: Array<{ pubkey: PublicKey; signer: boolean }> };
      meta: {
        preBalances: number[];
        postBalances: number[];
        preTokenBalances: Array<{
          owner: string;
          mint: string;
          programId: string;
          uiTokenAmount: { amount: string };
        }>;
        postTokenBalances: Array<{
          owner: string;
          mint: string;
          programId: string;
          uiTokenAmount: { amount: string };
        }>;
      };
    }>;
    const keys = sol!.transaction.accountKeys.map((k) => k.pubkey.toBase58());
    const at = keys.indexOf(recipient);
    expect(sol!.meta.postBalances[at]! - sol!.meta.preBalances[at]!).toBe(250_000_000);
    expect(sol!.transaction.accountKeys[0]!.signer).toBe(true);
    const received = usdc!.meta.postTokenBalances.find((b) => b.owner === recipient);
    expect(received).toMatchObject({
      mint: chain.testMints.USDC,
      programId: TOKEN_PROGRAM_ID.toBase58(),
      uiTokenAmount: expect.objectContaining({ amount: '1500000' }),
    });
    expect(block!.rewards).toBeUndefined();
  });

  it('should answer full, signatures and none details, and an empty block', async () => {
    const { value } = await connection.getSignatureStatuses([solSignature]);
    const slot = value[0]!.slot;
    const full = await connection.getParsedBlock(slot, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(full.transactions.map((t) => t.transaction.signatures[0])).toEqual([
      solSignature,
      usdcSignature,
    ]);
    expect(full.rewards).toEqual([]);
    const signatures = (
      await rpc('getBlock', [slot, { transactionDetails: 'signatures', commitment: 'confirmed' }])
    ).result as { signatures: string[]; blockhash: string; parentSlot: number };
    expect(signatures.signatures).toEqual([solSignature, usdcSignature]);
    expect(signatures.parentSlot).toBe(slot - 1);
    const none = (
      await rpc('getBlock', [
        slot,
        { transactionDetails: 'none', rewards: false, commitment: 'confirmed' },
      ])
    ).result as Record<string, unknown>;
    expect(Object.keys(none).sort()).toEqual(
      ['blockHeight', 'blockTime', 'blockhash', 'parentSlot', 'previousBlockhash'].sort(),
    );
    const empty = await connection.getBlock(1, { maxSupportedTransactionVersion: 0 });
    expect(empty?.transactions).toEqual([]);
  });

  it('should refuse a slot not yet visible and bad parameters the way real nodes do', async () => {
    const processed = await connection.getSlot('processed');
    expect((await rpc('getBlock', [processed + 5])).error).toEqual({
      code: -32004,
      message: `Block not available for slot ${processed + 5}`,
    });
    expect((await rpc('getBlock', [-1])).error?.code).toBe(-32602);
    expect((await rpc('getBlock', [1, { transactionDetails: 'everything' }])).error?.code).toBe(
      -32602,
    );
    expect((await rpc('getBlock', [1, { commitment: 'processed' }])).error?.code).toBe(-32602);
  });
});

describe('devchain Token-2022', () => {
  it('should run Token-2022 and record its accounts in token balances with its program id', async () => {
    const chain = await startDevchain({ slotMs: 50 });
    try {
      const connection = new Connection(chain.url, 'confirmed');
      const payer = Keypair.generate();
      const airdrop = await connection.requestAirdrop(payer.publicKey, 1_000_000_000);
      for (let i = 0; i < 100 && !(await connection.getSignatureStatus(airdrop)).value; i++)
        await new Promise((resolve) => setTimeout(resolve, 20));
      const mint = Keypair.generate();
      const account = Keypair.generate();
      const owner = Keypair.generate().publicKey;
      const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash();
      const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight });
      tx.add(
        ...token2022DepositInstructions({
          payer: payer.publicKey,
          mint: mint.publicKey,
          account: account.publicKey,
          owner,
          amount: 7_000_000n,
          mintRent: BigInt(await connection.getMinimumBalanceForRentExemption(MINT_SIZE)),
          accountRent: BigInt(
            await connection.getMinimumBalanceForRentExemption(TOKEN_ACCOUNT_SIZE),
          ),
        }),
      );
      tx.sign(payer, mint, account);
      const signature = await connection.sendRawTransaction(tx.serialize());
      let parsed = null;
      for (let i = 0; i < 100 && !parsed; i++) {
        parsed = await connection.getParsedTransaction(signature, { commitment: 'confirmed' });
        if (!parsed) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(parsed?.meta?.err).toBeNull();
      expect(parsed?.meta?.postTokenBalances).toEqual([
        expect.objectContaining({
          owner: owner.toBase58(),
          mint: mint.publicKey.toBase58(),
          programId: TOKEN_2022_PROGRAM_ID.toBase58(),
          uiTokenAmount: expect.objectContaining({ amount: '7000000' }),
        }),
      ]);
    } finally {
      await chain.stop();
    }
  });
});
