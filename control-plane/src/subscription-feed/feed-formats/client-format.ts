import { atLeast, type ClientApp, clientAppOf, parseVersion } from './client-app';

/**
 * Which configuration format a subscription-URL request gets: an explicit
 * `?format=` wins, else the app's User-Agent, else base64 share links (what every app that
 * imports subscriptions reads).
 */
export const FEED_FORMATS = ['base64', 'singbox', 'clash', 'xray', 'v2ray', 'html'] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

/**
 * User-Agent rules, first match wins. Patterns match at the start of the header (apps send
 * `<name>/<version>`), case-insensitive.
 *
 * - sing-box JSON: the official sing-box apps (SFA Android, SFI iOS, SFM macOS, SFT tvOS, and
 *   the `sing-box` CLI), Hiddify and Karing (both run sing-box).
 * - Clash/mihomo YAML: clash-verge (and Clash Verge Rev), ClashMeta/Clash.Meta, mihomo, Stash,
 *   FlClash, Clash for Windows/Android (`clash`).
 * - Xray JSON: v2rayNG from 1.8.29 and v2rayN from 6.40, the versions that import a full Xray
 *   configuration from a subscription (the thresholds Marzban uses for its custom JSON); older
 *   ones get share links.
 * - Everything else (v2rayN/v2rayNG before those versions, Streisand, NekoBox, curl, unknown):
 *   base64 share links; a browser among them (Accept: text/html) the HTML page.
 */
const RULES: readonly { pattern: RegExp; format: FeedFormat; minVersion?: readonly number[] }[] = [
  { pattern: /^(SFA|SFI|SFM|SFT)\//i, format: 'singbox' },
  { pattern: /^sing-box\b/i, format: 'singbox' },
  { pattern: /^Hiddify/i, format: 'singbox' },
  { pattern: /^Karing/i, format: 'singbox' },
  { pattern: /^(clash-verge|clash\.?meta|mihomo|stash|flclash|clash)/i, format: 'clash' },
  { pattern: /^v2rayNG\/(\d+(?:\.\d+)*)/i, format: 'xray', minVersion: [1, 8, 29] },
  { pattern: /^v2rayN\/(\d+(?:\.\d+)*)/i, format: 'xray', minVersion: [6, 40] },
];

/** The format a User-Agent gets when the request names none. */
export function formatForUserAgent(userAgent: string | undefined): FeedFormat {
  const agent = (userAgent ?? '').trim();
  for (const rule of RULES) {
    const match = rule.pattern.exec(agent);
    if (!match) continue;
    if (rule.minVersion && !atLeast(parseVersion(match[1] ?? ''), rule.minVersion)) return 'base64';
    return rule.format;
  }
  return 'base64';
}

/** The format, and the app asking (its version decides what the format may contain). */
export type FormatChoice =
  { ok: true; format: FeedFormat; client: ClientApp | null } | { ok: false; problem: string };

/**
 * `?format=` (case-insensitive) over the User-Agent; an unknown value is refused. A browser
 * (`Accept` naming text/html) that is not a known app gets the HTML page (`html`).
 */
export function chooseFeedFormat(
  query: unknown,
  userAgent: string | undefined,
  accept?: string,
): FormatChoice {
  const client = clientAppOf(userAgent);
  if (query === undefined) {
    const format = formatForUserAgent(userAgent);
    if (format === 'base64' && acceptsHtml(accept)) return { ok: true, format: 'html', client };
    return { ok: true, format, client };
  }
  const value = typeof query === 'string' ? query.trim().toLowerCase() : '';
  const alias = value === 'sing-box' ? 'singbox' : value === 'mihomo' ? 'clash' : value;
  if ((FEED_FORMATS as readonly string[]).includes(alias)) {
    return { ok: true, format: alias as FeedFormat, client };
  }
  return { ok: false, problem: `format must be one of ${FEED_FORMATS.join(', ')}` };
}

/** An Accept header that names text/html (browsers); a bare wildcard does not. */
function acceptsHtml(accept: string | undefined): boolean {
  return (accept ?? '').split(',').some((part) => {
    const [type, ...params] = part.split(';').map((value) => value.trim().toLowerCase());
    const q = params.find((param) => param.startsWith('q='));
    return type === 'text/html' && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/** `?fakeip=` (sing-box and mihomo DNS): 1/true on, 0/false or absent off, anything else refused. */
export function fakeIpOption(
  query: unknown,
): { ok: true; value: boolean } | { ok: false; problem: string } {
  if (query === undefined) return { ok: true, value: false };
  const value = typeof query === 'string' ? query.trim().toLowerCase() : '';
  if (value === '1' || value === 'true') return { ok: true, value: true };
  if (value === '0' || value === 'false') return { ok: true, value: false };
  return { ok: false, problem: 'fakeip must be 1 or 0' };
}
