import { getBase58Decoder } from '@solana/kit';
import { VersionedMessage } from '@solana/web3.js';
import { SLOTS_PER_EPOCH, TransactionRejected, type Chain } from './chain';
import {
  API_VERSION,
  RpcError,
  addressAt,
  atLeastConfirmed,
  bytesOf,
  commitmentOf,
  configAt,
  contextOf,
  invalidParams,
  isSignature,
  signatureAt,
} from './rpc-params';
import { blockHandlers } from './block-rpc';
import { describeError } from './transaction-error';
import { parsedTokenData, tokenHandlers } from './token-rpc';
import { transactionJson, type TransactionEncoding } from './transaction-json';

export type RpcHandler = (params: unknown[]) => unknown;

const base58 = getBase58Decoder();
const MAX_SIGNATURES_FOR_ADDRESS = 1000;
const MAX_SIGNATURE_STATUSES = 256;

function accountJson(chain: Chain, address: string, encoding: unknown) {
  const account = chain.account(address);
  if (!account) return null;
  // jsonParsed parses SPL Token accounts and mints; others fall back to base64, as on real nodes.
  const parsed =
    encoding === 'jsonParsed' ? parsedTokenData(chain, account.programAddress, account.data) : null;
  const data =
    parsed ??
    (encoding === 'base58'
      ? [base58.decode(account.data), 'base58']
      : [Buffer.from(account.data).toString('base64'), 'base64']);
  return {
    data,
    executable: account.executable,
    lamports: Number(account.lamports),
    owner: account.programAddress,
    // Every account is rent-exempt since agave 1.16: rentEpoch is u64::MAX (as a JSON number,
    // which JavaScript clients read as 2^64 from a real node too).
    rentEpoch: 2 ** 64,
    space: Number(account.space),
  };
}

function transactionHandlers(chain: Chain): Record<string, RpcHandler> {
  return {
    sendTransaction(params) {
      const config = configAt(params, 1);
      const wire = bytesOf(params[0], config.encoding);
      try {
        if (config.skipPreflight !== true) {
          const simulation = chain.simulate(wire);
          if (simulation.err === 'SignatureFailure')
            throw new RpcError(-32003, 'Transaction signature verification failure');
          if (simulation.err !== null)
            throw new RpcError(
              -32002,
              `Transaction simulation failed: ${describeError(simulation.err)}`,
              {
                accounts: null,
                err: simulation.err,
                innerInstructions: null,
                logs: simulation.logs,
                replacementBlockhash: null,
                returnData: null,
                unitsConsumed: simulation.unitsConsumed,
              },
            );
        }
        const result = chain.send(wire);
        return result.landed ? result.record.signature : result.signature;
      } catch (error) {
        if (error instanceof TransactionRejected) throw invalidParams(error.message);
        throw error;
      }
    },
    simulateTransaction(params) {
      const config = configAt(params, 1);
      const commitment = commitmentOf(config);
      const wire = bytesOf(params[0], config.encoding);
      try {
        const simulation = chain.simulate(wire);
        return {
          context: contextOf(chain, commitment, config),
          value: {
            err: simulation.err,
            logs: simulation.logs,
            accounts: null,
            unitsConsumed: simulation.unitsConsumed,
            returnData: null,
            innerInstructions: null,
            replacementBlockhash: null,
          },
        };
      } catch (error) {
        if (error instanceof TransactionRejected) throw invalidParams(error.message);
        throw error;
      }
    },
    getSignatureStatuses(params) {
      const signatures = params[0];
      if (!Array.isArray(signatures) || signatures.length > MAX_SIGNATURE_STATUSES)
        throw invalidParams(`Invalid params: expected up to ${MAX_SIGNATURE_STATUSES} signatures`);
      const value = signatures.map((signature) => {
        if (!isSignature(signature)) throw invalidParams('Invalid param: Invalid');
        const record = chain.transaction(signature, 'processed');
        if (!record) return null;
        const confirmationStatus = chain.confirmationStatus(record);
        return {
          slot: record.slot,
          confirmations:
            confirmationStatus === 'finalized' ? null : chain.slotAt('processed') - record.slot,
          err: record.err,
          status: record.err === null ? { Ok: null } : { Err: record.err },
          confirmationStatus,
        };
      });
      return { context: contextOf(chain, 'processed'), value };
    },
    getTransaction(params) {
      const signature = signatureAt(params, 0);
      // The legacy form passes the encoding as a string.
      const config = typeof params[1] === 'string' ? { encoding: params[1] } : configAt(params, 1);
      const commitment = atLeastConfirmed(config);
      const encoding = (config.encoding ?? 'json') as TransactionEncoding;
      if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding))
        throw invalidParams(`Invalid params: unsupported encoding ${String(encoding)}`);
      const record = chain.transaction(signature, commitment);
      if (!record) return null;
      const maxVersion = config.maxSupportedTransactionVersion;
      if (record.message.version === 0 && maxVersion !== 0)
        throw new RpcError(
          -32015,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        );
      return transactionJson(record, encoding, maxVersion !== undefined);
    },
    getSignaturesForAddress(params) {
      const address = addressAt(params, 0).toBase58();
      const config = configAt(params, 1);
      const commitment = atLeastConfirmed(config);
      const limit = config.limit ?? MAX_SIGNATURES_FOR_ADDRESS;
      if (
        typeof limit !== 'number' ||
        !Number.isInteger(limit) ||
        limit < 1 ||
        limit > MAX_SIGNATURES_FOR_ADDRESS
      )
        throw invalidParams('Invalid limit; max 1000');
      for (const key of ['before', 'until'])
        if (config[key] !== undefined && !isSignature(config[key]))
          throw invalidParams('Invalid param: Invalid');
      contextOf(chain, commitment, config);
      let found = chain.transactionsFor(address, commitment);
      if (typeof config.before === 'string') {
        const at = found.findIndex((record) => record.signature === config.before);
        found = at < 0 ? [] : found.slice(at + 1);
      }
      if (typeof config.until === 'string') {
        const at = found.findIndex((record) => record.signature === config.until);
        if (at >= 0) found = found.slice(0, at);
      }
      return found.slice(0, limit).map((record) => ({
        signature: record.signature,
        slot: record.slot,
        err: record.err,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: chain.confirmationStatus(record),
      }));
    },
    requestAirdrop(params) {
      const to = addressAt(params, 0);
      const lamports = params[1];
      if (typeof lamports !== 'number' || !Number.isSafeInteger(lamports) || lamports <= 0)
        throw invalidParams('Invalid params: lamports must be a positive integer');
      const result = chain.airdrop(to, lamports);
      if (result.landed && result.record.err === null) return result.record.signature;
      const err = result.landed ? result.record.err : result.err;
      throw new RpcError(-32600, `airdrop request failed: ${describeError(err ?? 'unknown')}`);
    },
    getFeeForMessage(params) {
      const config = configAt(params, 1);
      const commitment = commitmentOf(config);
      let message: VersionedMessage;
      try {
        message = VersionedMessage.deserialize(bytesOf(params[0], 'base64'));
      } catch (error) {
        if (error instanceof RpcError) throw error;
        throw invalidParams('Invalid params: invalid message');
      }
      const valid = chain.isBlockhashValid(message.recentBlockhash, 'processed');
      return {
        context: contextOf(chain, commitment, config),
        value: valid ? chain.feeFor(message) : null,
      };
    },
  };
}

