import { Keypair, Transaction } from '@solana/web3.js';
import { base58, type PayoutChain } from '../../src/withdrawals/payout-chain';
import type { PayoutStatus } from '../../src/withdrawals/withdrawal-rules';

/**
 * A scripted chain for the payout worker's specs: what it was asked to simulate and send (the
 * exact bytes), the statuses a test sets, and a finalized block height a test moves.
 */
export class FakePayoutChain implements PayoutChain {
  finalizedHeight = 1_000;
  readonly statusOf = new Map<string, PayoutStatus>();
  readonly simulated: string[] = [];
  /** Every send, as base64 wire bytes. */
  readonly sent: string[] = [];
  simulateError: string | null = null;
  /** The next sends fail as a lost connection would (the bytes may or may not have left). */
  failSends = 0;
  /** Holds latestBlockhash until released (to overlap two runs). */
  gate: Promise<void> | null = null;

  async latestBlockhash() {
    if (this.gate) await this.gate;
    return {
      blockhash: Keypair.generate().publicKey.toBase58(),
      lastValidBlockHeight: this.finalizedHeight + 150,
    };
  }

  simulate(wire: Buffer): Promise<string | null> {
    this.simulated.push(wire.toString('base64'));
    return Promise.resolve(this.simulateError);
  }

  send(wire: Buffer): Promise<void> {
    if (this.failSends > 0) {
      this.failSends -= 1;
      return Promise.reject(new Error('socket hang up'));
    }
    this.sent.push(wire.toString('base64'));
    return Promise.resolve();
  }

  statuses(signatures: readonly string[]): Promise<Array<PayoutStatus | null>> {
    return Promise.resolve(signatures.map((signature) => this.statusOf.get(signature) ?? null));
  }

  finalizedBlockHeight(): Promise<number> {
    return Promise.resolve(this.finalizedHeight);
  }

  /** The signature of sent bytes. */
  static signatureOf(wire: string): string {
    return base58(Transaction.from(Buffer.from(wire, 'base64')).signature!);
  }
}
