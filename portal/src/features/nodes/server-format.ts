/** Display rules of the node dashboard's server list (spec 01 §9 "Display", spec 02 §4). */
import { formatHostPort, urlHost } from '@scn/proto';

export function formatAddress(host: string | null, port: number | null): string {
  if (!host) return 'Waiting for the first report';
  // IPv6 in brackets (`[2001:db8::1]:443`): a bare `2001:db8::1:443` cannot be told apart.
  return port === null ? urlHost(host) : formatHostPort(host, port);
}

/** "just now", "5 min ago", "3 h ago", "2 d ago"; 'Never' without a date. */
export function formatRelative(iso: string | null, now: number = Date.now()): string {
  if (!iso) return 'Never';
  const seconds = Math.round((now - new Date(iso).getTime()) / 1000);
  if (!Number.isFinite(seconds)) return 'Unknown';
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}

const dateTime = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTime.format(date);
}

let regionNames: Intl.DisplayNames | null = null;

/** "Germany" for DE (the browser's English region names); the code itself when it has none. */
export function countryName(code: string): string {
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region' });
    return regionNames.of(code) ?? code;
  } catch {
    return code;
  }
}

/** Where a server is, for its card: "Frankfurt, Germany", "Germany", "Frankfurt" or null. */
export function formatPlace(country: string | null, location: string | null): string | null {
  const parts = [location, country ? countryName(country) : null].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** 2147483648 -> "2 GiB", 1610612736 -> "1.5 GiB". */
export function formatBytes(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = value >= 10 || unit === 0 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded} ${UNITS[unit]}`;
}
