import {
  Keypair,
  PublicKey,
  SystemProgram,
  Transaction,
  type TransactionInstruction,
} from '@solana/web3.js';
import type { Chain } from './chain';
import {
  TEST_TOKENS,
  TEST_TOKEN_DECIMALS,
  associatedTokenAddress,
  createAssociatedTokenAccountIdempotent,
  mintTo,
  readTokenAccount,
  transferChecked,
  uiTokenAmount,
  type TestToken,
} from './spl-token';
import { describeError } from './transaction-error';

/** A Solana Pay transfer request (docs.solanapay.com/spec: `solana:<recipient>?amount=..&reference=..`). */
export interface TransferRequest {
  recipient: PublicKey;
  /** The decimal amount as written (SOL, or token units with `splToken`). */
  amount: string;
  /** The mint of an SPL token transfer; null for SOL. */
  splToken: PublicKey | null;
  references: PublicKey[];
  label?: string;
  message?: string;
}

export class DemoWalletError extends Error {}

const SOL_DECIMALS = 9;
/** Solana Pay: a decimal amount, a leading 0 below 1, at most 9 decimals (lamports). */
const AMOUNT = /^(0|[1-9]\d{0,9})(\.\d{1,9})?$/;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const KNOWN_FIELDS = new Set(['amount', 'spl-token', 'reference', 'label', 'message', 'memo']);

function publicKey(value: string, what: string): PublicKey {
  if (!BASE58_KEY.test(value)) throw new DemoWalletError(`${what} is not a base58 public key`);
  try {
    const key = new PublicKey(value);
    if (key.toBase58() !== value) throw new Error('not canonical');
    return key;
  } catch {
    throw new DemoWalletError(`${what} is not a base58 public key`);
  }
}

export function parseTransferRequest(url: unknown): TransferRequest {
  if (typeof url !== 'string' || !url.startsWith('solana:'))
    throw new DemoWalletError('url must be a solana: transfer request');
  const rest = url.slice('solana:'.length);
  const query = rest.indexOf('?');
  const recipient = publicKey(
    decodeURIComponent(query < 0 ? rest : rest.slice(0, query)),
    'recipient',
  );
  const fields = new URLSearchParams(query < 0 ? '' : rest.slice(query + 1));
  for (const key of fields.keys())
    if (!KNOWN_FIELDS.has(key)) throw new DemoWalletError(`unsupported field: ${key}`);
  if (fields.has('memo')) throw new DemoWalletError('memo is not supported by the demo wallet');
  const amounts = fields.getAll('amount');
  const amount = amounts[0];
  if (amounts.length !== 1 || amount === undefined || !AMOUNT.test(amount))
    throw new DemoWalletError('amount must be one decimal amount with at most 9 decimals');
  if (/^[0.]+$/.test(amount)) throw new DemoWalletError('amount must be greater than 0');
  const splTokens = fields.getAll('spl-token');
  if (splTokens.length > 1) throw new DemoWalletError('spl-token must be given at most once');
  return {
    recipient,
    amount,
    splToken: splTokens[0] === undefined ? null : publicKey(splTokens[0], 'spl-token'),
    references: fields.getAll('reference').map((value) => publicKey(value, 'reference')),
    label: fields.get('label') ?? undefined,
    message: fields.get('message') ?? undefined,
  };
}

/** The amount in base units (lamports, or a token's smallest unit) for these decimals. */
export function baseUnits(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  if (fraction.length > decimals)
    throw new DemoWalletError(`amount has more than the ${decimals} decimals of this currency`);
  return BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
}

/** A test token the demo wallet holds (GET /demo-wallet). */
export interface TokenHolding {
  symbol: TestToken;
  mint: string;
  decimals: number;
  /** The balance in token units (uiAmountString). */
  amount: string;
}

/**
 * The demo wallet ("Pay with the demo wallet"): a keypair of this chain that signs
 * what a phone wallet would for a transfer request: a System Program transfer, or with `spl-token`
 * an SPL Token TransferChecked between associated token accounts, carrying each reference as a
 * read-only, non-signer account key.
 */
