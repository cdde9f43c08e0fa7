import { createHash } from 'node:crypto';
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';

/**
 * The SPL Token and Associated Token Account instructions devchain signs, encoded by hand (the
 * layouts are the programs' own: spl.solana.com/token). litesvm ships both programs.
 */
export const TOKEN_PROGRAM_ID = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
/** Token-2022 (litesvm loads it as validators do): its accounts share the first 165 bytes. */
export const TOKEN_2022_PROGRAM_ID = new PublicKey('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb');
export const ASSOCIATED_TOKEN_PROGRAM_ID = new PublicKey(
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
);
export const MINT_SIZE = 82;
export const TOKEN_ACCOUNT_SIZE = 165;

/** The test mints of every devchain: 6 decimals, as mainnet USDC and USDT. */
export const TEST_TOKENS = ['USDC', 'USDT'] as const;
export type TestToken = (typeof TEST_TOKENS)[number];
export const TEST_TOKEN_DECIMALS = 6;

/** A test mint's keypair, derived from the chain's genesis hash: the same across restarts. */
export function testMintKeypair(genesisHash: string, symbol: TestToken): Keypair {
  return Keypair.fromSeed(createHash('sha256').update(`${genesisHash}/mint/${symbol}`).digest());
}

export function associatedTokenAddress(owner: PublicKey, mint: PublicKey): PublicKey {
  return PublicKey.findProgramAddressSync(
    [owner.toBuffer(), TOKEN_PROGRAM_ID.toBuffer(), mint.toBuffer()],
    ASSOCIATED_TOKEN_PROGRAM_ID,
  )[0];
}

const u64 = (value: bigint): Buffer => {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(value);
  return bytes;
};

/** InitializeMint2 (20): decimals, mint authority, no freeze authority. */
export function initializeMint2(
  mint: PublicKey,
  decimals: number,
  authority: PublicKey,
  programId = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [{ pubkey: mint, isSigner: false, isWritable: true }],
    data: Buffer.concat([Buffer.from([20, decimals]), authority.toBuffer(), Buffer.from([0])]),
  });
}

/** The system account creation plus InitializeMint2 of a new mint. */
export function createMintInstructions(
  payer: PublicKey,
  mint: PublicKey,
  authority: PublicKey,
  rentLamports: bigint,
): TransactionInstruction[] {
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: mint,
      lamports: Number(rentLamports),
      space: MINT_SIZE,
      programId: TOKEN_PROGRAM_ID,
    }),
    initializeMint2(mint, TEST_TOKEN_DECIMALS, authority),
  ];
}

/** Associated Token Account program `CreateIdempotent` (1): a no-op when the account exists. */
export function createAssociatedTokenAccountIdempotent(
  payer: PublicKey,
  owner: PublicKey,
  mint: PublicKey,
): TransactionInstruction {
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

/** MintTo (7). */
export function mintTo(
  mint: PublicKey,
  destination: PublicKey,
  authority: PublicKey,
  amount: bigint,
  programId = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: mint, isSigner: false, isWritable: true },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: authority, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([7]), u64(amount)]),
  });
}

/** InitializeAccount3 (18): a token account of `mint` held by `owner` (no rent sysvar). */
export function initializeAccount3(
  account: PublicKey,
  mint: PublicKey,
  owner: PublicKey,
  programId = TOKEN_PROGRAM_ID,
): TransactionInstruction {
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: account, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([18]), owner.toBuffer()]),
  });
}

/**
 * A Token-2022 mint (no extensions, `payer` its authority), a token account of it held by
 * `owner`, and `amount` minted into it: one transaction's instructions, signed by payer, mint
 * and account. What a deposit address receives when someone sends it a Token-2022 token.
 */
export function token2022DepositInstructions(options: {
  payer: PublicKey;
  mint: PublicKey;
  account: PublicKey;
  owner: PublicKey;
  amount: bigint;
  mintRent: bigint;
  accountRent: bigint;
}): TransactionInstruction[] {
  const { payer, mint, account, owner, amount } = options;
  const programId = TOKEN_2022_PROGRAM_ID;
  return [
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: mint,
      lamports: Number(options.mintRent),
      space: MINT_SIZE,
      programId,
    }),
    initializeMint2(mint, TEST_TOKEN_DECIMALS, payer, programId),
    SystemProgram.createAccount({
      fromPubkey: payer,
      newAccountPubkey: account,
      lamports: Number(options.accountRent),
      space: TOKEN_ACCOUNT_SIZE,
      programId,
    }),
    initializeAccount3(account, mint, owner, programId),
    mintTo(mint, account, payer, amount, programId),
  ];
}

/** TransferChecked (12): what wallets send for a Solana Pay `spl-token` request. */
export function transferChecked(
  source: PublicKey,
  mint: PublicKey,
  destination: PublicKey,
  owner: PublicKey,
  amount: bigint,
  decimals: number,
): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: source, isSigner: false, isWritable: true },
      { pubkey: mint, isSigner: false, isWritable: false },
      { pubkey: destination, isSigner: false, isWritable: true },
      { pubkey: owner, isSigner: true, isWritable: false },
    ],
    data: Buffer.concat([Buffer.from([12]), u64(amount), Buffer.from([decimals])]),
  });
}

/** A token account's fields (the Account layout: mint 0..32, owner 32..64, amount 64..72). */
export function readTokenAccount(data: Uint8Array): {
  mint: string;
  owner: string;
  amount: bigint;
} {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return {
    mint: new PublicKey(bytes.subarray(0, 32)).toBase58(),
    owner: new PublicKey(bytes.subarray(32, 64)).toBase58(),
    amount: bytes.readBigUInt64LE(64),
  };
}

/** A mint's decimals (the Mint layout: byte 44), or null when the data is not an initialized mint. */
export function readMintDecimals(data: Uint8Array): number | null {
  if (data.length !== MINT_SIZE || data[45] !== 1) return null;
  return data[44] ?? null;
}

/** `uiTokenAmount` as real nodes write it (solana.com/docs/rpc/json-structures#token-balances). */
export function uiTokenAmount(amount: bigint, decimals: number) {
  const digits = amount.toString().padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const uiAmountString = fraction ? `${whole}.${fraction}` : whole;
  return {
    amount: amount.toString(),
    decimals,
    uiAmount: Number(uiAmountString),
    uiAmountString,
  };
}

/** An SPL Token or ATA instruction as real nodes parse it (jsonParsed), or null when unknown. */
export function parseTokenInstruction(
  programId: string,
  data: Uint8Array,
  accounts: string[],
): { program: string; parsed: Record<string, unknown> } | null {
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (programId === TOKEN_PROGRAM_ID.toBase58() && bytes.length === 10 && bytes[0] === 12) {
    const [source, mint, destination, authority] = accounts;
    return {
      program: 'spl-token',
      parsed: {
        type: 'transferChecked',
        info: {
          source,
          mint,
          destination,
          authority,
          tokenAmount: uiTokenAmount(bytes.readBigUInt64LE(1), bytes[9] ?? 0),
        },
      },
    };
  }
  if (
    programId === ASSOCIATED_TOKEN_PROGRAM_ID.toBase58() &&
    accounts.length >= 6 &&
    (bytes.length === 0 || (bytes.length === 1 && bytes[0]! <= 1))
  ) {
    const [source, account, wallet, mint, systemProgram, tokenProgram] = accounts;
    return {
      program: 'spl-associated-token-account',
      parsed: {
        type: bytes[0] === 1 ? 'createIdempotent' : 'create',
        info: { source, account, wallet, mint, systemProgram, tokenProgram },
      },
    };
  }
  return null;
}
