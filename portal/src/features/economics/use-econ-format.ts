import { SSL_USD_PRICE } from '@scn/proto';
import { formatDate, formatNumber } from '../../lib/i18n/format';
import { useT } from '../../lib/i18n/i18n';
import { INTL_TAGS, type Locale } from '../../lib/i18n/locale';

/**
 * The Economics page's figures in the reader's language (docs/i18n.md: numbers through
 * lib/i18n/format.ts, Persian digits for fa). SSL stays in Latin letters; USD is the service
 * rate's equivalent, never a price.
 */
export interface EconFormat {
  locale: Locale;
  /** 1704 -> "1,704"; up to `maxFractionDigits` decimals. */
  num(value: number, maxFractionDigits?: number): string;
  /** 8.5 -> "8.5 SSL". */
  ssl(value: number, maxFractionDigits?: number): string;
  /** 25 -> "25%". */
  pct(percent: number): string;
  /** A dollar amount: 0.035 -> "$0.035" with `fractionDigits` 3. */
  usd(value: number, fractionDigits?: number): string;
  /** The service rate of 1 SSL: "$0.035". */
  rate(): string;
  /** The USD value of an SSL amount at the service rate: 1704 -> "$59.64". */
  usdOfSsl(ssl: number): string;
  /** Large counts in words: 10_000_000_000 -> "10 billion". */
  words(value: number): string;
  /** Minutes since midnight as a wall-clock time: 810 -> "13:30". */
  time(minutes: number): string;
  /** "a, b and c" in the reader's language. */
  list(items: readonly string[]): string;
  /** A weekday's name (0 is Sunday). */
  weekday(day: number): string;
}

const lists = new Map<Locale, Intl.ListFormat>();

/** docs/product/overview.md#what-scn-is: 1 SSL = $0.035, computed from the exact fraction. */
export function sslToUsd(ssl: number): number {
  return (ssl * SSL_USD_PRICE.numerator) / SSL_USD_PRICE.denominator;
}

export function econFormat(locale: Locale): EconFormat {
  const num = (value: number, maxFractionDigits = 2) =>
    formatNumber(value, locale, { maximumFractionDigits: maxFractionDigits });
  const usd = (value: number, fractionDigits = 2) =>
    formatNumber(value, locale, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: fractionDigits,
      maximumFractionDigits: fractionDigits,
    });
  return {
    locale,
    num,
    ssl: (value, maxFractionDigits = 2) => `${num(value, maxFractionDigits)} SSL`,
    pct: (percent) =>
      formatNumber(percent / 100, locale, { style: 'percent', maximumFractionDigits: 2 }),
    usd,
    rate: () => usd(sslToUsd(1), 3),
    usdOfSsl: (ssl) => usd(sslToUsd(ssl)),
    words: (value) =>
      formatNumber(value, locale, {
        notation: 'compact',
        compactDisplay: 'long',
        maximumFractionDigits: 2,
      }),
    time: (minutes) =>
      formatDate(Date.UTC(2000, 0, 1, 0, minutes), locale, {
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: 'UTC',
      }),
    list: (items) => {
      let format = lists.get(locale);
      if (!format) {
        format = new Intl.ListFormat(INTL_TAGS[locale], { type: 'conjunction' });
        lists.set(locale, format);
      }
      return format.format(items);
    },
    // 2023-01-01 was a Sunday.
    weekday: (day) =>
      formatDate(Date.UTC(2023, 0, 1 + day), locale, { weekday: 'long', timeZone: 'UTC' }),
  };
}

/** `t` of the economics catalogue and the formatters of the current language. */
export function useEconomicsT() {
  const { t, locale } = useT('economics');
  return { t, f: econFormat(locale) };
}
