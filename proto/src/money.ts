import { MICRO_PER_SSL } from './economics';

/**
 * Money on the wire: integer micro-SSL as a decimal string (`amountMicro: "10000000"`), never a
 * float. These helpers turn it into text for people.
 */

/** Whole micro-SSL from a wire string or bigint; throws on anything else. */
export function toMicro(value: string | bigint): bigint {
  if (typeof value === 'bigint') return value;
  if (!/^-?\d{1,20}$/.test(value)) throw new Error(`not an amount of micro-SSL: ${value}`);
  return BigInt(value);
}

/** Exact SSL as a decimal string without trailing zeros: 10500000n -> "10.5". */
export function sslText(micro: string | bigint): string {
  const value = toMicro(micro);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const whole = abs / MICRO_PER_SSL;
  const fraction = (abs % MICRO_PER_SSL).toString().padStart(6, '0').replace(/0+$/, '');
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** docs/product/constants.md#market-prices-and-limits: balances show 2 decimals (rounded half away from zero): 10005000n -> "10.01". */
export function formatSsl(micro: string | bigint): string {
  const value = toMicro(micro);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  const cents = (abs + 5_000n) / 10_000n;
  return `${sign}${cents / 100n}.${(cents % 100n).toString().padStart(2, '0')}`;
}

/** Whole SSL to micro-SSL: sslToMicro(10) -> 10000000n. Only for integer SSL constants. */
export function sslToMicro(ssl: number): bigint {
  if (!Number.isInteger(ssl * 1_000_000)) throw new Error(`not representable in micro-SSL: ${ssl}`);
  return BigInt(Math.round(ssl * 1_000_000));
}
