import {
  Connection,
  type ConfirmedTransactionMeta,
  type ParsedMessageAccount,
  type TokenBalance as Web3TokenBalance,
  type VersionedAccountsModeBlockResponse,
} from '@solana/web3.js';
import type { SolanaSettings } from '../config/solana-settings';
import { bounded } from '../withdrawals/payout-chain';
import type { TokenBalance, TxBalances } from './incoming-transfers';
import type { Confirmation } from './solana-chain';

/** A signature's state as getSignatureStatuses answers it; null: the chain does not know it. */
export interface SignatureState {
  confirmation: Confirmation | null;
  failed: boolean;
}

/** getSignatureStatuses takes at most this many signatures per call. */
export const STATUSES_PER_CALL = 256;

/**
 * The chain as per-account deposit addresses read it (docs/deposits.md#watching): blocks, not
 * addresses, so that what the watcher costs does not grow with the number of accounts.
 */
export interface AddressChain {
  /** The newest slot at `confirmed`. */
  confirmedSlot(): Promise<number>;
  /** Slots holding a block, from `start` on, at `confirmed`, at most `limit` of them. */
  blocksFrom(start: number, limit: number): Promise<number[]>;
  /** Every transaction of a confirmed block, as balances (getBlock, transactionDetails accounts). */
  blockTransactions(slot: number): Promise<TxBalances[]>;
  /** One transaction's balances and commitment (for verify), or null when the chain has none. */
  transaction(signature: string): Promise<{ tx: TxBalances; state: SignatureState } | null>;
  /** Each signature's state, at most STATUSES_PER_CALL per call, searching the history. */
  statuses(signatures: readonly string[]): Promise<Array<SignatureState | null>>;
}

export const ADDRESS_CHAIN = Symbol('ADDRESS_CHAIN');

function tokenBalances(balances: Web3TokenBalance[] | null | undefined): TokenBalance[] {
  return (balances ?? []).map((b) => ({
    accountIndex: b.accountIndex,
    mint: b.mint,
    owner: b.owner ?? null,
    programId: b.programId ?? null,
    amount: BigInt(b.uiTokenAmount.amount),
    decimals: b.uiTokenAmount.decimals,
  }));
}

/** The balances of one transaction from its keys (with signer flags) and its meta. */
export function balancesOf(
  signature: string,
  slot: number,
  blockTime: number | null | undefined,
  keys: ParsedMessageAccount[],
  meta: Pick<
    ConfirmedTransactionMeta,
    'err' | 'preBalances' | 'postBalances' | 'preTokenBalances' | 'postTokenBalances'
  > | null,
): TxBalances {
  return {
    signature,
    slot,
    blockTime: blockTime ? new Date(blockTime * 1000) : null,
    failed: meta === null || meta.err !== null,
    accountKeys: keys.map((k) => k.pubkey.toBase58()),
    signers: keys.filter((k) => k.signer).map((k) => k.pubkey.toBase58()),
    preBalances: (meta?.preBalances ?? []).map(BigInt),
    postBalances: (meta?.postBalances ?? []).map(BigInt),
    preTokenBalances: tokenBalances(meta?.preTokenBalances),
    postTokenBalances: tokenBalances(meta?.postTokenBalances),
  };
}

/** @solana/web3.js against SOLANA_RPC_URL; every call bounded as a payout's (PAYOUT_RPC_TIMEOUT_MS). */
export class Web3AddressChain implements AddressChain {
  private readonly connection: Connection;

  constructor(settings: Pick<SolanaSettings, 'rpcUrl'>) {
    this.connection = new Connection(settings.rpcUrl, { commitment: 'confirmed' });
  }

  confirmedSlot(): Promise<number> {
    return bounded(this.connection.getSlot('confirmed'), 'getSlot');
  }

  blocksFrom(start: number, limit: number): Promise<number[]> {
    return bounded(
      this.connection.getBlocks(start, start + limit - 1, 'confirmed'),
      'getBlocks',
    ).then((slots) => slots.slice(0, limit));
  }

  async blockTransactions(slot: number): Promise<TxBalances[]> {
    // web3.js's first overload (full details) wins type inference; the answer is accounts mode.
    const block = (await bounded(
      this.connection.getBlock(slot, {
        commitment: 'confirmed',
        transactionDetails: 'accounts',
        rewards: false,
        maxSupportedTransactionVersion: 0,
      }),
      'getBlock',
    )) as unknown as VersionedAccountsModeBlockResponse | null;
    if (!block) return [];
    return block.transactions.map((t) =>
      balancesOf(
        t.transaction.signatures[0]!,
        slot,
        block.blockTime,
        t.transaction.accountKeys,
        t.meta,
      ),
    );
  }

  async transaction(signature: string): Promise<{ tx: TxBalances; state: SignatureState } | null> {
    const [tx, [state]] = await Promise.all([
      bounded(
        this.connection.getParsedTransaction(signature, {
          commitment: 'confirmed',
          maxSupportedTransactionVersion: 0,
        }),
        'getTransaction',
      ),
      this.statuses([signature]),
    ]);
    if (!tx) return null;
    return {
      tx: balancesOf(signature, tx.slot, tx.blockTime, tx.transaction.message.accountKeys, tx.meta),
      state: state ?? { confirmation: 'confirmed', failed: (tx.meta?.err ?? null) !== null },
    };
  }

  async statuses(signatures: readonly string[]): Promise<Array<SignatureState | null>> {
    if (signatures.length === 0) return [];
    const { value } = await bounded(
      this.connection.getSignatureStatuses([...signatures], { searchTransactionHistory: true }),
      'getSignatureStatuses',
    );
    return value.map((status) =>
      status
        ? { confirmation: status.confirmationStatus ?? null, failed: status.err !== null }
        : null,
    );
  }
}

/** A chain never asked: per-account addresses are off. */
export const ADDRESS_CHAIN_OFF: AddressChain = {
  confirmedSlot: () => Promise.reject(new Error('deposit addresses are off')),
  blocksFrom: () => Promise.reject(new Error('deposit addresses are off')),
  blockTransactions: () => Promise.reject(new Error('deposit addresses are off')),
  transaction: () => Promise.reject(new Error('deposit addresses are off')),
  statuses: () => Promise.reject(new Error('deposit addresses are off')),
};
