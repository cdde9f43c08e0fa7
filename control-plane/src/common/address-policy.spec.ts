import { CidrList, classifyAddress, insideTestNets, refusal } from './address-policy';

describe('classifyAddress', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.255.255.53', 'private'],
    ['172.31.0.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.127.255.254', 'shared'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link_local'],
    ['192.0.0.8', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.51.100.10', 'documentation'],
    ['203.0.113.10', 'documentation'],
    ['224.0.0.251', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['240.0.0.1', 'reserved'],
    ['255.255.255.255', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::127.0.0.1', 'reserved'],
    ['64:ff9b::169.254.169.254', 'link_local'],
    ['64:ff9b:1::1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fe80::1%eth0', 'link_local'],
    ['fec0::1', 'private'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['2001::1', 'reserved'],
    ['2002:a00:1::1', 'reserved'],
    ['100::1', 'reserved'],
    ['4000::1', 'reserved'],
    ['not-an-address', 'reserved'],
  ])('should class %s as %s', (address, kind) => {
    expect(classifyAddress(address)).toBe(kind);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '100.63.255.255',
    '100.128.0.0',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:1.1.1.1',
  ])('should find %s public', (address) => {
    expect(classifyAddress(address)).toBeNull();
  });
});

describe('refusal', () => {
  const policy = {
    allowed: new CidrList(['203.0.113.64/30']),
    own: new Set(['203.0.113.65', '1.2.3.4']),
  };

  it('should lift only the allowed documentation addresses, never another class', () => {
    expect(refusal('203.0.113.66', policy)).toBeNull();
    expect(refusal('203.0.113.70', policy)).toBe('documentation');
    expect(refusal('127.0.0.1', policy)).toBe('loopback');
  });

  it("should refuse the control plane's own addresses, in any spelling", () => {
    expect(refusal('203.0.113.65', policy)).toBe('own');
    expect(refusal('1.2.3.4', policy)).toBe('own');
    expect(refusal('::ffff:1.2.3.4', policy)).toBe('own');
  });
});

describe('insideTestNets', () => {
  it('should take CIDRs inside the documentation ranges only', () => {
    expect(insideTestNets('203.0.113.64/30')).toBe(true);
    expect(insideTestNets('198.51.100.0/24')).toBe(true);
    expect(insideTestNets('2001:db8:1::/48')).toBe(true);
    expect(insideTestNets('198.51.0.0/16')).toBe(false);
    expect(insideTestNets('10.0.0.0/8')).toBe(false);
    expect(insideTestNets('127.0.0.1/32')).toBe(false);
    expect(insideTestNets('nonsense')).toBe(false);
  });
});
