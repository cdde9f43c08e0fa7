/** Display rules of the node dashboard's server list (docs/product/constants.md#market-prices-and-limits "Display", docs/product/states.md#subscription-and-reliability-states). */
import { formatHostPort, type NodeCertificate, urlHost, type VpsTier } from '@scn/proto';
import type { TFunction } from 'i18next';
import { formatDate, formatNumber } from '../../lib/i18n/format';
import { INTL_TAGS, type Locale } from '../../lib/i18n/locale';

/** `t` of the node namespace (`useT('node')`). */
export type NodeT = TFunction<'node'>;

/** host:port, or null before the node's first report (the caller says so in words). */
export function formatAddress(host: string | null, port: number | null): string | null {
  if (!host) return null;
  // IPv6 in brackets (`[2001:db8::1]:443`): a bare `2001:db8::1:443` cannot be told apart.
  return port === null ? urlHost(host) : formatHostPort(host, port);
}

/** "just now", "5 min ago", "3 hours ago", "2 days ago" in the reader's language; 'Never' without a date. */
export function formatRelative(iso: string | null, now: number, locale: Locale, t: NodeT): string {
  if (!iso) return t('time.never');
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return t('time.unknown');
  if (seconds < 60) return t('time.justNow');
  const relative = new Intl.RelativeTimeFormat(INTL_TAGS[locale], { style: 'short' });
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return relative.format(-minutes, 'minute');
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return relative.format(-hours, 'hour');
  return relative.format(-Math.floor(hours / 24), 'day');
}

/** A moment with date and time in the reader's calendar; the text itself when it is no date. */
export function formatDateTime(iso: string, locale: Locale): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : formatDate(date, locale, { dateStyle: 'medium', timeStyle: 'short' });
}

/** "Germany" for DE in the reader's language; the code itself when the browser has no name. */
export function countryName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([INTL_TAGS[locale]], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Where a server is, for its card: "Frankfurt, Germany", "Germany", "Frankfurt" or null. */
export function formatPlace(
  country: string | null,
  location: string | null,
  locale: Locale,
  t: NodeT,
): string | null {
  const countryText = country ? countryName(country, locale) : null;
  if (location && countryText) return t('card.place', { location, country: countryText });
  return location || countryText || null;
}

const UNIT_KEYS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** 2147483648 -> "2 GiB", 1610612736 -> "1.5 GiB" (1,024-based, as hardware is sold). */
export function formatBinaryBytes(bytes: number, locale: Locale, t: NodeT): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNIT_KEYS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 || unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return t(`units.${UNIT_KEYS[unit] ?? 'B'}`, { value: formatNumber(rounded, locale) });
}

/** A percentage given in points (96 -> "96%"), one decimal at most, in the reader's digits. */
export function formatPercent(points: number, locale: Locale): string {
  return formatNumber(points / 100, locale, { style: 'percent', maximumFractionDigits: 1 });
}

/** A tier's machine, "2 Cores / 2GB RAM" (the wizard's and the card's name for it). */
export function tierName(tier: VpsTier, t: NodeT, locale: Locale): string {
  return t('tier.name', { cores: tier.vcpu, ram: formatNumber(tier.ramGb, locale) });
}

/** "Tier 2" from `tier2`. */
export function tierNumber(tier: VpsTier, t: NodeT, locale: Locale): string {
  return t('tier.number', { number: formatNumber(Number(tier.id.replace('tier', '')), locale) });
}

/** Uptime in whole days and hours ("1d 2h"); 'New' when 0 or unknown (docs/product/constants.md#market-prices-and-limits). */
export function formatUptimeText(hours: number, locale: Locale, t: NodeT): string {
  const whole = Number.isFinite(hours) ? Math.max(0, Math.floor(hours)) : 0;
  if (whole === 0) return t('card.uptimeNew');
  return t('card.uptimeValue', {
    days: formatNumber(Math.floor(whole / 24), locale),
    hours: formatNumber(whole % 24, locale),
  });
}

/** The proxy core's state as the agent reports it (`running`, `stopped`...), in words when known. */
export function coreStateText(state: string, t: NodeT): string {
  const key = state.toLowerCase();
  return isCoreState(key) ? t(`core.${key}`) : state.toLowerCase();
}

const CORE_STATES = [
  'running',
  'stopped',
  'restarting',
  'failed',
  'absent',
  'unspecified',
] as const;
type CoreState = (typeof CORE_STATES)[number];
function isCoreState(value: string): value is CoreState {
  return (CORE_STATES as readonly string[]).includes(value);
}

/** What the server card says of the node's TLS certificate (components/server-certificate.tsx). */
export interface CertificateView {
  tone: 'success' | 'neutral' | 'warning';
  text: string;
  /** How to get a trusted certificate; null when the node has one. */
  hint: string | null;
  /** The command the hint names (shown as code, left to right); null without a hint. */
  command: string | null;
}

/** What the operator runs on the server to give the node a name of their own. */
export const OWN_DOMAIN_COMMAND = 'scn-agent certificate --domain <your.domain>';

export function certificateView(
  certificate: NodeCertificate,
  t: NodeT,
  locale: Locale,
): CertificateView {
  const { source, name, notAfter, problem } = certificate;
  if (source === 'acme') {
    return {
      tone: 'success',
      text: notAfter
        ? t('card.certificate.trusted', { name, date: formatDateTime(notAfter, locale) })
        : t('card.certificate.trustedNoDate', { name }),
      hint: null,
      command: null,
    };
  }
  if (source === 'operator') {
    return {
      tone: 'neutral',
      text: name ? t('card.certificate.operator', { name }) : t('card.certificate.operatorNoName'),
      hint: null,
      command: null,
    };
  }
  return {
    tone: 'warning',
    text: problem
      ? t('card.certificate.selfSigned', { problem })
      : t('card.certificate.selfSignedNoProblem'),
    hint: t('card.certificate.selfSignedHint'),
    command: OWN_DOMAIN_COMMAND,
  };
}
