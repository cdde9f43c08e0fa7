import {
  ComputeBudgetProgram,
  Connection,
  Keypair,
  LAMPORTS_PER_SOL,
  type ParsedInstruction,
  type PublicKey,
  SystemProgram,
  Transaction,
  type TransactionSignature,
} from '@solana/web3.js';
import { startDevchain, type Devchain } from './index';

// The real @solana/web3.js 1.x Connection against the server on loopback: its own request
// shapes and its own response validation (superstruct) run, so a wrong field name fails here.
describe('devchain JSON-RPC (web3.js Connection)', () => {
  let chain: Devchain;
  let connection: Connection;

  beforeAll(async () => {
    // Slots only move when a test says so (advanceSlots): commitment is deterministic.
    chain = await startDevchain({ slotMs: 60_000, finalizeAfterSlots: 4 });
    connection = new Connection(chain.url, 'confirmed');
  });

  afterAll(async () => {
    await chain.stop();
  });

  async function funded(sol = 2): Promise<Keypair> {
    const keypair = Keypair.generate();
    await connection.requestAirdrop(keypair.publicKey, sol * LAMPORTS_PER_SOL);
    chain.advanceSlots(1);
    return keypair;
  }

  function transfer(from: Keypair, to: PublicKey, lamports: number, reference?: PublicKey) {
    const instruction = SystemProgram.transfer({
      fromPubkey: from.publicKey,
      toPubkey: to,
      lamports,
    });
    if (reference) instruction.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    return new Transaction().add(instruction);
  }

  async function status(signature: TransactionSignature) {
    const { value } = await connection.getSignatureStatuses([signature]);
    return value[0];
  }

  it('should credit an airdrop with a real transaction when requestAirdrop is called', async () => {
    const keypair = Keypair.generate();
    const signature = await connection.requestAirdrop(keypair.publicKey, LAMPORTS_PER_SOL);
    expect(await connection.getBalance(keypair.publicKey, 'processed')).toBe(LAMPORTS_PER_SOL);
    chain.advanceSlots(1);
    const airdrop = await connection.getTransaction(signature, { commitment: 'confirmed' });
    expect(airdrop?.meta?.err).toBeNull();
    expect(airdrop?.transaction.message.accountKeys[1]?.toBase58()).toBe(
      keypair.publicKey.toBase58(),
    );
  });

  it('should move exactly the amount and the fee when a transfer with a reference is sent', async () => {
    const payer = await funded();
    const recipient = Keypair.generate().publicKey;
    const reference = Keypair.generate().publicKey;
    const before = await connection.getBalance(payer.publicKey);
    const signature = await connection.sendTransaction(
      transfer(payer, recipient, LAMPORTS_PER_SOL / 10, reference),
      [payer],
    );
    const confirming = connection
      .getLatestBlockhash()
      .then((blockhash) => connection.confirmTransaction({ signature, ...blockhash }, 'confirmed'));
    setTimeout(() => chain.advanceSlots(1), 200);
    expect((await confirming).value.err).toBeNull();

    const json = await connection.getTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(json?.meta?.fee).toBe(5000);
    expect(json?.meta?.err).toBeNull();
    expect(json?.blockTime).toBeGreaterThan(Date.now() / 1000 - 60);
    const keys = json?.transaction.message.staticAccountKeys.map((key) => key.toBase58());
    expect(keys).toEqual([
      payer.publicKey.toBase58(),
      recipient.toBase58(),
      SystemProgram.programId.toBase58(),
      reference.toBase58(),
    ]);
    const [payerBefore = 0, recipientBefore] = json?.meta?.preBalances ?? [];
    const [payerAfter = 0] = json?.meta?.postBalances ?? [];
    expect(payerBefore - payerAfter).toBe(LAMPORTS_PER_SOL / 10 + 5000);
    expect(recipientBefore).toBe(0);
    expect(json?.meta?.postBalances[1]).toBe(LAMPORTS_PER_SOL / 10);
    expect(json?.meta?.logMessages).toContain('Program 11111111111111111111111111111111 success');

    const parsed = await connection.getParsedTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    const [instruction] = parsed!.transaction.message.instructions as ParsedInstruction[];
    expect(instruction?.program).toBe('system');
    expect(instruction?.programId.toBase58()).toBe(SystemProgram.programId.toBase58());
    expect(instruction?.parsed).toEqual({
      type: 'transfer',
      info: {
        source: payer.publicKey.toBase58(),
        destination: recipient.toBase58(),
        lamports: LAMPORTS_PER_SOL / 10,
      },
    });
    const referenceKey = parsed!.transaction.message.accountKeys[3];
    expect(referenceKey?.pubkey.toBase58()).toBe(reference.toBase58());
    expect(referenceKey).toMatchObject({ signer: false, writable: false, source: 'transaction' });
    expect(parsed!.transaction.message.accountKeys[0]).toMatchObject({
      signer: true,
      writable: true,
    });

    const found = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    expect(found.map((entry) => entry.signature)).toEqual([signature]);
    expect(found[0]).toMatchObject({ err: null, confirmationStatus: 'confirmed' });
    expect(await connection.getBalance(payer.publicKey)).toBe(
      before - LAMPORTS_PER_SOL / 10 - 5000,
    );
    expect(await connection.getBalance(recipient)).toBe(LAMPORTS_PER_SOL / 10);
  });

  it('should refuse in preflight and record with err under skipPreflight when a transfer exceeds the balance', async () => {
    const payer = await funded(1);
    const recipient = Keypair.generate().publicKey;
    const tooMuch = transfer(payer, recipient, 5 * LAMPORTS_PER_SOL);
    await expect(connection.sendTransaction(tooMuch, [payer])).rejects.toThrow(
      /Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1/,
    );
    expect(await connection.getBalance(payer.publicKey, 'processed')).toBe(LAMPORTS_PER_SOL);

    // web3.js wants a fresh blockhash to sign the same transaction again.
    chain.advanceSlots(1);
    const signature = await connection.sendTransaction(tooMuch, [payer], { skipPreflight: true });
    chain.advanceSlots(1);
    expect((await status(signature))?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    const failed = await connection.getTransaction(signature, {
      commitment: 'confirmed',
      maxSupportedTransactionVersion: 0,
    });
    expect(failed?.meta?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
    // A failed transaction still pays its fee and moves nothing else.
    expect(failed?.meta?.postBalances).toEqual([LAMPORTS_PER_SOL - 5000, 0, 1]);
    const listed = await connection.getSignaturesForAddress(recipient, {}, 'confirmed');
    expect(listed[0]?.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
  });

  it('should record the priority fee it charged when the transaction sets a compute unit price', async () => {
    const payer = await funded(1);
    const transaction = new Transaction()
      .add(ComputeBudgetProgram.setComputeUnitLimit({ units: 10_000 }))
      .add(ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 2_000_000 }))
      .add(transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL / 10));
    const signature = await connection.sendTransaction(transaction, [payer]);
    chain.advanceSlots(1);
    const recorded = await connection.getTransaction(signature, { commitment: 'confirmed' });
    // 5,000 per signature + 10,000 CU x 2 lamports.
    expect(recorded?.meta?.fee).toBe(25_000);
    expect(await connection.getBalance(payer.publicKey)).toBe(
      LAMPORTS_PER_SOL - LAMPORTS_PER_SOL / 10 - 25_000,
    );
  });

  it('should refuse in preflight when the fee payer has never been credited', async () => {
    const stranger = Keypair.generate();
    await expect(
      connection.sendTransaction(transfer(stranger, Keypair.generate().publicKey, 1), [stranger]),
    ).rejects.toThrow(/Attempt to debit an account but found no record of a prior credit/);
  });

  it('should drop a transaction whose blockhash is unknown when preflight is skipped', async () => {
    const payer = await funded(1);
    const stale = transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL / 10);
    stale.recentBlockhash = Keypair.generate().publicKey.toBase58();
    stale.feePayer = payer.publicKey;
    stale.sign(payer);
    await expect(connection.sendRawTransaction(stale.serialize())).rejects.toThrow(
      /Blockhash not found/,
    );
    const signature = await connection.sendRawTransaction(stale.serialize(), {
      skipPreflight: true,
    });
    chain.advanceSlots(1);
    expect(await status(signature)).toBeNull();
    expect(await connection.getBalance(payer.publicKey, 'processed')).toBe(LAMPORTS_PER_SOL);
  });

  it('should progress processed, confirmed, finalized and hide a too-new transaction from finalized reads', async () => {
    const payer = await funded(1);
    const reference = Keypair.generate().publicKey;
    const signature = await connection.sendTransaction(
      transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL / 10, reference),
      [payer],
    );
    expect(await status(signature)).toMatchObject({
      confirmationStatus: 'processed',
      confirmations: 0,
    });
    expect(await connection.getTransaction(signature, { commitment: 'confirmed' })).toBeNull();

    chain.advanceSlots(1);
    expect(await status(signature)).toMatchObject({
      confirmationStatus: 'confirmed',
      confirmations: 1,
    });
    expect(await connection.getTransaction(signature, { commitment: 'confirmed' })).not.toBeNull();
    expect(await connection.getTransaction(signature, { commitment: 'finalized' })).toBeNull();
    expect(await connection.getSignaturesForAddress(reference, {}, 'finalized')).toEqual([]);

    chain.advanceSlots(3);
    expect(await status(signature)).toMatchObject({
      confirmationStatus: 'finalized',
      confirmations: null,
    });
    expect(await connection.getTransaction(signature, { commitment: 'finalized' })).not.toBeNull();
    const finalized = await connection.getSignaturesForAddress(reference, {}, 'finalized');
    expect(finalized.map((entry) => entry.confirmationStatus)).toEqual(['finalized']);
    expect(await connection.getSlot('processed')).toBe((await connection.getSlot('finalized')) + 4);
  });

  it('should page newest first with before, until and limit when an address has many transactions', async () => {
    const payer = await funded(1);
    const reference = Keypair.generate().publicKey;
    const signatures: string[] = [];
    for (let i = 1; i <= 4; i++) {
      signatures.push(
        await connection.sendTransaction(
          transfer(payer, Keypair.generate().publicKey, LAMPORTS_PER_SOL / 100 + i, reference),
          [payer],
        ),
      );
      chain.advanceSlots(1);
    }
    const newestFirst = [...signatures].reverse();
    const all = await connection.getSignaturesForAddress(reference, {}, 'confirmed');
    expect(all.map((entry) => entry.signature)).toEqual(newestFirst);
    const page = await connection.getSignaturesForAddress(
      reference,
      { before: newestFirst[0], limit: 2 },
      'confirmed',
    );
    expect(page.map((entry) => entry.signature)).toEqual(newestFirst.slice(1, 3));
    const until = await connection.getSignaturesForAddress(
      reference,
      { until: newestFirst[2] },
      'confirmed',
    );
    expect(until.map((entry) => entry.signature)).toEqual(newestFirst.slice(0, 2));
    // getParsedTransactions is one JSON-RPC batch request.
    const batch = await connection.getParsedTransactions(signatures, 'confirmed');
    expect(batch.map((entry) => entry?.transaction.signatures[0])).toEqual(signatures);
  });

  it('should answer the calls web3.js makes on its usual paths', async () => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('processed');
    expect(lastValidBlockHeight).toBe((await connection.getBlockHeight('processed')) + 150);
    expect((await connection.isBlockhashValid(blockhash, { commitment: 'processed' })).value).toBe(
      true,
    );
    expect(await connection.getMinimumBalanceForRentExemption(0)).toBe(890_880);
    expect((await connection.getEpochInfo()).slotsInEpoch).toBe(432_000);
    expect(await connection.getGenesisHash()).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    expect((await connection.getVersion())['solana-core']).toBeDefined();
    const payer = await funded(1);
    const message = transfer(payer, Keypair.generate().publicKey, 1);
    message.recentBlockhash = blockhash;
    message.feePayer = payer.publicKey;
    expect((await connection.getFeeForMessage(message.compileMessage())).value).toBe(5000);
    const account = await connection.getAccountInfo(payer.publicKey);
    expect(account).toMatchObject({ lamports: LAMPORTS_PER_SOL, executable: false });
    expect(account?.owner.toBase58()).toBe(SystemProgram.programId.toBase58());
    expect(await connection.getAccountInfo(Keypair.generate().publicKey)).toBeNull();
  });

  it('should answer JSON-RPC errors in the wire format when the request is wrong', async () => {
    const post = async (body: unknown) =>
      (await fetch(chain.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }).then((response) => response.json())) as { error?: { code: number }; id: unknown };
    expect((await post({ jsonrpc: '2.0', id: 7, method: 'nope', params: [] })).error?.code).toBe(
      -32601,
    );
    const bad = await post({ jsonrpc: '2.0', id: 8, method: 'getBalance', params: ['xyz'] });
    expect(bad).toMatchObject({ id: 8, error: { code: -32602 } });
    const processed = await post({
      jsonrpc: '2.0',
      id: 9,
      method: 'getSignaturesForAddress',
      params: [Keypair.generate().publicKey.toBase58(), { commitment: 'processed' }],
    });
    expect(processed.error?.code).toBe(-32602);
  });
});

describe('devchain clock', () => {
  it('should stamp blockTime from the given clock when one is passed', async () => {
    const now = Date.parse('2027-03-01T12:00:00Z');
    const chain = await startDevchain({ slotMs: 60_000, now: () => now });
    try {
      const connection = new Connection(chain.url, 'confirmed');
      const keypair = Keypair.generate();
      const signature = await connection.requestAirdrop(keypair.publicKey, LAMPORTS_PER_SOL);
      chain.advanceSlots(1);
      const airdrop = await connection.getTransaction(signature, { commitment: 'confirmed' });
      expect(airdrop?.blockTime).toBe(now / 1000);
    } finally {
      await chain.stop();
    }
  });
});
