import {
  DEPOSIT_MESSAGES,
  LAMPORTS_PER_SOL,
  lamportsToSol,
  MICRO_PER_SSL,
  SSL_USD_PRICE,
  type SolanaConfig,
} from '@scn/proto';
import { explorerTxUrl, type SolanaSettings } from '../config/solana-settings';

/**
 * Floor(SOL x rate) whole SSL, in micro-SSL, from lamports with integer math only
 * (no float ever sees an amount).
 */
export function creditMicro(lamports: bigint, sslPerSol: number): bigint {
  const wholeSsl = (lamports * BigInt(sslPerSol)) / LAMPORTS_PER_SOL;
  return wholeSsl * MICRO_PER_SSL;
}

/** USD per SOL implied by the rate: rate x $0.035 (exact to the cent fraction). */
export function solPriceUsd(sslPerSol: number): number {
  return (sslPerSol * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator;
}

/**
 * The Solana Pay transfer-request URL (https://docs.solanapay.com/spec): the recipient, the
 * amount in decimal SOL, and the reference key wallets add as a read-only account.
 */
export function transferRequestUrl(request: {
  depositAddress: string;
  lamports: bigint;
  reference: string;
}): string {
  const params = [
    `amount=${lamportsToSol(request.lamports)}`,
    `reference=${request.reference}`,
    `label=${encodeURIComponent('SCN')}`,
    `message=${encodeURIComponent('SSL deposit')}`,
  ];
  return `solana:${request.depositAddress}?${params.join('&')}`;
}

/** docs/product/records.md#market-and-wallet-records Solana config, with where the chain is. */
export function solanaConfigView(settings: SolanaSettings, now: Date): SolanaConfig {
  return {
    success: true,
    depositAddress: settings.depositAddress,
    conversionRate: settings.sslPerSol,
    sslTokenPrice: SSL_USD_PRICE.numerator / SSL_USD_PRICE.denominator,
    solPriceUsd: solPriceUsd(settings.sslPerSol),
    lastUpdated: now.toISOString(),
    cluster: settings.cluster,
    rpcUrl: settings.publicRpcUrl,
    quoteValidSeconds: settings.quoteTtlSeconds,
    explorerTxUrl: explorerTxUrl(settings),
    demoWalletUrl: settings.cluster === 'localnet' ? settings.demoWalletUrl : null,
    depositAddresses: settings.depositAddresses !== null,
  };
}

/** The alert after a credit (whole SSL). */
export function creditedMessage(micro: bigint): string {
  return DEPOSIT_MESSAGES.credited((micro / MICRO_PER_SSL).toString());
}
