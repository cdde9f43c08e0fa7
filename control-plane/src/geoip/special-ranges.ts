import { SPECIAL_PURPOSE_IPV4, SPECIAL_PURPOSE_IPV6 } from '@scn/proto';
import { type IpKey, ipKey } from './ip-key';
import { ipv4Builder, ipv6Builder } from './range-table';

/**
 * The special-purpose ranges of @scn/proto (private, loopback, documentation...) as range
 * tables: the same judgement as common/address-policy's classifyAddress, at a lookup's speed
 * (a binary search, not a BlockList per range). IPv6 is judged by its upper 64 bits, so a
 * special range below /64 (only :: and ::1, outside 2000::/3 anyway) covers its whole /64.
 */
function tables() {
  const v4 = SPECIAL_PURPOSE_IPV4.map(({ network, prefix }) => {
    const key = ipKey(network);
    const start = key?.family === 'ipv4' ? key.value : 0;
    return { start, end: start + 2 ** (32 - prefix) - 1 };
  }).sort((a, b) => a.start - b.start);
  const b4 = ipv4Builder(v4.length);
  for (const { start, end } of v4) b4.push(start, end, 1);

  const v6 = SPECIAL_PURPOSE_IPV6.filter((range) => !range.carriesIpv4)
    .map(({ network, prefix }) => {
      const key = ipKey(network);
      const start = key?.family === 'ipv6' ? key.upper : 0n;
      return { start, end: prefix >= 64 ? start : start | ((1n << BigInt(64 - prefix)) - 1n) };
    })
    .sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  const b6 = ipv6Builder(v6.length);
  for (const { start, end } of v6) b6.push(start, end, 1);
  return { v4: b4.finish(), v6: b6.finish() };
}

const SPECIAL = tables();

/** Whether no network on the Internet holds this address (IPv6: only 2000::/3 is public). */
export function isSpecial(key: IpKey): boolean {
  if (key.family === 'ipv4') return SPECIAL.v4.find(key.value) >= 0;
  return key.upper >> 61n !== 1n || SPECIAL.v6.find(key.upper) >= 0;
}
