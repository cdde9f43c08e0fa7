import { isIPv4 } from 'node:net';
import { ipv6Bytes } from '../common/address-policy';

/**
 * An address as the database's keys: IPv4 as an unsigned 32-bit number; IPv6 as its 16 bytes
 * and its upper 64 bits (what the IPv6 tables are keyed by: networks are routed and registered
 * in /64 or larger blocks). IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address.
 */
export type IpKey =
  { family: 'ipv4'; value: number } | { family: 'ipv6'; bytes: Uint8Array; upper: bigint };

export function ipv4Number(text: string): number {
  const [a = 0, b = 0, c = 0, d = 0] = text.split('.').map(Number);
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

/** The key of an address, or null for anything that is not one (never throws). */
export function ipKey(address: unknown): IpKey | null {
  if (typeof address !== 'string' || address.length > 100) return null;
  const text = address.trim();
  if (isIPv4(text)) return { family: 'ipv4', value: ipv4Number(text) };
  const bytes = ipv6Bytes(text);
  if (!bytes) return null;
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    const value = ((bytes[12]! << 24) | (bytes[13]! << 16) | (bytes[14]! << 8) | bytes[15]!) >>> 0;
    return { family: 'ipv4', value };
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, 16);
  return { family: 'ipv6', bytes, upper: view.getBigUint64(0) };
}

/** Whether `key` lies in the network `network`/`prefix` (same family only). */
export function inPrefix(key: IpKey, network: IpKey, prefix: number): boolean {
  if (key.family === 'ipv4' && network.family === 'ipv4') {
    // `>>> 32` shifts by 0 in JavaScript: /0 is every address.
    if (prefix === 0) return true;
    const shift = 32 - prefix;
    return key.value >>> shift === network.value >>> shift;
  }
  if (key.family !== 'ipv6' || network.family !== 'ipv6') return false;
  const whole = prefix >> 3;
  for (let i = 0; i < whole; i++) if (key.bytes[i] !== network.bytes[i]) return false;
  const rest = prefix & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (key.bytes[whole]! & mask) === (network.bytes[whole]! & mask);
}