function stateHandlers(chain: Chain): Record<string, RpcHandler> {
  const withContext = (config: Record<string, unknown>, value: unknown) => ({
    context: contextOf(chain, commitmentOf(config), config),
    value,
  });
  return {
    getLatestBlockhash(params) {
      const config = configAt(params, 0);
      return withContext(config, chain.blockhashAt(commitmentOf(config)));
    },
    isBlockhashValid(params) {
      const config = configAt(params, 1);
      if (typeof params[0] !== 'string')
        throw invalidParams('Invalid params: expected a blockhash');
      return withContext(config, chain.isBlockhashValid(params[0], commitmentOf(config)));
    },
    getBalance(params) {
      const address = addressAt(params, 0).toBase58();
      return withContext(configAt(params, 1), Number(chain.balance(address)));
    },
    getAccountInfo(params) {
      const address = addressAt(params, 0).toBase58();
      const config = configAt(params, 1);
      return withContext(config, accountJson(chain, address, config.encoding));
    },
    getMultipleAccounts(params) {
      const keys = params[0];
      if (!Array.isArray(keys) || keys.length > 100)
        throw invalidParams('Invalid params: expected up to 100 addresses');
      const config = configAt(params, 1);
      return withContext(
        config,
        keys.map((_, i) => accountJson(chain, addressAt(keys, i).toBase58(), config.encoding)),
      );
    },
    getMinimumBalanceForRentExemption(params) {
      const length = params[0];
      if (typeof length !== 'number' || !Number.isInteger(length) || length < 0)
        throw invalidParams('Invalid params: expected a data length');
      return Number(chain.minimumBalanceForRentExemption(length));
    },
    getSlot: (params) => chain.slotAt(commitmentOf(configAt(params, 0))),
    getBlockHeight: (params) => chain.slotAt(commitmentOf(configAt(params, 0))),
    getTransactionCount: () => chain.transactionCount(),
    getEpochInfo(params) {
      const slot = chain.slotAt(commitmentOf(configAt(params, 0)));
      return {
        absoluteSlot: slot,
        blockHeight: slot,
        epoch: Math.floor(slot / SLOTS_PER_EPOCH),
        slotIndex: slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: chain.transactionCount(),
      };
    },
    getEpochSchedule: () => ({
      firstNormalEpoch: 0,
      firstNormalSlot: 0,
      leaderScheduleSlotOffset: SLOTS_PER_EPOCH,
      slotsPerEpoch: SLOTS_PER_EPOCH,
      warmup: false,
    }),
    getGenesisHash: () => chain.genesisHash,
    getVersion: () => ({ 'solana-core': API_VERSION, 'feature-set': 0 }),
    getHealth: () => 'ok',
    getRecentPrioritizationFees: () => {
      const slot = chain.slotAt('processed');
      return [{ slot, prioritizationFee: 0 }];
    },
  };
}

/** Every JSON-RPC method devchain answers, by name. */
export function rpcMethods(chain: Chain): Record<string, RpcHandler> {
  return {
    ...transactionHandlers(chain),
    ...stateHandlers(chain),
    ...blockHandlers(chain),
    ...tokenHandlers(chain, (address, config) => accountJson(chain, address, config.encoding)),
  };
}
