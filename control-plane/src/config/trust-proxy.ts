import { isIP } from 'node:net';

/** Express's names for address ranges ("trust proxy"), accepted as they are. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: the peers whose `X-Forwarded-For` is believed, as a validated list for Express.
 * `false` (or `none`) believes no one. Express's `true` and hop counts are refused: behind them,
 * any client that reaches the port directly names its own address, and every per-address limit
 * is void.
 *
 * Returns the list (or false), or the reason the value is refused.
 */
export function parseTrustProxy(value: string): { trusted: string[] | false } | { error: string } {
  const normalized = value.trim().toLowerCase();
  if (normalized === 'false' || normalized === 'none') return { trusted: false };
  if (normalized === 'true' || /^\d+$/.test(normalized)) {
    return {
      error:
        'true and hop counts believe any client that reaches the port directly; list the proxy addresses or CIDRs instead (or false)',
    };
  }
  const entries = normalized.split(/[\s,]+/).filter((e) => e !== '');
  if (entries.length === 0) return { error: 'must list proxy addresses or CIDRs, or be false' };
  for (const entry of entries) {
    if (!RANGE_NAMES.has(entry) && !isAddressOrCidr(entry)) {
      return {
        error: `"${entry}" is not an IP address, a CIDR (address/prefix), loopback, linklocal or uniquelocal`,
      };
    }
  }
  return { trusted: entries };
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/');
  if (extra !== undefined) return false;
  const family = isIP(address);
  if (family === 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}
