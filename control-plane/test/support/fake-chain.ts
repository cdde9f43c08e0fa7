import type {
  ChainTransaction,
  DepositChain,
  SignatureSeen,
} from '../../src/deposits/solana-chain';

/**
 * An in-memory chain for specs: transactions as verification sees them, listed for every
 * address among their account keys, newest first (as getSignaturesForAddress answers).
 */
export class FakeChain implements DepositChain {
  readonly transactions: ChainTransaction[] = [];
  calls = 0;

  add(tx: ChainTransaction): void {
    this.transactions.push(tx);
  }

  signaturesFor(
    address: string,
    options: { until?: string; before?: string; limit: number },
  ): Promise<SignatureSeen[]> {
    this.calls += 1;
    const newestFirst = this.transactions
      .filter((tx) => tx.accountKeys.includes(address))
      .reverse();
    const from = options.before
      ? newestFirst.findIndex((tx) => tx.signature === options.before) + 1
      : 0;
    const list: SignatureSeen[] = [];
    for (const tx of newestFirst.slice(from)) {
      if (tx.signature === options.until || list.length >= options.limit) break;
      list.push({ signature: tx.signature, confirmation: tx.confirmation, failed: tx.failed });
    }
    return Promise.resolve(list);
  }

  transaction(signature: string): Promise<ChainTransaction | null> {
    this.calls += 1;
    return Promise.resolve(this.transactions.find((tx) => tx.signature === signature) ?? null);
  }
}
