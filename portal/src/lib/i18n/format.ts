import { INTL_TAGS, type Locale } from './locale';

/**
 * Numbers, dates and amounts in the reader's language, in one place (docs/i18n.md). Persian gets
 * Persian digits and the Solar Hijri calendar (`fa-IR`). Amounts of SSL: lib/money.ts.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

function numberFormat(locale: Locale, options: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(INTL_TAGS[locale], options);
    numberFormats.set(key, format);
  }
  return format;
}

export function formatNumber(
  value: number | bigint,
  locale: Locale,
  options?: Intl.NumberFormatOptions,
): string {
  return numberFormat(locale, options).format(value);
}

export function formatDate(
  value: Date | string | number,
  locale: Locale,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'medium' },
): string {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(INTL_TAGS[locale], options);
    dateFormats.set(key, format);
  }
  return format.format(value instanceof Date ? value : new Date(value));
}

const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * Bytes in the largest unit that keeps a figure of at least 1 (1,000-based), one decimal above
 * bytes, with the unit in the reader's language (`1.5 MB`, `۱٫۵ مگابایت`, `1,5 МБ`).
 */
export function formatBytes(bytes: number, locale: Locale): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return formatNumber(unit === 0 ? bytes : value, locale, {
    style: 'unit',
    unit: BYTE_UNITS[unit],
    // "999 byte" is English's short form; narrow gives "999B", and "999 Б", "۹۹۹ بایت".
    unitDisplay: unit === 0 ? 'narrow' : 'short',
    minimumFractionDigits: unit === 0 ? 0 : 1,
    maximumFractionDigits: unit === 0 ? 0 : 1,
  });
}
