import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Keypair } from '@solana/web3.js';
import { Chain } from './chain';
import { DemoWallet } from './demo-wallet';
import { loadOrCreateKeypair } from './keypair-file';
import { StateSaver, readState, type SavedState } from './state-file';
import { createHandler } from './server';
import { TEST_TOKENS, TEST_TOKEN_DECIMALS, type TestToken } from './spl-token';
import { Subscriptions } from './subscriptions';

export {
  baseUnits,
  parseTransferRequest,
  type TokenHolding,
  type TransferRequest,
} from './demo-wallet';
export {
  TEST_TOKENS,
  TEST_TOKEN_DECIMALS,
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_2022_PROGRAM_ID,
  associatedTokenAddress,
  token2022DepositInstructions,
  type TestToken,
} from './spl-token';
export { loadOrCreateKeypair } from './keypair-file';

export interface DevchainOptions {
  /** The JSON-RPC port; 0 (the default) picks a free one. WebSocket PubSub also answers on port + 1. */
  port?: number;
  /** Loopback by default: the chain has a faucet and a funded demo wallet anyone reaching it can use. */
  host?: string;
  /** How often a new slot begins (default 400 ms, as on real clusters). */
  slotMs?: number;
  /** Slots after which a transaction is finalized (default 32, as on real clusters). */
  finalizeAfterSlots?: number;
  /** Access-Control-Allow-Origin of every answer (default '*'). */
  allowOrigin?: string;
  /**
   * The treasury (deposit address) keypair file, created on first use (Solana CLI format). The
   * chain does not need it; `npm start` keeps it so the treasury's funds could be moved later.
   */
  treasuryKeyFile?: string;
  /**
   * Keeps the chain (accounts, history, slot, faucet, demo wallet) in this file between runs:
   * loaded at start when it exists, saved a second after transactions land and at stop.
   */
  stateFile?: string;
  /** What the demo wallet receives by airdrop at start (default 1,000 SOL). */
  demoWalletLamports?: number;
  /** What the demo wallet receives of each test token at start, in token units (default 10,000). */
  demoWalletTokens?: number;
  /**
   * The chain's wall clock, ms since the epoch (default Date.now): the blockTime of every
   * transaction. Tests that move the control plane's clock give the chain the same one.
   */
  now?: () => number;
}

export interface Devchain {
  /** The JSON-RPC endpoint (http://host:port). */
  url: string;
  /** The PubSub endpoint web3.js derives from `url` (port + 1); `url` itself also upgrades. */
  wsUrl: string;
  /** POST {url: 'solana:...'} pays a transfer request; GET answers {address, balanceLamports}. */
  demoWalletUrl: string;
  demoWalletAddress: string;
  /**
   * The chain's SPL Token test mints (6 decimals, the faucet their mint authority), derived from
   * its genesis hash: the same across restarts with the same `stateFile`.
   */
  testMints: Record<TestToken, string>;
  /** The treasury's public key: `treasuryKeyFile`'s, or a fresh keypair's (kept in memory). */
  treasuryAddress: string;
  /** The same as treasuryAddress (the name of SOLANA_DEPOSIT_ADDRESS). */
  depositAddress: string;
  /** Moves the chain forward now (tests), besides the slot timer. */
  advanceSlots(slots?: number): void;
  stop(): Promise<void>;
}

const DEFAULT_DEMO_WALLET_LAMPORTS = 1_000_000_000_000;
const DEFAULT_DEMO_WALLET_TOKENS = 10_000;

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

const close = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });

/**
 * Binds the RPC port and the PubSub port next to it (web3.js looks for PubSub on port + 1). With
 * port 0, retries until a free port has a free neighbour.
 */
async function bindPair(rpc: Server, pubsub: Server, port: number, host: string) {
  for (let attempt = 0; ; attempt++) {
    const bound = await listen(rpc, port, host);
    try {
      await listen(pubsub, bound + 1, host);
      return bound;
    } catch (error) {
      await close(rpc);
      if (port !== 0 || attempt >= 20) throw error;
    }
  }
}

function restoreChain(
  finalizeAfterSlots: number,
  path?: string,
  saved?: SavedState | null,
  now?: () => number,
) {
  try {
    return new Chain(finalizeAfterSlots, saved?.chain, now);
  } catch (error) {
    // E.g. a state file written by another litesvm version.
    throw new Error(
      `${path}: cannot restore the chain (${(error as Error).message}); delete it to start a new chain`,
    );
  }
}

/** Starts a local Solana chain with its JSON-RPC server. */
export async function startDevchain(options: DevchainOptions = {}): Promise<Devchain> {
  const host = options.host ?? '127.0.0.1';
  const treasury = options.treasuryKeyFile
    ? loadOrCreateKeypair(options.treasuryKeyFile)
    : Keypair.generate();
  const saved = options.stateFile ? readState(options.stateFile) : null;
  const chain = restoreChain(
    options.finalizeAfterSlots ?? 32,
    options.stateFile,
    saved,
    options.now,
  );
  const wallet = new DemoWallet(
    chain,
    saved ? Keypair.fromSecretKey(Uint8Array.from(saved.demoWalletSecretKey)) : undefined,
  );
  if (!saved) wallet.fund(options.demoWalletLamports ?? DEFAULT_DEMO_WALLET_LAMPORTS);
  // Also on a chain saved before the test mints existed: both are created once.
  chain.ensureTestMints();
  wallet.fundTokens(
    BigInt(options.demoWalletTokens ?? DEFAULT_DEMO_WALLET_TOKENS) *
      10n ** BigInt(TEST_TOKEN_DECIMALS),
  );
  const saver = options.stateFile
    ? new StateSaver(
        options.stateFile,
        () => ({
          chain: chain.snapshot(),
          demoWalletSecretKey: Array.from(wallet.keypair.secretKey),
        }),
        chain,
      )
    : null;
  const handler = createHandler(chain, wallet, options.allowOrigin ?? '*');
  const rpc = createServer((request, response) => void handler(request, response));
  const pubsub = createServer((_request, response) => {
    response.writeHead(426).end();
  });
  const subscriptions = new Subscriptions(chain);
  subscriptions.attach(rpc);
  subscriptions.attach(pubsub);
  const port = await bindPair(rpc, pubsub, options.port ?? 0, host);
  chain.start(options.slotMs ?? 400);
  const origin = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `http://${origin}`,
    wsUrl: `ws://${host.includes(':') ? `[${host}]` : host}:${port + 1}`,
    demoWalletUrl: `http://${origin}/demo-wallet`,
    demoWalletAddress: wallet.address,
    testMints: Object.fromEntries(
      TEST_TOKENS.map((symbol) => [symbol, chain.testMint(symbol).toBase58()]),
    ) as Record<TestToken, string>,
    treasuryAddress: treasury.publicKey.toBase58(),
    depositAddress: treasury.publicKey.toBase58(),
    advanceSlots: (slots = 1) => chain.advance(slots),
    async stop() {
      chain.stop();
      saver?.stop();
      await subscriptions.close();
      await Promise.all([close(rpc), close(pubsub)]);
    },
  };
}
