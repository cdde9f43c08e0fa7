import { createHash } from 'node:crypto';
import {
  Connection,
  PublicKey,
  SystemProgram,
  Transaction,
  VersionedTransaction,
} from '@solana/web3.js';
import type { SolanaSettings } from '../config/solana-settings';
import type { TreasuryKey } from '../config/withdrawal-settings';
import type { PayoutStatus } from './withdrawal-rules';
import type { SignedPayout } from './withdrawals.repository';

/** How long one RPC call may take before the worker gives up on this tick (and tries again). */
export const PAYOUT_RPC_TIMEOUT_MS = 10_000;

/** The chain as payouts use it; every call is bounded by PAYOUT_RPC_TIMEOUT_MS. */
export interface PayoutChain {
  /** A recent blockhash (at `confirmed`) and the last block height it can land in. */
  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }>;
  /** Runs the transaction without sending it anywhere: its error (as text), or null. */
  simulate(wire: Buffer): Promise<string | null>;
  /** Sends it once, without preflight and without the RPC's own retries (the worker resends). */
  send(wire: Buffer): Promise<void>;
  /** The state of each signature, searching the whole history; null: not known. */
  statuses(signatures: readonly string[]): Promise<Array<PayoutStatus | null>>;
  /** The newest finalized block height. */
  finalizedBlockHeight(): Promise<number>;
}

export const PAYOUT_CHAIN = Symbol('PAYOUT_CHAIN');

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** Base58 (Bitcoin alphabet) of bytes: how Solana writes a signature. */
export function base58(bytes: Uint8Array): string {
  let value = bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let text = '';
  while (value > 0n) {
    text = BASE58[Number(value % 58n)]! + text;
    value /= 58n;
  }
  for (const byte of bytes) {
    if (byte !== 0) break;
    text = `1${text}`;
  }
  return text;
}

export function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what}: no answer within ${PAYOUT_RPC_TIMEOUT_MS} ms`)),
      PAYOUT_RPC_TIMEOUT_MS,
    );
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The reference key of a withdrawal (as a Solana Pay reference): sha256 of its id, added to the
 * transfer as a read-only account. Two payouts of the same amount to the same address signed
 * with the same blockhash would otherwise be the same transaction with the same signature (only
 * one could land); and `getSignaturesForAddress(reference)` finds a withdrawal's payout on chain.
 */
export function payoutReference(withdrawalId: string): PublicKey {
  return new PublicKey(createHash('sha256').update(`scn:withdrawal:${withdrawalId}`).digest());
}

/**
 * The payout: one System Program transfer of `lamports` from the treasury (also the fee payer)
 * to the destination, carrying the withdrawal's reference, signed by the treasury key. Its
 * signature is known before it is sent.
 */
export function signPayout(
  treasury: TreasuryKey,
  payout: { id: string; destination: string; lamports: bigint },
  blockhash: { blockhash: string; lastValidBlockHeight: number },
): SignedPayout {
  const transfer = SystemProgram.transfer({
    fromPubkey: treasury.publicKey,
    toPubkey: new PublicKey(payout.destination),
    lamports: payout.lamports,
  });
  // The System Program reads its first two accounts and ignores the rest.
  transfer.keys.push({ pubkey: payoutReference(payout.id), isSigner: false, isWritable: false });
  const transaction = new Transaction({
    feePayer: treasury.publicKey,
    blockhash: blockhash.blockhash,
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
  }).add(transfer);
  treasury.sign(transaction);
  const wire = transaction.serialize();
  const signature = base58(transaction.signature!);
  return {
    signature,
    blockhash: blockhash.blockhash,
    lastValidBlockHeight: blockhash.lastValidBlockHeight,
    signedTransaction: wire.toString('base64'),
  };
}

/** @solana/web3.js against SOLANA_RPC_URL. */
export class Web3PayoutChain implements PayoutChain {
  protected readonly connection: Connection;

  constructor(settings: SolanaSettings) {
    this.connection = new Connection(settings.rpcUrl, { commitment: 'confirmed' });
  }

  latestBlockhash(): Promise<{ blockhash: string; lastValidBlockHeight: number }> {
    return bounded(this.connection.getLatestBlockhash('confirmed'), 'getLatestBlockhash');
  }

  async simulate(wire: Buffer): Promise<string | null> {
    const transaction = VersionedTransaction.deserialize(wire);
    const result = await bounded(
      this.connection.simulateTransaction(transaction, {
        sigVerify: true,
        commitment: 'confirmed',
      }),
      'simulateTransaction',
    );
    return result.value.err === null ? null : JSON.stringify(result.value.err);
  }

  async send(wire: Buffer): Promise<void> {
    await bounded(
      this.connection.sendRawTransaction(wire, { skipPreflight: true, maxRetries: 0 }),
      'sendTransaction',
    );
  }

  async statuses(signatures: readonly string[]): Promise<Array<PayoutStatus | null>> {
    const answer = await bounded(
      this.connection.getSignatureStatuses([...signatures], { searchTransactionHistory: true }),
      'getSignatureStatuses',
    );
    return answer.value.map((status) =>
      status
        ? {
            failed: status.err !== null,
            error: status.err === null ? null : JSON.stringify(status.err),
            confirmation: status.confirmationStatus ?? null,
          }
        : null,
    );
  }

  finalizedBlockHeight(): Promise<number> {
    return bounded(this.connection.getBlockHeight('finalized'), 'getBlockHeight');
  }
}
