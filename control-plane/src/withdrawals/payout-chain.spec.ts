import { Keypair, PublicKey, SystemInstruction, SystemProgram, Transaction } from '@solana/web3.js';
import { TreasuryKey } from '../config/withdrawal-settings';
import { base58, payoutReference, signPayout } from './payout-chain';

describe('base58', () => {
  it('should write bytes as Solana does, leading zero bytes included', () => {
    for (const bytes of [
      new Uint8Array(32),
      Uint8Array.from([0, 0, 1, ...new Array<number>(29).fill(255)]),
      Keypair.generate().publicKey.toBytes(),
    ])
      expect(base58(bytes)).toBe(new PublicKey(bytes).toBase58());
  });
});

describe('signPayout', () => {
  it('should sign one transfer from the treasury, which also pays the fee', () => {
    const keypair = Keypair.generate();
    const destination = Keypair.generate().publicKey.toBase58();
    const id = '5b0c7a3e-8f7d-4a55-9d5e-2f1f7d0a9c11';
    const payout = signPayout(
      new TreasuryKey(keypair),
      { id, destination, lamports: 14_582_928n },
      {
        blockhash: Keypair.generate().publicKey.toBase58(),
        lastValidBlockHeight: 1234,
      },
    );
    const transaction = Transaction.from(Buffer.from(payout.signedTransaction, 'base64'));
    expect(transaction.verifySignatures()).toBe(true);
    expect(transaction.feePayer?.toBase58()).toBe(keypair.publicKey.toBase58());
    expect(base58(transaction.signature!)).toBe(payout.signature);
    expect(transaction.recentBlockhash).toBe(payout.blockhash);
    expect(payout.lastValidBlockHeight).toBe(1234);
    expect(transaction.instructions).toHaveLength(1);
    const [instruction] = transaction.instructions;
    expect(instruction!.programId.equals(SystemProgram.programId)).toBe(true);
    expect(SystemInstruction.decodeTransfer(instruction!)).toEqual({
      fromPubkey: keypair.publicKey,
      toPubkey: new PublicKey(destination),
      lamports: 14_582_928n,
    });
    expect(instruction!.keys[2]).toEqual({
      pubkey: payoutReference(id),
      isSigner: false,
      isWritable: false,
    });
  });

  it('should sign two withdrawals of one amount to one address apart (their references)', () => {
    const treasury = new TreasuryKey(Keypair.generate());
    const blockhash = {
      blockhash: Keypair.generate().publicKey.toBase58(),
      lastValidBlockHeight: 9,
    };
    const payout = { destination: Keypair.generate().publicKey.toBase58(), lamports: 1_000_000n };
    const a = signPayout(treasury, { ...payout, id: 'a' }, blockhash);
    const b = signPayout(treasury, { ...payout, id: 'b' }, blockhash);
    expect(a.signature).not.toBe(b.signature);
    expect(signPayout(treasury, { ...payout, id: 'a' }, blockhash).signature).toBe(a.signature);
  });
});
