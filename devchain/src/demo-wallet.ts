import { Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import type { Chain } from './chain';
import { describeError } from './transaction-error';

/** A Solana Pay transfer request (docs.solanapay.com/spec: `solana:<recipient>?amount=..&reference=..`). */
export interface TransferRequest {
  recipient: PublicKey;
  lamports: bigint;
  references: PublicKey[];
  label?: string;
  message?: string;
}

export class DemoWalletError extends Error {}

const LAMPORTS_PER_SOL = 1_000_000_000n;
/** Solana Pay: a decimal SOL amount, a leading 0 below 1, at most 9 decimals (lamports). */
const AMOUNT = /^(0|[1-9]\d{0,9})(\.\d{1,9})?$/;
const BASE58_KEY = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
const KNOWN_FIELDS = new Set(['amount', 'reference', 'label', 'message', 'memo']);

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
    throw new DemoWalletError('amount must be one decimal SOL amount with at most 9 decimals');
  const [whole = '0', fraction = ''] = amount.split('.');
  const lamports = BigInt(whole) * LAMPORTS_PER_SOL + BigInt(fraction.padEnd(9, '0'));
  if (lamports <= 0n) throw new DemoWalletError('amount must be greater than 0');
  return {
    recipient,
    lamports,
    references: fields.getAll('reference').map((value) => publicKey(value, 'reference')),
    label: fields.get('label') ?? undefined,
    message: fields.get('message') ?? undefined,
  };
}

/**
 * The demo wallet ("Pay with the demo wallet", issue 17 §3): a keypair of this chain that signs
 * what a phone wallet would for a transfer request: a System Program transfer carrying each
 * reference as a read-only, non-signer account key.
 */
export class DemoWallet {
  readonly keypair = Keypair.generate();

  constructor(private readonly chain: Chain) {}

  get address(): string {
    return this.keypair.publicKey.toBase58();
  }

  fund(lamports: number): void {
    const result = this.chain.airdrop(this.keypair.publicKey, lamports);
    if (!result.landed || result.record.err !== null)
      throw new Error('devchain: the demo wallet airdrop failed');
  }

  balanceLamports(): bigint {
    return this.chain.balance(this.address);
  }

  /** Signs and sends the transfer; a transaction that would fail is refused, as a wallet does. */
  pay(request: TransferRequest): string {
    const instruction = SystemProgram.transfer({
      fromPubkey: this.keypair.publicKey,
      toPubkey: request.recipient,
      lamports: request.lamports,
    });
    for (const reference of request.references)
      instruction.keys.push({ pubkey: reference, isSigner: false, isWritable: false });
    const transaction = new Transaction({
      feePayer: this.keypair.publicKey,
      ...this.chain.blockhashAt('confirmed'),
    }).add(instruction);
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
