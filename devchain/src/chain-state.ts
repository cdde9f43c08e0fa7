import { getBase58Decoder } from '@solana/kit';
import { VersionedTransaction } from '@solana/web3.js';
import type { TokenBalance, TransactionRecord } from './chain';
import type { TransactionErrorJson } from './transaction-error';

/** A landed transaction as saved: its wire bytes and what execution produced. */
export interface SavedRecord {
  wire: string;
  slot: number;
  blockTime: number;
  err: TransactionErrorJson | null;
  preBalances: number[];
  postBalances: number[];
  /** Absent in state files written before the test mints (no token accounts then). */
  preTokenBalances?: TokenBalance[];
  postTokenBalances?: TokenBalance[];
  fee: number;
  logMessages: string[];
  computeUnitsConsumed: number;
}

/** A chain as `--state-file` keeps it between runs. */
export interface SavedChain {
  version: 1;
  genesisHash: string;
  slot: number;
  faucetSecretKey: number[];
  /** litesvm's own serialization of every account (base64). */
  svm: string;
  records: SavedRecord[];
}

const base58 = getBase58Decoder();

/** The parts of a record that come from the signed transaction itself. */
export function describeTransaction(wire: Uint8Array, transaction: VersionedTransaction) {
  const signatures = transaction.signatures.map((signature) => base58.decode(signature));
  return {
    signature: signatures[0] ?? '',
    signatures,
    wire,
    message: transaction.message,
    accountKeys: transaction.message.staticAccountKeys.map((key) => key.toBase58()),
  };
}

export function saveRecord(record: TransactionRecord): SavedRecord {
  return {
    wire: Buffer.from(record.wire).toString('base64'),
    slot: record.slot,
    blockTime: record.blockTime,
    err: record.err,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    fee: record.fee,
    logMessages: record.logMessages,
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
}

export function restoreRecord(saved: SavedRecord): TransactionRecord {
  const wire = new Uint8Array(Buffer.from(saved.wire, 'base64'));
  const { wire: _wire, preTokenBalances = [], postTokenBalances = [], ...fields } = saved;
  return {
    ...fields,
    preTokenBalances,
    postTokenBalances,
    ...describeTransaction(wire, VersionedTransaction.deserialize(wire)),
  };
}
