import {
  MICRO_PER_SSL,
  SSL_USD_PRICE,
  TRANSACTION_TYPES,
  type TransactionType,
  lamportsToSol,
  toMicro,
} from '@scn/proto';
import { formatDate, formatNumber } from '../../lib/i18n/format';
import { formatMicroSsl } from '../../lib/money';
import type { Locale } from '../../lib/i18n/locale';

/**
 * Display rules of the wallet panel (docs/product/records.md#market-and-wallet-records, docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits) in the reader's language (docs/i18n.md).
 * Amounts arrive as integer micro-SSL strings (or lamports); everything here is bigint arithmetic
 * or exact decimal text given to Intl, never floats.
 */

/**
 * A decimal's exact text ("0.014582928") in the reader's digits, grouped. Intl reads a numeric
 * string as an exact decimal, not a float (as lib/i18n/format.ts does for SSL).
 */
function decimalNumber(decimal: string, locale: Locale, maximumFractionDigits: number): string {
  return formatNumber(decimal as unknown as number, locale, { maximumFractionDigits });
}

/** Lamports as SOL, every lamport kept and no trailing zero: 14582928n -> "0.014582928". */
export function solAmount(lamports: bigint | string, locale: Locale): string {
  return decimalNumber(lamportsToSol(BigInt(lamports)), locale, 9);
}

/** A SOL amount as the server wrote it ("0.1"), in the reader's digits. */
export function solDecimal(sol: string, locale: Locale): string {
  return /^\d+(\.\d+)?$/.test(sol) ? decimalNumber(sol, locale, 9) : sol;
}

/** A whole number (a rate, a count) in the reader's digits: 5143 -> "5,143". */
export function wholeNumber(value: number | bigint, locale: Locale): string {
  return formatNumber(value, locale);
}

/** A percentage: 25 -> "25%" (fa "۲۵٪"). */
export function percent(value: number, locale: Locale): string {
  return formatNumber(value / 100, locale, { style: 'percent', maximumFractionDigits: 2 });
}

/** Divides rounding half away from zero (both operands' signs respected, divisor > 0). */
function divideRounded(value: bigint, divisor: bigint): bigint {
  const half = divisor / 2n;
  return value < 0n ? -((-value + half) / divisor) : (value + half) / divisor;
}

/**
 * docs/product/overview.md#what-scn-is: 1 SSL = $0.035, so the USD value of micro-SSL is micro x 35 / 1000 / 10^6 dollars,
 * rounded to the cent in integers: "0.35" for 10 SSL, "-0.35" for -10 (the dollar sign is the
 * message's).
 */
export function usdAmount(micro: string | bigint, locale: Locale): string {
  const value = toMicro(micro);
  const cents = divideRounded(
    value * BigInt(SSL_USD_PRICE.numerator) * 100n,
    BigInt(SSL_USD_PRICE.denominator) * MICRO_PER_SSL,
  );
  const sign = cents < 0n ? '-' : '';
  const abs = cents < 0n ? -cents : cents;
  const text = `${sign}${abs / 100n}.${(abs % 100n).toString().padStart(2, '0')}`;
  return formatNumber(text as unknown as number, locale, {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
}

/** docs/product/overview.md#what-scn-is: the price of one SSL in dollars ("0.035"), without the dollar sign. */
export function sslUsdPrice(locale: Locale): string {
  const { numerator, denominator } = SSL_USD_PRICE;
  const digits = String(denominator).length - 1;
  const text = `${Math.trunc(numerator / denominator)}.${String(numerator % denominator).padStart(digits, '0')}`;
  return decimalNumber(text, locale, digits);
}

/**
 * The catalogue key of a ledger transaction type (the contract's TRANSACTION_TYPES: the record
 * names each one, `wallet:transactions.type.<type>`); null for a type this portal does not know
 * yet, which is shown by its raw name. Genesis and reward forfeits move system accounts only and
 * never reach a user's wallet, but are named all the same.
 */
export function transactionLabelKey(type: string): TransactionType | null {
  return (TRANSACTION_TYPES as readonly string[]).includes(type) ? (type as TransactionType) : null;
}

const CENTS = { decimals: 'cents', unit: false } as const;

export type AmountTone = 'positive' | 'negative' | 'zero';

/** docs/product/records.md#market-and-wallet-records: positive amounts are green with +, negative red (Intl's minus for the locale). */
export function signedAmount(
  micro: string | bigint,
  locale: Locale,
): { text: string; tone: AmountTone } {
  const value = toMicro(micro);
  if (value > 0n) return { text: `+${formatMicroSsl(value, locale, CENTS)}`, tone: 'positive' };
  if (value < 0n) return { text: formatMicroSsl(value, locale, CENTS), tone: 'negative' };
  return { text: formatMicroSsl(value, locale, CENTS), tone: 'zero' };
}

/** The server's durations ('1month', '100hours', '7days') as a unit the catalogue knows. */
export type DurationUnit = 'month' | 'days' | 'hours';

export function parseDuration(duration: string): { count: number; unit: DurationUnit } | null {
  const match = /^(\d+)\s*(months?|days?|hours?)$/i.exec(duration.trim());
  if (!match) return null;
  const word = (match[2] ?? '').toLowerCase();
  const unit: DurationUnit = word.startsWith('month')
    ? 'month'
    : word.startsWith('day')
      ? 'days'
      : 'hours';
  return { count: Number(match[1]), unit };
}

/** A date and time in the reader's calendar (Solar Hijri for fa); the raw text if unreadable. */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : formatDate(date, locale, { dateStyle: 'medium', timeStyle: 'short' });
}
