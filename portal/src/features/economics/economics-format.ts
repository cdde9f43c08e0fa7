import { SSL_USD_PRICE } from '@scn/proto';

const numberFormats = new Map<number, Intl.NumberFormat>();

/** en-US grouping with up to `maxFractionDigits` decimals: 1704 -> "1,704", 8.52 -> "8.52". */
export function formatNumber(value: number, maxFractionDigits = 2): string {
  let format = numberFormats.get(maxFractionDigits);
  if (!format) {
    format = new Intl.NumberFormat('en-US', { maximumFractionDigits: maxFractionDigits });
    numberFormats.set(maxFractionDigits, format);
  }
  return format.format(value);
}

export function formatSsl(value: number, maxFractionDigits = 2): string {
  return `${formatNumber(value, maxFractionDigits)} SSL`;
}

/** spec 01 §1: 1 SSL = $0.035, computed from the exact fraction. */
export function sslToUsd(ssl: number): number {
  return (ssl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator;
}

const usdFormat = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** The USD value of an SSL amount: 1704 -> "$59.64". */
export function formatUsdOfSsl(ssl: number): string {
  return usdFormat.format(sslToUsd(ssl));
}

export function formatUsd(usd: number): string {
  return usdFormat.format(usd);
}

/** Large counts in words: 273_000_000 -> "273 million", 2_730_000 -> "2.73 million". */
export function formatMillions(value: number): string {
  return `${formatNumber(value / 1_000_000, 2)} million`;
}
