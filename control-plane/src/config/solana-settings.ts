import { PublicKey } from '@solana/web3.js';
import type { SolanaCluster } from '@scn/proto';
import type { Env } from './env.schema';

/** Deposits' chain settings (issue 17 §1); null in AppConfig when deposits are off. */
export interface SolanaSettings {
  /** The RPC this process reads (may be private). */
  rpcUrl: string;
  /** The RPC wallets are told to use. */
  publicRpcUrl: string;
  cluster: SolanaCluster;
  /** The treasury's public key (base58). */
  depositAddress: string;
  commitment: 'confirmed' | 'finalized';
  /** Whole SSL per SOL: a deposit request's quote. */
  sslPerSol: number;
  quoteTtlSeconds: number;
  /** localnet only. */
  demoWalletUrl: string | null;
}

/** True when the text decodes to a 32-byte public key (any base58 of the right length may not). */
export function isPublicKey(text: string): boolean {
  try {
    return new PublicKey(text).toBase58() === text;
  } catch {
    return false;
  }
}

/**
 * The Solana settings, or null (deposits off) when neither SOLANA_RPC_URL nor
 * SOLANA_DEPOSIT_ADDRESS is set. Answers the problems instead when they are inconsistent.
 */
export function solanaSettings(
  env: Env,
  clusterNamed: boolean,
): { settings: SolanaSettings | null; problems: string[] } {
  const problems: string[] = [];
  const rpcUrl = env.SOLANA_RPC_URL;
  const address = env.SOLANA_DEPOSIT_ADDRESS;
  if (Boolean(rpcUrl) !== Boolean(address)) {
    problems.push(
      'SOLANA_RPC_URL and SOLANA_DEPOSIT_ADDRESS: set both (deposits on) or neither (deposits off)',
    );
  }
  if (address && !isPublicKey(address)) {
    problems.push(
      `SOLANA_DEPOSIT_ADDRESS=${JSON.stringify(address)}: is not a valid base58 public key (32 bytes)`,
    );
  }
  const on = Boolean(rpcUrl && address);
  if (env.NODE_ENV === 'production' && env.SOLANA_CLUSTER === 'localnet' && (on || clusterNamed)) {
    problems.push(
      'SOLANA_CLUSTER=localnet: is refused when NODE_ENV=production (use devnet or mainnet-beta)',
    );
  }
  if (env.SOLANA_DEMO_WALLET_URL && env.SOLANA_CLUSTER !== 'localnet') {
    problems.push(
      `SOLANA_DEMO_WALLET_URL: only for SOLANA_CLUSTER=localnet (not ${env.SOLANA_CLUSTER})`,
    );
  }
  if (problems.length > 0 || !rpcUrl || !address) return { settings: null, problems };
  return {
    settings: {
      rpcUrl,
      publicRpcUrl: env.SOLANA_PUBLIC_RPC_URL ?? rpcUrl,
      cluster: env.SOLANA_CLUSTER,
      depositAddress: address,
      commitment: env.SOLANA_COMMITMENT,
      sslPerSol: env.SOLANA_SSL_PER_SOL,
      quoteTtlSeconds: env.DEPOSIT_QUOTE_TTL,
      demoWalletUrl: env.SOLANA_DEMO_WALLET_URL ?? null,
    },
    problems,
  };
}
