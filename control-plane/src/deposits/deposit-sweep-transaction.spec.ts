import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { TreasuryKey } from '../config/withdrawal-settings';
import {
  ASSOCIATED_TOKEN_PROGRAM_ID,
  TOKEN_PROGRAM_ID,
  associatedTokenAddress,
  isEmptyPlan,
  signSweep,
  sweepPlan,
} from './deposit-sweep-transaction';

const key = () => Keypair.generate().publicKey.toBase58();
const usdc = key();
const other = key();

describe('sweepPlan', () => {
  it('should take the whole SOL balance and only accepted mints with a balance', () => {
    const accounts = [
      { account: key(), mint: usdc, amount: 5n, decimals: 6 },
      { account: key(), mint: usdc, amount: 0n, decimals: 6 },
      { account: key(), mint: other, amount: 9n, decimals: 6 },
    ];
    const plan = sweepPlan(42n, accounts, new Set([usdc]));
    expect(plan).toEqual({ lamports: 42n, tokens: [accounts[0]] });
    expect(isEmptyPlan(sweepPlan(0n, accounts.slice(1), new Set([usdc])))).toBe(true);
  });
});

describe('signSweep', () => {
  it('should pay fees from the fee payer, create the treasury ATA idempotently and move everything', () => {
    const payer = Keypair.generate();
    const deposit = Keypair.generate();
    const treasury = Keypair.generate().publicKey;
    const token = { account: key(), mint: usdc, amount: 1_500_000n, decimals: 6 };
    const signed = signSweep(
      new TreasuryKey(payer),
      deposit,
      treasury,
      { lamports: 7n, tokens: [token] },
      { blockhash: Keypair.generate().publicKey.toBase58(), lastValidBlockHeight: 9 },
    );
    const tx = Transaction.from(Buffer.from(signed.signedTransaction, 'base64'));
    expect(tx.verifySignatures()).toBe(true);
    expect(tx.feePayer?.equals(payer.publicKey)).toBe(true);
    expect(tx.signatures.map((s) => s.publicKey.toBase58()).sort()).toEqual(
      [payer.publicKey.toBase58(), deposit.publicKey.toBase58()].sort(),
    );
    const [create, transfer, sol] = tx.instructions;
    expect(create!.programId.equals(ASSOCIATED_TOKEN_PROGRAM_ID)).toBe(true);
    expect([...create!.data]).toEqual([1]);
    expect(create!.keys[0]!.pubkey.equals(payer.publicKey)).toBe(true);
    const ata = associatedTokenAddress(treasury, new PublicKey(usdc));
    expect(create!.keys[1]!.pubkey.equals(ata)).toBe(true);
    expect(transfer!.programId.equals(TOKEN_PROGRAM_ID)).toBe(true);
    expect(transfer!.data[0]).toBe(12);
    expect(transfer!.data.readBigUInt64LE(1)).toBe(1_500_000n);
    expect(transfer!.data[9]).toBe(6);
    expect(transfer!.keys[2]!.pubkey.equals(ata)).toBe(true);
    expect(transfer!.keys[3]!.pubkey.equals(deposit.publicKey)).toBe(true);
    expect(sol!.programId.equals(SystemProgram.programId)).toBe(true);
    expect(sol!.keys[1]!.pubkey.equals(treasury)).toBe(true);
  });
});
