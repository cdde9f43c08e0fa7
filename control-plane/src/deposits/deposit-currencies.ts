import {
  type DepositCurrency,
  type DepositCurrencyView,
  LAMPORTS_PER_SOL,
  lamportsToSol,
  MICRO_PER_SSL,
  SSL_USD_PRICE,
} from '@scn/proto';
import { type DepositAddressSettings, STABLECOIN_DECIMALS } from '../config/solana-settings';

const TOKEN_UNIT = 10n ** BigInt(STABLECOIN_DECIMALS);

/**
 * docs/deposits.md#stablecoins, the one rounding rule of a stablecoin credit: a token worth $1
 * buys 1 / $0.035 SSL, so `baseUnits` (10^-6 of a dollar) credit
 * floor(baseUnits x 10^6 x 1000 / (35 x 10^6)) micro-SSL: integers only, rounded down once, at
 * the end (1 USDC = 28.571428 SSL).
 */
export function stablecoinCreditMicro(baseUnits: bigint): bigint {
  return (
    (baseUnits * MICRO_PER_SSL * BigInt(SSL_USD_PRICE.denominator)) /
    (BigInt(SSL_USD_PRICE.numerator) * TOKEN_UNIT)
  );
}

/** 1500000n -> '1.5' with `decimals` places (no trailing zeros). */
export function unitsText(baseUnits: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const fraction = (baseUnits % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return fraction ? `${baseUnits / unit}.${fraction}` : `${baseUnits / unit}`;
}

const tokenText = (baseUnits: bigint): string => unitsText(baseUnits, STABLECOIN_DECIMALS);

/** Decimals of one whole unit of each accepted currency on chain. */
export const CURRENCY_DECIMALS: Record<DepositCurrency, number> = { SOL: 9, USDC: 6, USDT: 6 };

/** The quote in force now: micro-SSL per whole unit (SOL: the setting; tokens: $1 / $0.035). */
export function quoteMicro(currency: DepositCurrency, sslPerSol: number): bigint {
  return currency === 'SOL' ? BigInt(sslPerSol) * MICRO_PER_SSL : stablecoinCreditMicro(TOKEN_UNIT);
}

/**
 * What a transfer to a deposit address credits, rounded down to micro-SSL once: SOL at the
 * quote it finalized at (lamports x micro-SSL per SOL / 10^9), a stablecoin by
 * stablecoinCreditMicro (its exact dollar value).
 */
export function transferCreditMicro(
  currency: DepositCurrency,
  baseUnits: bigint,
  quote: bigint,
): bigint {
  return currency === 'SOL'
    ? (baseUnits * quote) / LAMPORTS_PER_SOL
    : stablecoinCreditMicro(baseUnits);
}

/** The least one transfer (or the total waiting) must carry to be credited. */
export function minimumOf(currency: DepositCurrency, settings: DepositAddressSettings): bigint {
  return currency === 'SOL' ? settings.minLamports : settings.minTokenBaseUnits;
}

/** What a per-account address accepts: SOL always, each stablecoin whose mint is set. */
export function depositCurrencies(
  settings: DepositAddressSettings,
  sslPerSol: number,
): DepositCurrencyView[] {
  const currencies: DepositCurrencyView[] = [
    {
      code: 'SOL',
      mint: null,
      decimals: 9,
      sslPerUnitMicro: (BigInt(sslPerSol) * MICRO_PER_SSL).toString(),
      minimumBaseUnits: settings.minLamports.toString(),
      minimum: lamportsToSol(settings.minLamports),
    },
  ];
  const tokens = [
    ['USDC', settings.usdcMint],
    ['USDT', settings.usdtMint],
  ] as const;
  for (const [code, mint] of tokens) {
    if (!mint) continue;
    currencies.push({
      code,
      mint,
      decimals: STABLECOIN_DECIMALS,
      sslPerUnitMicro: stablecoinCreditMicro(TOKEN_UNIT).toString(),
      minimumBaseUnits: settings.minTokenBaseUnits.toString(),
      minimum: tokenText(settings.minTokenBaseUnits),
    });
  }
  return currencies;
}
