import type os from 'node:os';
import {
  complementCidrs,
  coreCidrs,
  hasGlobalIpv6,
  inAnyCidr,
  LOOPBACK_REACHING_CIDRS,
  ownInterfaceCidrs,
  SPECIAL_PURPOSE_CIDRS,
} from './destination-policy';
import { NON_PUBLIC_PROBES, PUBLIC_PROBES } from './destination-probes.fixture';

describe('special-purpose destinations', () => {
  it.each(NON_PUBLIC_PROBES)('should list %s as special-purpose', (address) => {
    expect(inAnyCidr(address, SPECIAL_PURPOSE_CIDRS)).toBe(true);
  });

  it.each(PUBLIC_PROBES)('should not list %s as special-purpose', (address) => {
    expect(inAnyCidr(address, SPECIAL_PURPOSE_CIDRS)).toBe(false);
  });

  it('should list every address that reaches a socket bound to 127.0.0.1', () => {
    for (const address of ['127.0.0.1', '0.0.0.0', '::1', '::', '::ffff:127.0.0.1']) {
      expect(inAnyCidr(address, LOOPBACK_REACHING_CIDRS)).toBe(true);
    }
  });
});

describe('complementCidrs', () => {
  it('should cover exactly the addresses outside the excluded ranges when computed', () => {
    expect(complementCidrs(4, ['0.0.0.0/1'])).toEqual(['128.0.0.0/1']);
    expect(complementCidrs(4, ['0.0.0.0/2', '192.0.0.0/2'])).toEqual(['64.0.0.0/2', '128.0.0.0/2']);
    expect(complementCidrs(6, ['::/1'])).toEqual(['8000::/1']);
  });

  it.each(NON_PUBLIC_PROBES)('should leave %s out of the public list', (address) => {
    const excluded = [...SPECIAL_PURPOSE_CIDRS];
    const publicCidrs = [...complementCidrs(4, excluded), ...complementCidrs(6, excluded)];
    expect(inAnyCidr(address, publicCidrs)).toBe(false);
  });

  it.each(PUBLIC_PROBES)('should keep %s in the public list', (address) => {
    const excluded = [...SPECIAL_PURPOSE_CIDRS];
    const publicCidrs = [...complementCidrs(4, excluded), ...complementCidrs(6, excluded)];
    expect(inAnyCidr(address, publicCidrs)).toBe(true);
  });

  it('should leave a single own address out when it is excluded', () => {
    const publicCidrs = complementCidrs(4, [...SPECIAL_PURPOSE_CIDRS, '8.8.4.4/32']);
    expect(inAnyCidr('8.8.4.4', publicCidrs)).toBe(false);
    expect(inAnyCidr('8.8.4.5', publicCidrs)).toBe(true);
    expect(inAnyCidr('8.8.4.3', publicCidrs)).toBe(true);
  });
});

describe('coreCidrs', () => {
  it('should drop IPv4-mapped entries the core cannot parse when spelled for the config', () => {
    expect(coreCidrs(['::ffff:0:0/96', '::ffff:127.0.0.0/104', '::1/128', '10.0.0.0/8'])).toEqual([
      '::1/128',
      '10.0.0.0/8',
    ]);
  });
});

describe('ownInterfaceCidrs', () => {
  const info = (address: string, family: 'IPv4' | 'IPv6'): os.NetworkInterfaceInfo =>
    ({
      address,
      family,
      netmask: '',
      mac: '00:00:00:00:00:00',
      internal: false,
      cidr: null,
    }) as os.NetworkInterfaceInfo;

  it('should list every address of every interface as a host route when read', () => {
    const cidrs = ownInterfaceCidrs({
      lo: [info('127.0.0.1', 'IPv4'), info('::1', 'IPv6')],
      eth0: [
        info('203.0.113.5', 'IPv4'),
        info('2001:DB8:0:0::5', 'IPv6'),
        info('fe80::1%eth0', 'IPv6'),
      ],
    });
    expect(cidrs).toEqual([
      '127.0.0.1/32',
      '2001:db8::5/128',
      '203.0.113.5/32',
      '::1/128',
      'fe80::1/128',
    ]);
  });

  it('should see a global IPv6 address only when the node has one', () => {
    expect(hasGlobalIpv6(['2a01:4f8::1/128', '10.0.0.2/32'])).toBe(true);
    expect(hasGlobalIpv6(['fd00::2/128', 'fe80::1/128', '::1/128', '2001:db8::5/128'])).toBe(false);
  });
});
