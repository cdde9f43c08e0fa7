import type { Chain } from './chain';
import { type RpcHandler } from './rpc-methods';
import {
  RpcError,
  addressAt,
  commitmentOf,
  configAt,
  contextOf,
  invalidParams,
  type Config,
} from './rpc-params';
import {
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM_ID,
  readTokenAccount,
  uiTokenAmount,
} from './spl-token';
import { PublicKey } from '@solana/web3.js';

const TOKEN_PROGRAM = TOKEN_PROGRAM_ID.toBase58();

/**
 * An SPL Token account or mint as real nodes parse it for `jsonParsed`
 * (solana.com/docs/rpc/http/gettokenaccountsbyowner), or null for other accounts.
 */
export function parsedTokenData(chain: Chain, owner: string, data: Uint8Array) {
  if (owner !== TOKEN_PROGRAM) return null;
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (data.length === TOKEN_ACCOUNT_SIZE) {
    const { mint, owner: holder, amount } = readTokenAccount(data);
    const decimals = chain.mintDecimals(mint);
    if (decimals === null) return null;
    return {
      program: 'spl-token',
      parsed: {
        info: {
          isNative: bytes[109] === 1,
          mint,
          owner: holder,
          state: bytes[108] === 2 ? 'frozen' : 'initialized',
          tokenAmount: uiTokenAmount(amount, decimals),
        },
        type: 'account',
      },
      space: TOKEN_ACCOUNT_SIZE,
    };
  }
  if (data.length === MINT_SIZE && bytes[45] === 1) {
    const authority = (at: number) =>
      bytes.readUInt32LE(at) === 1
        ? new PublicKey(bytes.subarray(at + 4, at + 36)).toBase58()
        : null;
    return {
      program: 'spl-token',
      parsed: {
        info: {
          decimals: bytes[44],
          freezeAuthority: authority(46),
          isInitialized: true,
          mintAuthority: authority(0),
          supply: bytes.readBigUInt64LE(36).toString(),
        },
        type: 'mint',
      },
      space: MINT_SIZE,
    };
  }
  return null;
}

function filterMint(chain: Chain, filter: unknown): string | undefined {
  const { mint, programId } = (filter ?? {}) as { mint?: unknown; programId?: unknown };
  if (typeof mint === 'string') {
    const address = addressAt([mint], 0).toBase58();
    if (chain.mintDecimals(address) === null)
      throw invalidParams('Invalid param: could not find mint');
    return address;
  }
  if (typeof programId === 'string') {
    if (programId !== TOKEN_PROGRAM)
      throw invalidParams('Invalid param: unrecognized Token program id');
    return undefined;
  }
  throw invalidParams('Invalid params: expected { mint } or { programId }');
}

/** getTokenAccountsByOwner and getTokenAccountBalance (SPL Token, not Token-2022). */
export function tokenHandlers(
  chain: Chain,
  accountJson: (address: string, config: Config) => unknown,
): Record<string, RpcHandler> {
  return {
    getTokenAccountsByOwner(params) {
      const owner = addressAt(params, 0).toBase58();
      const mint = filterMint(chain, params[1]);
      const config = configAt(params, 2);
      return {
        context: contextOf(chain, commitmentOf(config), config),
        value: chain.tokenAccountsOf(owner, mint).map(({ address }) => ({
          pubkey: address,
          account: accountJson(address, config),
        })),
      };
    },
    getTokenAccountBalance(params) {
      const address = addressAt(params, 0).toBase58();
      const config = configAt(params, 1);
      const account = chain.account(address);
      const parsed = account && parsedTokenData(chain, account.programAddress, account.data);
      if (!parsed || parsed.parsed.type !== 'account')
        throw new RpcError(-32602, 'Invalid param: not a Token account');
      return {
        context: contextOf(chain, commitmentOf(config), config),
        value: (parsed.parsed.info as { tokenAmount: unknown }).tokenAmount,
      };
    },
  };
}
