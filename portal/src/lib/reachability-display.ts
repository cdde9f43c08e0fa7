/**
 * How reachability reads (docs/reachability.md): the market's badge, a server's table of
 * countries and networks, the node dashboard's section. Pure, so the order and wording rules are
 * unit-tested; the words themselves are the catalogues'.
 */
import type { Network, ReachabilityRow, ReachabilityState } from '@scn/proto';
import { INTL_TAGS, type Locale } from './i18n/locale';

/** The badge's tone: a blocked server is a warning, an unmeasured one stays quiet. */
export function reachabilityTone(state: ReachabilityState): 'success' | 'danger' | 'quiet' {
  if (state === 'works') return 'success';
  if (state === 'blocked') return 'danger';
  return 'quiet';
}

const regionNames = new Map<Locale, Intl.DisplayNames | null>();

/** "Iran" for IR in the reader's language (the browser's CLDR names); the code when it has none. */
export function countryName(code: string, locale: Locale): string {
  if (!regionNames.has(locale)) {
    try {
      regionNames.set(locale, new Intl.DisplayNames([INTL_TAGS[locale]], { type: 'region' }));
    } catch {
      regionNames.set(locale, null);
    }
  }
  try {
    return regionNames.get(locale)?.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}

/** "AS44244 Irancell"; "AS44244" without a name; null without a number. */
export function asnLabel(asn: number | null, asnName: string | null): string | null {
  if (asn === null) return null;
  const name = asnName?.trim();
  return name ? `AS${asn} ${name}` : `AS${asn}`;
}

/**
 * The visitor's network named once on the market: "Iran · AS44244 Irancell", "Iran" when the
 * network is unknown, null when the country is (nothing is shown then).
 */
export function networkText(network: Network | null, locale: Locale): string | null {
  if (!network?.country) return null;
  const country = countryName(network.country, locale);
  const asn = asnLabel(network.asn, network.asnName);
  return asn ? `${country} · ${asn}` : country;
}

const STATE_ORDER: Readonly<Record<ReachabilityState, number>> = {
  blocked: 0,
  works: 1,
  unknown: 2,
};

/**
 * The rows in reading order: where it is blocked first (what an operator acts on), then where it
 * works, then the rest; within a state the most recently measured first.
 */
export function sortReachabilityRows<T extends Pick<ReachabilityRow, 'state' | 'measuredAt'>>(
  rows: readonly T[],
): T[] {
  return [...rows].sort(
    (a, b) =>
      STATE_ORDER[a.state] - STATE_ORDER[b.state] ||
      (Date.parse(b.measuredAt) || 0) - (Date.parse(a.measuredAt) || 0),
  );
}

const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
];

/**
 * "5 minutes ago", "3 hours ago", "now" in the reader's language and digits (Intl, no catalogue);
 * the text itself when it is no date.
 */
export function relativeTime(iso: string, now: number, locale: Locale): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  let value = Math.round((at - now) / 1000);
  const format = new Intl.RelativeTimeFormat(INTL_TAGS[locale], { numeric: 'auto' });
  if (Math.abs(value) < 10) return format.format(0, 'second');
  for (const [unit, size] of UNITS) {
    if (Math.abs(value) < size) return format.format(value, unit);
    value = Math.trunc(value / size);
  }
  return format.format(value, 'year');
}
