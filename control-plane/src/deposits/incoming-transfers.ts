import type { DepositCurrency, DepositRefusal } from '@scn/proto';

/** The SPL Token program: the only token program whose accounts are credited. */
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
/** Token-2022: its accounts can carry transfer fees, hooks and freezes: refused. */
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';

/** A token account among a transaction's keys, as meta.pre/postTokenBalances give it. */
export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string | null;
  programId: string | null;
  amount: bigint;
  decimals: number;
}

/**
 * What a transaction did to balances (meta of getBlock with transactionDetails 'accounts', or
 * of getTransaction): enough to see every transfer to an address, whether a top-level System or
 * Token instruction or one made by another program (an exchange's batch withdrawal).
 */
export interface TxBalances {
  signature: string;
  slot: number;
  blockTime: Date | null;
  failed: boolean;
  accountKeys: string[];
  /** Keys that signed: an address that signed spent from itself (a sweep), never received. */
  signers: string[];
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
}

/** One asset received by one watched address in one transaction. */
export interface IncomingTransfer {
  signature: string;
  address: string;
  /** 'SOL' or the SPL mint. */
  asset: string;
  currency: DepositCurrency | null;
  tokenProgram: string | null;
  baseUnits: bigint;
  decimals: number;
  refusedReason: DepositRefusal | null;
}

export interface AcceptedMints {
  usdcMint: string | null;
  usdtMint: string | null;
}

function currencyOf(mint: string, accepted: AcceptedMints): DepositCurrency | null {
  if (mint === accepted.usdcMint) return 'USDC';
  if (mint === accepted.usdtMint) return 'USDT';
  return null;
}

/** Every address a transaction touched that may be a deposit address (keys and token owners). */
export function touchedAddresses(tx: TxBalances): string[] {
  const owners = [...tx.preTokenBalances, ...tx.postTokenBalances].flatMap((b) =>
    b.owner ? [b.owner] : [],
  );
  return [...new Set([...tx.accountKeys, ...owners])];
}

/**
 * docs/deposits.md#what-counts-as-a-deposit: the net amount each watched address received, per
 * asset, from the transaction's balances. SOL: the address's own lamports went up and it did not
 * sign. Tokens: the amount held in token accounts the address owns went up (summed over its
 * accounts of that mint) and the address did not sign; a Token-2022 account or a mint other
 * than USDC and USDT is reported refused, never credited. A failed transaction moved nothing.
 */
export function incomingTransfers(
  tx: TxBalances,
  watched: ReadonlySet<string>,
  accepted: AcceptedMints,
): IncomingTransfer[] {
  if (tx.failed) return [];
  const signers = new Set(tx.signers);
  const found: IncomingTransfer[] = [];
  tx.accountKeys.forEach((address, index) => {
    if (!watched.has(address) || signers.has(address)) return;
    const delta = (tx.postBalances[index] ?? 0n) - (tx.preBalances[index] ?? 0n);
    if (delta <= 0n) return;
    found.push({
      signature: tx.signature,
      address,
      asset: 'SOL',
      currency: 'SOL',
      tokenProgram: null,
      baseUnits: delta,
      decimals: 9,
      refusedReason: null,
    });
  });
  // Per (owner, mint): what its accounts hold after minus before (an account it did not own
  // before counts from zero, one it no longer owns counts as zero).
  const held = new Map<string, { owner: string; balance: TokenBalance; delta: bigint }>();
  const add = (balance: TokenBalance, sign: 1n | -1n) => {
    if (!balance.owner || !watched.has(balance.owner) || signers.has(balance.owner)) return;
    const key = `${balance.owner} ${balance.mint} ${balance.programId ?? ''}`;
    const entry = held.get(key) ?? { owner: balance.owner, balance, delta: 0n };
    entry.delta += sign * balance.amount;
    held.set(key, entry);
  };
  tx.preTokenBalances.forEach((b) => add(b, -1n));
  tx.postTokenBalances.forEach((b) => add(b, 1n));
  for (const { owner, balance, delta } of held.values()) {
    if (delta <= 0n) continue;
    const currency = currencyOf(balance.mint, accepted);
    const program = balance.programId ?? TOKEN_PROGRAM;
    const refusedReason: DepositRefusal | null =
      program === TOKEN_2022_PROGRAM ? 'token_2022' : currency ? null : 'unknown_mint';
    found.push({
      signature: tx.signature,
      address: owner,
      asset: balance.mint,
      currency: refusedReason ? null : currency,
      tokenProgram: program,
      baseUnits: delta,
      decimals: balance.decimals,
      refusedReason,
    });
  }
  return found;
}
