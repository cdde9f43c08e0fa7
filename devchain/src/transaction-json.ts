import { getBase58Decoder } from '@solana/kit';
import { SystemProgram } from '@solana/web3.js';
import type { TransactionRecord } from './chain';
import { parseTokenInstruction } from './spl-token';

/** getTransaction's `encoding` values devchain answers. */
export type TransactionEncoding = 'json' | 'jsonParsed' | 'base64' | 'base58';

const base58 = getBase58Decoder();
const SYSTEM_PROGRAM = SystemProgram.programId.toBase58();

function isWritable(record: TransactionRecord, index: number): boolean {
  return record.message.isAccountWritable(index);
}

function isSigner(record: TransactionRecord, index: number): boolean {
  return record.message.isAccountSigner(index);
}

/** A System Program instruction as real nodes parse it (`transfer` only; others stay raw). */
function parseSystemInstruction(
  data: Uint8Array,
  accounts: string[],
): Record<string, unknown> | null {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  // SystemInstruction::Transfer = 2: u32 discriminant, u64 lamports; accounts [from, to].
  if (data.length === 12 && view.getUint32(0, true) === 2 && accounts.length >= 2)
    return {
      type: 'transfer',
      info: {
        source: accounts[0],
        destination: accounts[1],
        lamports: Number(view.getBigUint64(4, true)),
      },
    };
  return null;
}

function meta(record: TransactionRecord, parsed: boolean): Record<string, unknown> {
  return {
    err: record.err,
    status: record.err === null ? { Ok: null } : { Err: record.err },
    fee: record.fee,
    preBalances: record.preBalances,
    postBalances: record.postBalances,
    innerInstructions: [],
    logMessages: record.logMessages,
    preTokenBalances: record.preTokenBalances,
    postTokenBalances: record.postTokenBalances,
    rewards: [],
    ...(parsed ? {} : { loadedAddresses: { writable: [], readonly: [] } }),
    computeUnitsConsumed: record.computeUnitsConsumed,
  };
}

function jsonMessage(record: TransactionRecord): Record<string, unknown> {
  const { message } = record;
  return {
    accountKeys: record.accountKeys,
    header: message.header,
    instructions: message.compiledInstructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accountKeyIndexes,
      data: base58.decode(ix.data),
      stackHeight: null,
    })),
    recentBlockhash: message.recentBlockhash,
    ...(message.version === 0 ? { addressTableLookups: [] } : {}),
  };
}

function parsedMessage(record: TransactionRecord): Record<string, unknown> {
  const { message } = record;
  return {
    accountKeys: record.accountKeys.map((pubkey, i) => ({
      pubkey,
      signer: isSigner(record, i),
      writable: isWritable(record, i),
      source: 'transaction',
    })),
    instructions: message.compiledInstructions.map((ix) => {
      const programId = record.accountKeys[ix.programIdIndex] ?? '';
      const accounts = ix.accountKeyIndexes.map((i) => record.accountKeys[i] ?? '');
      const parsed =
        programId === SYSTEM_PROGRAM ? parseSystemInstruction(ix.data, accounts) : null;
      if (parsed) return { program: 'system', programId, parsed, stackHeight: null };
      const token = parseTokenInstruction(programId, ix.data, accounts);
      return token
        ? { ...token, programId, stackHeight: null }
        : { programId, accounts, data: base58.decode(ix.data), stackHeight: null };
    }),
    recentBlockhash: message.recentBlockhash,
    ...(message.version === 0 ? { addressTableLookups: [] } : {}),
  };
}

/** getTransaction's result (solana.com/docs/rpc/http/gettransaction). */
export function transactionJson(
  record: TransactionRecord,
  encoding: TransactionEncoding,
  withVersion: boolean,
): Record<string, unknown> {
  let transaction: unknown;
  if (encoding === 'base64') transaction = [Buffer.from(record.wire).toString('base64'), 'base64'];
  else if (encoding === 'base58') transaction = [base58.decode(record.wire), 'base58'];
  else
    transaction = {
      signatures: record.signatures,
      message: encoding === 'jsonParsed' ? parsedMessage(record) : jsonMessage(record),
    };
  return {
    slot: record.slot,
    blockTime: record.blockTime,
    meta: meta(record, encoding === 'jsonParsed'),
    transaction,
    ...(withVersion ? { version: record.message.version } : {}),
  };
}
