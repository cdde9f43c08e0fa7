import { type DepositCurrencyView, lamportsToSol, MICRO_PER_SSL, SSL_USD_PRICE } from '@scn/proto';
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

/** 1500000n -> '1.5' with the token's 6 decimals (no trailing zeros). */
function tokenText(baseUnits: bigint): string {
  const fraction = (baseUnits % TOKEN_UNIT)
    .toString()
    .padStart(STABLECOIN_DECIMALS, '0')
    .replace(/0+$/, '');
  return fraction ? `${baseUnits / TOKEN_UNIT}.${fraction}` : `${baseUnits / TOKEN_UNIT}`;
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
