import { describe, expect, it } from '@jest/globals';
import { formatAddress } from './server-format';

describe('formatAddress', () => {
  it('should bracket an IPv6 host before its port, however it was stored', () => {
    expect(formatAddress('2001:db8::1', 443)).toBe('[2001:db8::1]:443');
    expect(formatAddress('[2001:DB8::1]', 443)).toBe('[2001:db8::1]:443');
    expect(formatAddress('::1', null)).toBe('[::1]');
  });

  it('should show a name or IPv4 host as host:port', () => {
    expect(formatAddress('node.example.net', 443)).toBe('node.example.net:443');
    expect(formatAddress('203.0.113.7', 8443)).toBe('203.0.113.7:8443');
  });

  it('should give none when the node has not reported yet', () => {
    expect(formatAddress(null, null)).toBeNull();
  });
});
