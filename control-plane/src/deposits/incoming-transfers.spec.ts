import { Keypair } from '@solana/web3.js';
import {
  incomingTransfers,
  TOKEN_2022_PROGRAM,
  TOKEN_PROGRAM,
  touchedAddresses,
  type TokenBalance,
  type TxBalances,
} from './incoming-transfers';

const key = () => Keypair.generate().publicKey.toBase58();
const USDC = key();
const USDT = key();
const accepted = { usdcMint: USDC, usdtMint: USDT };
const ours = key();
const theirs = key();
const exchange = key();
const watched = new Set([ours, theirs]);

function tx(parts: Partial<TxBalances>): TxBalances {
  return {
    signature: 'sig',
    slot: 7,
    blockTime: null,
    failed: false,
    accountKeys: [],
    signers: [],
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    ...parts,
  };
}

function token(
  accountIndex: number,
  owner: string,
  amount: bigint,
  mint = USDC,
  programId: string | null = TOKEN_PROGRAM,
): TokenBalance {
  return { accountIndex, mint, owner, programId, amount, decimals: 6 };
}

describe('incomingTransfers', () => {
  it('should see a SOL transfer by the address balance going up, for an unsigned watched key', () => {
    const found = incomingTransfers(
      tx({
        accountKeys: [exchange, ours, key()],
        signers: [exchange],
        preBalances: [10_000_000_000n, 0n, 1n],
        postBalances: [8_999_995_000n, 1_000_000_000n, 1n],
      }),
      watched,
      accepted,
    );
    expect(found).toEqual([
      expect.objectContaining({
        address: ours,
        asset: 'SOL',
        currency: 'SOL',
        baseUnits: 1_000_000_000n,
      }),
    ]);
  });

  it('should credit each watched address of a batch withdrawal (one transaction, many recipients)', () => {
    const found = incomingTransfers(
      tx({
        accountKeys: [exchange, ours, theirs],
        signers: [exchange],
        preBalances: [9n ** 12n, 5n, 0n],
        postBalances: [9n ** 12n - 300n, 105n, 200n],
      }),
      watched,
      accepted,
    );
    expect(found.map((t) => [t.address, t.baseUnits])).toEqual([
      [ours, 100n],
      [theirs, 200n],
    ]);
  });

  it('should count nothing of a failed transaction, nor what a signing address sent (a sweep)', () => {
    const failed = tx({
      failed: true,
      accountKeys: [exchange, ours],
      preBalances: [10n, 0n],
      postBalances: [5n, 5n],
    });
    expect(incomingTransfers(failed, watched, accepted)).toEqual([]);
    const sweep = tx({
      accountKeys: [key(), ours],
      signers: [ours],
      preBalances: [10n, 5n],
      postBalances: [10n, 6n],
      preTokenBalances: [token(2, ours, 5n)],
      postTokenBalances: [token(2, ours, 9n)],
    });
    expect(incomingTransfers(sweep, watched, accepted)).toEqual([]);
  });

  it('should see a USDC transfer into an account the address owns, counting a new account from zero', () => {
    const found = incomingTransfers(
      tx({
        accountKeys: [exchange, key(), key(), ours],
        signers: [exchange],
        preBalances: [1n, 1n, 0n, 0n],
        postBalances: [1n, 1n, 0n, 0n],
        preTokenBalances: [token(1, exchange, 50_000_000n)],
        postTokenBalances: [token(1, exchange, 25_000_000n), token(2, ours, 25_000_000n)],
      }),
      watched,
      accepted,
    );
    expect(found).toEqual([
      {
        signature: 'sig',
        address: ours,
        asset: USDC,
        currency: 'USDC',
        tokenProgram: TOKEN_PROGRAM,
        baseUnits: 25_000_000n,
        decimals: 6,
        refusedReason: null,
      },
    ]);
  });

  it('should refuse an unknown mint and a Token-2022 account, and sum two accounts of one mint', () => {
    const other = key();
    const found = incomingTransfers(
      tx({
        accountKeys: [exchange, key(), key(), key(), key()],
        signers: [exchange],
        preTokenBalances: [token(1, ours, 1n, USDT), token(2, ours, 0n, USDT)],
        postTokenBalances: [
          token(1, ours, 3n, USDT),
          token(2, ours, 4n, USDT),
          token(3, ours, 9n, other),
          token(4, ours, 8n, other, TOKEN_2022_PROGRAM),
        ],
      }),
      watched,
      accepted,
    );
    expect(found.map((t) => [t.asset, t.currency, t.baseUnits, t.refusedReason])).toEqual([
      [USDT, 'USDT', 6n, null],
      [other, null, 9n, 'unknown_mint'],
      [other, null, 8n, 'token_2022'],
    ]);
  });

  it('should ignore unwatched addresses and balances that went down', () => {
    const found = incomingTransfers(
      tx({
        accountKeys: [exchange, key(), ours],
        signers: [exchange],
        preBalances: [10n, 0n, 9n],
        postBalances: [5n, 5n, 8n],
        preTokenBalances: [token(1, exchange, 9n)],
        postTokenBalances: [token(1, exchange, 4n)],
      }),
      watched,
      accepted,
    );
    expect(found).toEqual([]);
  });

  it('should list keys and token owners as the addresses a transaction touched', () => {
    const owner = key();
    const touched = touchedAddresses(
      tx({ accountKeys: [exchange, ours], postTokenBalances: [token(1, owner, 1n)] }),
    );
    expect(touched.sort()).toEqual([exchange, ours, owner].sort());
  });
});
