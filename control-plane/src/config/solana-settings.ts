import { PublicKey } from '@solana/web3.js';
import type { SolanaCluster } from '@scn/proto';
import type { Env } from './env.schema';

/** Deposits' chain settings; null in AppConfig when deposits are off. */
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
  /** Per-account deposit addresses (docs/deposits.md#per-account-addresses); null: not enabled. */
  depositAddresses: DepositAddressSettings | null;
}

export interface DepositAddressSettings {
  /** SOLANA_DEPOSIT_SEED: sensitive, never logged, never stored. */
  seed: Buffer;
  /** SPL mints accepted at $1 each; null: that stablecoin is not accepted. */
  usdcMint: string | null;
  usdtMint: string | null;
  /** The least a transfer must carry to be credited, in lamports and in token base units. */
  minLamports: bigint;
  minTokenBaseUnits: bigint;
}

/** Decimals of USDC and USDT on Solana. */
export const STABLECOIN_DECIMALS = 6;

/** '0.01' -> 10000000n with `decimals` places (the schema already checked the shape). */
function baseUnits(text: string, decimals: number): bigint {
  const [whole, fraction = ''] = text.split('.');
  return BigInt(whole!) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
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
  if (env.SOLANA_DEPOSIT_SEED && !on) {
    problems.push(
      'SOLANA_DEPOSIT_SEED: needs SOLANA_RPC_URL and SOLANA_DEPOSIT_ADDRESS (deposits on)',
    );
  }
  for (const name of ['SOLANA_USDC_MINT', 'SOLANA_USDT_MINT'] as const) {
    const mint = env[name];
    if (mint && !isPublicKey(mint)) {
      problems.push(`${name}=${JSON.stringify(mint)}: is not a valid base58 public key (32 bytes)`);
    }
  }
  if (env.SOLANA_USDC_MINT && env.SOLANA_USDC_MINT === env.SOLANA_USDT_MINT) {
    problems.push('SOLANA_USDC_MINT and SOLANA_USDT_MINT: must be different mints');
  }
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
      depositAddresses: env.SOLANA_DEPOSIT_SEED
        ? {
            seed: Buffer.from(env.SOLANA_DEPOSIT_SEED.trim(), 'hex'),
            usdcMint: env.SOLANA_USDC_MINT ?? null,
            usdtMint: env.SOLANA_USDT_MINT ?? null,
            minLamports: baseUnits(env.DEPOSIT_MIN_SOL, 9),
            minTokenBaseUnits: baseUnits(env.DEPOSIT_MIN_TOKEN, STABLECOIN_DECIMALS),
          }
        : null,
    },
    problems,
  };
}

/**
 * The explorer link of a transaction on the cluster (deposits and withdrawals show it); `{signature}`
 * is replaced by the portal.
 */
export function explorerTxUrl(settings: Pick<SolanaSettings, 'cluster' | 'publicRpcUrl'>): string {
  const base = 'https://explorer.solana.com/tx/{signature}';
  switch (settings.cluster) {
    case 'mainnet-beta':
      return base;
    case 'devnet':
      return `${base}?cluster=devnet`;
    case 'localnet':
      return `${base}?cluster=custom&customUrl=${encodeURIComponent(settings.publicRpcUrl)}`;
  }
}
