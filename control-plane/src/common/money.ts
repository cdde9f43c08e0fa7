import { sslText } from '@scn/proto';

/**
 * Significant decimal digits a double always carries through text and back unchanged
 * (IEEE 754 binary64): a decimal of at most this many digits parses to a number that JSON writes
 * back as the same decimal.
 */
const EXACT_DIGITS = 15;

/**
 * Micro-SSL as a JSON number of SSL, for the API's display fields (every decision, and the
 * `...Micro` field beside each of these, stays on integer micro-SSL).
 *
 * The one rule for the server: the exact decimal is written from the integer amount (no float
 * division), then cut toward zero to what a double holds exactly, so the number a client reads is
 * never more than the amount: 6673612n -> 6.673612, -1n -> -0.000001, and past 15 significant
 * digits 1234567890123456789n -> 1234567890123.45 (the `...Micro` string keeps every digit).
 */
export function sslNumber(micro: bigint): number {
  const text = sslText(micro);
  const sign = text.startsWith('-') ? '-' : '';
  const digits = sign ? text.slice(1) : text;
  const point = digits.indexOf('.');
  const whole = point < 0 ? digits : digits.slice(0, point);
  const fraction = point < 0 ? '' : digits.slice(point + 1);
  // Leading zeros of "0.000001" are not significant: count from the first non-zero digit.
  const significant =
    whole === '0' ? fraction.replace(/^0+/, '').length : whole.length + fraction.length;
  const keep = Math.max(0, fraction.length - Math.max(0, significant - EXACT_DIGITS));
  // Whole SSL past 15 digits (beyond any real supply) are cut too, their places kept as zeros.
  const wholeCut =
    whole.length > EXACT_DIGITS
      ? whole.slice(0, EXACT_DIGITS) + '0'.repeat(whole.length - EXACT_DIGITS)
      : whole;
  const cut = keep > 0 ? `${wholeCut}.${fraction.slice(0, keep)}` : wholeCut;
  const value = Number(`${sign}${cut}`);
  // "-0" is not an amount anyone owes.
  return value === 0 ? 0 : value;
}
