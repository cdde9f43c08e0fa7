import type { Chain, TransactionRecord } from './chain';
import { type RpcHandler } from './rpc-methods';
import { RpcError, atLeastConfirmed, configAt, invalidParams, type Config } from './rpc-params';
import { transactionJson, type TransactionEncoding } from './transaction-json';

/** getBlocks' widest range and getBlocksWithLimit's largest limit on real nodes. */
export const MAX_BLOCK_RANGE = 500_000;
const DETAILS = ['full', 'accounts', 'signatures', 'none'] as const;
type Details = (typeof DETAILS)[number];

function slotAt(params: unknown[], index: number, what: string): number {
  const value = params[index];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalidParams(`Invalid params: ${what} must be a slot (a non-negative integer)`);
  return value;
}

/** The slots holding a block from `start` to `end` (both included) that `commitment` sees. */
function blocksBetween(chain: Chain, start: number, end: number, config: Config): number[] {
  const visible = chain.slotAt(atLeastConfirmed(config));
  const slots: number[] = [];
  for (
    let slot = Math.max(start, chain.firstAvailableBlock());
    slot <= Math.min(end, visible);
    slot++
  )
    slots.push(slot);
  return slots;
}

function versionCheck(record: TransactionRecord, maxVersion: unknown): void {
  if (record.message.version === 0 && maxVersion !== 0)
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    );
}

/** A transaction as `transactionDetails: 'accounts'` gives it: its keys and its balances. */
function accountsJson(record: TransactionRecord, withVersion: boolean): Record<string, unknown> {
  return {
    transaction: {
      signatures: record.signatures,
      accountKeys: record.accountKeys.map((pubkey, i) => ({
        pubkey,
        signer: record.message.isAccountSigner(i),
        writable: record.message.isAccountWritable(i),
        source: 'transaction',
      })),
    },
    meta: {
      err: record.err,
      status: record.err === null ? { Ok: null } : { Err: record.err },
      fee: record.fee,
      preBalances: record.preBalances,
      postBalances: record.postBalances,
      preTokenBalances: record.preTokenBalances,
      postTokenBalances: record.postTokenBalances,
    },
    ...(withVersion ? { version: record.message.version } : {}),
  };
}

/**
 * getBlocks, getBlocksWithLimit and getBlock as real nodes answer them
 * (solana.com/docs/rpc/http/getblock): `confirmed` or `finalized` only, every transaction of a
 * block in the order it landed, `transactionDetails` full, accounts, signatures or none.
 */
export function blockHandlers(chain: Chain): Record<string, RpcHandler> {
  return {
    getBlocks(params) {
      const start = slotAt(params, 0, 'start_slot');
      const hasEnd = typeof params[1] === 'number';
      const config = configAt(params, hasEnd ? 2 : 1);
      const end = hasEnd ? slotAt(params, 1, 'end_slot') : chain.slotAt(atLeastConfirmed(config));
      if (end >= start && end - start > MAX_BLOCK_RANGE)
        throw invalidParams(`Slot range too large; max ${MAX_BLOCK_RANGE}`);
      return blocksBetween(chain, start, end, config);
    },
    getBlocksWithLimit(params) {
      const start = slotAt(params, 0, 'start_slot');
      const limit = slotAt(params, 1, 'limit');
      if (limit > MAX_BLOCK_RANGE) throw invalidParams(`Limit too large; max ${MAX_BLOCK_RANGE}`);
      if (limit === 0) return [];
      return blocksBetween(chain, start, start + limit - 1, configAt(params, 2));
    },
    getBlock(params) {
      const slot = slotAt(params, 0, 'slot');
      // The legacy form passes the encoding as a string.
      const config = typeof params[1] === 'string' ? { encoding: params[1] } : configAt(params, 1);
      const commitment = atLeastConfirmed(config);
      const encoding = (config.encoding ?? 'json') as TransactionEncoding;
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding))
        throw invalidParams(`Invalid params: unsupported encoding ${String(encoding)}`);
      const details = (config.transactionDetails ?? 'full') as Details;
      if (!DETAILS.includes(details))
        throw invalidParams(`Invalid params: unknown transactionDetails ${String(details)}`);
      if (slot < chain.firstAvailableBlock())
        throw new RpcError(-32009, `Slot ${slot} was skipped, or missing in long-term storage`);
      const block = chain.block(slot, commitment);
      if (!block) throw new RpcError(-32004, `Block not available for slot ${slot}`);
      const maxVersion = config.maxSupportedTransactionVersion;
      const withVersion = maxVersion !== undefined;
      if (details === 'full' || details === 'accounts')
        for (const record of block.transactions) versionCheck(record, maxVersion);
      const answer: Record<string, unknown> = {
        blockHeight: block.slot,
        blockTime: block.blockTime,
        blockhash: block.blockhash,
        parentSlot: block.parentSlot,
        previousBlockhash: block.previousBlockhash,
      };
      if (details === 'full')
        answer.transactions = block.transactions.map((record) => {
          const { meta, transaction, version } = transactionJson(record, encoding, withVersion);
          return { meta, transaction, ...(withVersion ? { version } : {}) };
        });
      else if (details === 'accounts')
        answer.transactions = block.transactions.map((record) => accountsJson(record, withVersion));
      else if (details === 'signatures')
        answer.signatures = block.transactions.map((record) => record.signature);
      if (config.rewards !== false) answer.rewards = [];
      return answer;
    },
  };
}
