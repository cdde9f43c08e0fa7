import { generateSelfSignedCertificate } from '../proxy-core/tls-certificate';
import {
  certificateFacts,
  certificateSource,
  desiredIdentity,
  renewalTime,
  retryDelayMs,
} from './certificate-plan';

describe('desiredIdentity', () => {
  it("should prefer the operator's domain, then the platform's name, then a host name, then the address", () => {
    const all = {
      domain: 'VPN.Example.com',
      hostName: 'n1.nodes.scn.test',
      publicHost: '203.0.113.7',
    };
    expect(desiredIdentity(all)).toEqual({
      type: 'dns',
      value: 'vpn.example.com',
      origin: 'operator_domain',
    });
    expect(desiredIdentity({ ...all, domain: undefined })).toEqual({
      type: 'dns',
      value: 'n1.nodes.scn.test',
      origin: 'platform_name',
    });
    expect(desiredIdentity({ publicHost: 'node.example.net' })).toEqual({
      type: 'dns',
      value: 'node.example.net',
      origin: 'public_host_name',
    });
    expect(desiredIdentity({ publicHost: '203.0.113.7' })).toEqual({
      type: 'ip',
      value: '203.0.113.7',
      origin: 'public_address',
    });
    expect(desiredIdentity({ publicHost: '2001:db8::7' }).type).toBe('ip');
  });
});

describe('renewalTime and retryDelayMs', () => {
  it('should renew before DPI sees "about to expire", but not before half the lifetime', () => {
    const day = 86_400_000;
    // 90 days: with 35 days left (nDPI flags under 30), not at two thirds (30 left).
    expect(renewalTime({ notBefore: 0, notAfter: 90 * day })).toBe(55 * day);
    // A year: at two thirds.
    expect(renewalTime({ notBefore: 0, notAfter: 360 * day })).toBe(240 * day);
    // A 6-day address certificate: at half its life (3 days left).
    expect(renewalTime({ notBefore: 0, notAfter: 6 * day })).toBe(3 * day);
  });

  it('should back off from 5 minutes, doubling, to at most 6 hours', () => {
    expect([1, 2, 3, 4].map(retryDelayMs)).toEqual([300_000, 600_000, 1_200_000, 2_400_000]);
    expect(retryDelayMs(50)).toBe(6 * 3_600_000);
  });
});

describe('certificateFacts', () => {
  it('should read the validity and match names and addresses', () => {
    const name = certificateFacts(
      generateSelfSignedCertificate('n1.nodes.scn.test').certificatePem,
    );
    expect(name.names({ type: 'dns', value: 'n1.nodes.scn.test' })).toBe(true);
    expect(name.names({ type: 'dns', value: 'n2.nodes.scn.test' })).toBe(false);
    expect(name.notAfter).toBeGreaterThan(name.notBefore);
    const address = certificateFacts(generateSelfSignedCertificate('203.0.113.7').certificatePem);
    expect(address.names({ type: 'ip', value: '203.0.113.7' })).toBe(true);
    expect(address.names({ type: 'ip', value: '203.0.113.8' })).toBe(false);
  });
});

describe('certificateSource', () => {
  it('should read configs from before ACME certificates by selfSigned', () => {
    const base = { security: 'tls', network: 'tcp', planRevision: '0' } as const;
    expect(certificateSource({ ...base, selfSigned: true })).toBe('self_signed');
    expect(certificateSource({ ...base, selfSigned: false })).toBe('operator');
    expect(certificateSource({ ...base, selfSigned: true, certificateSource: 'acme' })).toBe(
      'acme',
    );
  });
});