export class DemoWallet {
  constructor(
    private readonly chain: Chain,
    readonly keypair: Keypair = Keypair.generate(),
  ) {}

  get address(): string {
    return this.keypair.publicKey.toBase58();
  }

  fund(lamports: number): void {
    const result = this.chain.airdrop(this.keypair.publicKey, lamports);
    if (!result.landed || result.record.err !== null)
      throw new Error('devchain: the demo wallet airdrop failed');
  }

  /**
   * Gives the wallet `units` of each test token (its associated token account, minted by the
   * faucet, the mints' authority) unless it already has that account (a restored chain).
   */
  fundTokens(units: bigint): void {
    const faucet = this.chain.faucet;
    for (const symbol of TEST_TOKENS) {
      const mint = this.chain.testMint(symbol);
      const account = associatedTokenAddress(this.keypair.publicKey, mint);
      if (this.chain.account(account.toBase58())) continue;
      const transaction = new Transaction({
        feePayer: faucet.publicKey,
        recentBlockhash: this.chain.blockhashAt('processed').blockhash,
      }).add(
        createAssociatedTokenAccountIdempotent(faucet.publicKey, this.keypair.publicKey, mint),
        mintTo(mint, account, faucet.publicKey, units),
      );
      transaction.sign(faucet);
      const result = this.chain.send(transaction.serialize());
      if (!result.landed || result.record.err !== null)
        throw new Error(`devchain: minting ${symbol} to the demo wallet failed`);
    }
  }

  balanceLamports(): bigint {
    return this.chain.balance(this.address);
  }

  tokens(): TokenHolding[] {
    return TEST_TOKENS.map((symbol) => {
      const mint = this.chain.testMint(symbol);
      const account = this.chain.account(
        associatedTokenAddress(this.keypair.publicKey, mint).toBase58(),
      );
      const units = account ? readTokenAccount(account.data).amount : 0n;
      return {
        symbol,
        mint: mint.toBase58(),
        decimals: TEST_TOKEN_DECIMALS,
        amount: uiTokenAmount(units, TEST_TOKEN_DECIMALS).uiAmountString,
      };
    });
  }

  /** What a phone wallet signs for the request: a SOL transfer or an SPL Token TransferChecked. */
  private instructions(request: TransferRequest): TransactionInstruction[] {
    const owner = this.keypair.publicKey;
    let transfer: TransactionInstruction;
    const prefix: TransactionInstruction[] = [];
    if (request.splToken === null) {
      transfer = SystemProgram.transfer({
        fromPubkey: owner,
        toPubkey: request.recipient,
        lamports: baseUnits(request.amount, SOL_DECIMALS),
      });
    } else {
      const mint = request.splToken;
      const decimals = this.chain.mintDecimals(mint.toBase58());
      if (decimals === null)
        throw new DemoWalletError(
          `spl-token ${mint.toBase58()} is not a token mint of this chain (the demo wallet holds ${TEST_TOKENS.join(' and ')})`,
        );
      // The recipient's associated token account is created in the same transaction when missing.
      prefix.push(createAssociatedTokenAccountIdempotent(owner, request.recipient, mint));
      transfer = transferChecked(
        associatedTokenAddress(owner, mint),
        mint,
        associatedTokenAddress(request.recipient, mint),
        owner,
        baseUnits(request.amount, decimals),
        decimals,
      );
    }
    for (const reference of request.references)
      transfer.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    return [...prefix, transfer];
  }

  /** Signs and sends the transfer; a transaction that would fail is refused, as a wallet does. */
  pay(request: TransferRequest): string {
    const transaction = new Transaction({
      feePayer: this.keypair.publicKey,
      ...this.chain.blockhashAt('confirmed'),
    }).add(...this.instructions(request));
    transaction.sign(this.keypair);
    const wire = transaction.serialize();
    const simulation = this.chain.simulate(wire);
    if (simulation.err !== null)
      throw new DemoWalletError(`the transfer would fail: ${describeError(simulation.err)}`);
    const result = this.chain.send(wire);
    if (!result.landed)
      throw new DemoWalletError(`the transfer was dropped: ${describeError(result.err)}`);
    return result.record.signature;
  }
}
