import {
  type Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  TransactionInstruction,
} from '@solana/web3.js';
import type { TreasuryKey } from '../config/withdrawal-settings';
import { base58 } from '../withdrawals/payout-chain';
import type { SignedPayout } from '../withdrawals/withdrawals.repository';

/**
 * The instructions of a sweep, encoded by hand (the programs' own layouts, spl.solana.com/token
 * and spl.solana.com/associated-token-account). Only the SPL Token program: Token-2022 is
 * never swept (its mints are refused as deposits, docs/deposits.md#stablecoins).
 */
export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey(
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
);

/** A token balance the sweep moves: the whole amount of one token account. */
export interface SweptToken {
  account: string;
  mint: string;
  amount: bigint;
  decimals: number;
}

/** What one sweep moves; nothing when lamports is 0 and tokens is empty. */
export interface SweepPlan {
  lamports: bigint;
  tokens: SweptToken[];
}

/**
 * What to sweep from the balances read: the whole SOL balance, and the whole amount of each
 * token account of an accepted mint (any other mint is left where it is).
 */
export function sweepPlan(
  lamports: bigint,
  accounts: readonly SweptToken[],
  acceptedMints: ReadonlySet<string>,
): SweepPlan {
  return {
    lamports,
    tokens: accounts.filter((account) => account.amount > 0n && acceptedMints.has(account.mint)),
  };
}

export function isEmptyPlan(plan: SweepPlan): boolean {
  return plan.lamports === 0n && plan.tokens.length === 0;
}

export function associatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0];
}

/** Associated Token Account `CreateIdempotent` (1): a no-op when the account exists. */
function createAtaIdempotent(payer: PublicKey, owner: PublicKey, mint: PublicKey) {
  return new TransactionInstruction({
    programId: ASSOCIATED_TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: payer, isSigner: true, isWritable: true },
      { pubkey: associatedTokenAddress(owner, mint), isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: false, isWritable: false },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      { pubkey: TOKEN_PROGRAM_ID, isSigner: false, isWritable: false },
    ],
    data: Buffer.from([1]),
  });
}

/** Token `TransferChecked` (12): amount u64 LE, then the mint's decimals. */
function transferChecked(token: SweptToken, destination: PublicKey, owner: PublicKey) {
  const amount = Buffer.alloc(8);
  amount.writeBigUInt64LE(token.amount);
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: new PublicKey(token.account), isSigner: false, isWritable: true },
      { pubkey: new PublicKey(token.mint), isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([12]), amount, Buffer.from([token.decimals])]),
  });
}

/**
 * The sweep as one transaction, fee payer the platform's: per token, the treasury's associated
 * token account created if missing (its rent paid by the fee payer) and the whole amount moved
 * to it (the deposit's token account stays open, so the next deposit needs no new account);
 * then the whole SOL balance to the treasury (the deposit address's account closes). Signed by
 * the fee payer and the deposit key; its signature is known before it is sent.
 */
export function signSweep(
  feePayer: TreasuryKey,
  deposit: Keypair,
  treasury: PublicKey,
  plan: SweepPlan,
  blockhash: { blockhash: string; lastValidBlockHeight: number },
): SignedPayout {
  const transaction = new Transaction({
    feePayer: feePayer.publicKey,
    blockhash: blockhash.blockhash,
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  });
  for (const token of plan.tokens) {
    const mint = new PublicKey(token.mint);
    transaction.add(createAtaIdempotent(feePayer.publicKey, treasury, mint));
    transaction.add(
      transferChecked(token, associatedTokenAddress(treasury, mint), deposit.publicKey),
    );
  }
  if (plan.lamports > 0n) {
    transaction.add(
      SystemProgram.transfer({
        fromPubkey: deposit.publicKey,
        toPubkey: treasury,
        lamports: plan.lamports,
      }),
    );
  }
  feePayer.sign(transaction, deposit);
  return {
    signature: base58(transaction.signature!),
    blockhash: blockhash.blockhash,
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
    signedTransaction: transaction.serialize().toString('base64'),
  };
}
