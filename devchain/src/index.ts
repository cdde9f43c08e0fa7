import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Chain } from './chain';
import { DemoWallet } from './demo-wallet';
import { createHandler } from './server';
import { Subscriptions } from './subscriptions';

export { parseTransferRequest, type TransferRequest } from './demo-wallet';

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
  /** What the demo wallet receives by airdrop at start (default 1,000 SOL). */
  demoWalletLamports?: number;
}

export interface Devchain {
  /** The JSON-RPC endpoint (http://host:port). */
  url: string;
  /** The PubSub endpoint web3.js derives from `url` (port + 1); `url` itself also upgrades. */
  wsUrl: string;
  /** POST {url: 'solana:...'} pays a transfer request; GET answers {address, balanceLamports}. */
  demoWalletUrl: string;
  demoWalletAddress: string;
  /** Moves the chain forward now (tests), besides the slot timer. */
  advanceSlots(slots?: number): void;
  stop(): Promise<void>;
}

const DEFAULT_DEMO_WALLET_LAMPORTS = 1_000_000_000_000;

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

/** Starts a local Solana chain with its JSON-RPC server (issue 17 §3). */
export async function startDevchain(options: DevchainOptions = {}): Promise<Devchain> {
  const host = options.host ?? '127.0.0.1';
  const chain = new Chain(options.finalizeAfterSlots ?? 32);
  const wallet = new DemoWallet(chain);
  wallet.fund(options.demoWalletLamports ?? DEFAULT_DEMO_WALLET_LAMPORTS);
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
    advanceSlots: (slots = 1) => chain.advance(slots),
    async stop() {
      chain.stop();
      subscriptions.close();
      await Promise.all([close(rpc), close(pubsub)]);
    },
  };
}
