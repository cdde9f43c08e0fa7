import { PublicKey } from '@solana/web3.js';
import { type PayoutChain, Web3PayoutChain, bounded } from '../withdrawals/payout-chain';
import { TOKEN_PROGRAM_ID } from './deposit-sweep-transaction';

/** One SPL Token account an address owns, as the sweep reads it. */
export interface OwnedTokenAccount {
  address: string;
  mint: string;
  amount: bigint;
  decimals: number;
}

/**
 * The chain as sweeps use it: the payouts' calls (blockhash, send, statuses, finalized height)
 * plus the balances of a deposit address. Every call is bounded like a payout's.
 */
export interface SweepChain extends PayoutChain {
  /** The address's lamports at `confirmed` (0 when the account does not exist). */
  lamports(address: string): Promise<bigint>;
  /** Its accounts of the SPL Token program (never Token-2022: that program is not asked). */
  tokenAccounts(owner: string): Promise<OwnedTokenAccount[]>;
}

export const SWEEP_CHAIN = Symbol('SWEEP_CHAIN');

const off = (): Promise<never> => Promise.reject(new Error('sweeps are off'));
/** A chain never asked: sweeps are off (their job does not start). */
export const SWEEP_CHAIN_OFF: SweepChain = {
  latestBlockhash: off,
  simulate: off,
  send: off,
  statuses: off,
  finalizedBlockHeight: off,
  lamports: off,
  tokenAccounts: off,
};

interface ParsedTokenAccount {
  parsed?: {
    type?: string;
    info?: { mint?: string; tokenAmount?: { amount?: string; decimals?: number } };
  };
}

/** @solana/web3.js against SOLANA_RPC_URL. */
export class Web3SweepChain extends Web3PayoutChain implements SweepChain {
  async lamports(address: string): Promise<bigint> {
    const balance = await bounded(
      this.connection.getBalance(new PublicKey(address), 'confirmed'),
      'getBalance',
    );
    return BigInt(balance);
  }

  async tokenAccounts(owner: string): Promise<OwnedTokenAccount[]> {
    const answer = await bounded(
      this.connection.getParsedTokenAccountsByOwner(
        new PublicKey(owner),
        { programId: TOKEN_PROGRAM_ID },
        'confirmed',
      ),
      'getTokenAccountsByOwner',
    );
    const accounts: OwnedTokenAccount[] = [];
    for (const { pubkey, account } of answer.value) {
      // Only accounts the Token program owns are swept (a reply of another program is skipped).
      if (!account.owner.equals(TOKEN_PROGRAM_ID)) continue;
      const info = (account.data as ParsedTokenAccount).parsed?.info;
      const amount = info?.tokenAmount?.amount;
      const decimals = info?.tokenAmount?.decimals;
      if (!info?.mint || amount === undefined || decimals === undefined) continue;
      accounts.push({
        address: pubkey.toBase58(),
        mint: info.mint,
        amount: BigInt(amount),
        decimals,
      });
    }
    return accounts;
  }
}
