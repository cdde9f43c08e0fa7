import { MICRO_PER_SSL, toMicro } from '@scn/proto';
import { formatNumber } from './i18n/format';
import type { Locale } from './i18n/locale';

/**
 * The portal's one rule for amounts of SSL (docs/i18n.md): they arrive as integer micro-SSL and are
 * turned into decimal text by integer arithmetic, never by a float division; Intl then reads that
 * text as an exact decimal to write the reader's digits. When fewer decimals are shown than the
 * ledger holds, the rest is cut toward zero, so a balance never reads as more than is owned.
 */

/** `exact`: every micro-SSL digit, no trailing zero (prices). `cents`: two decimals (balances). */
export type SslDecimals = 'exact' | 'cents';

const MICRO_DIGITS = 6;

/** The amount's decimal text ("-12.5", "0.00"), cut toward zero to `decimals`. */
function decimalText(micro: bigint, decimals: SslDecimals): string {
  const sign = micro < 0n ? '-' : '';
  const abs = micro < 0n ? -micro : micro;
  const whole = abs / MICRO_PER_SSL;
  const fraction = (abs % MICRO_PER_SSL).toString().padStart(MICRO_DIGITS, '0');
  const shown = decimals === 'cents' ? fraction.slice(0, 2) : fraction.replace(/0+$/, '');
  // "-0.00" would claim a debt the figure does not show.
  const negative = sign && (whole > 0n || /[1-9]/.test(shown)) ? sign : '';
  return `${negative}${whole}${shown ? `.${shown}` : ''}`;
}

export interface FormatMicroSslOptions {
  /** Defaults to `exact`. */
  decimals?: SslDecimals;
  /**
   * Whether ` SSL` follows (default true). The unit stays in Latin letters in every language, so
   * an amount is never mistaken for SOL or a local currency.
   */
  unit?: boolean;
}

/**
 * An amount of micro-SSL for display in the reader's digits and separators: "1,234.5 SSL",
 * "۱٬۲۳۴٫۵ SSL", "1 234,50" (`cents`, no unit).
 */
export function formatMicroSsl(
  micro: string | bigint,
  locale: Locale,
  { decimals = 'exact', unit = true }: FormatMicroSslOptions = {},
): string {
  const text = decimalText(toMicro(micro), decimals);
  const digits = decimals === 'cents' ? 2 : MICRO_DIGITS;
  // Intl reads a numeric string as an exact decimal (not through a float); the type says number.
  const shown = formatNumber(text as unknown as number, locale, {
    minimumFractionDigits: decimals === 'cents' ? 2 : 0,
    maximumFractionDigits: digits,
    roundingMode: 'trunc',
  });
  return unit ? `${shown} SSL` : shown;
}

/**
 * Micro-SSL as a number of SSL, for arithmetic that is itself approximate (a chart's scale, a
 * model's estimate). Built from the exact decimal text, so the only rounding is the one a
 * double makes of that decimal; never use it for an amount shown as owned or paid.
 */
export function microSslToNumber(micro: string | bigint): number {
  return Number(decimalText(toMicro(micro), 'exact'));
}

/**
 * A computed SSL figure (a model's example, a fee on an example amount) rounded to whole
 * micro-SSL, so float noise never shows: 0.1 + 0.2 -> 0.3. For illustrations only; amounts owned
 * or paid arrive as integer micro-SSL.
 */
export function roundToMicroSsl(ssl: number): number {
  return Math.round(ssl * 1e6) / 1e6;
}
