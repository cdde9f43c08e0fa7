import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import {
  CERTIFICATE_VALIDITY_YEARS,
  certificatePins,
  generateSelfSignedCertificate,
  ipv6Bytes,
} from './tls-certificate';

const NOW = new Date('2026-11-25T03:00:00.000Z');

function parse(host: string, now = NOW) {
  const made = generateSelfSignedCertificate(host, now);
  return { made, x509: new X509Certificate(made.certificatePem) };
}

describe('generateSelfSignedCertificate', () => {
  it.each([
    ['203.0.113.7', 'IP Address:203.0.113.7'],
    ['node.example.net', 'DNS:node.example.net'],
    ['Node.Example.NET', 'DNS:node.example.net'],
    ['2001:db8::1', 'IP Address:2001:DB8:0:0:0:0:0:1'],
  ])('should name %s in the SAN as %s, and nothing else', (host, san) => {
    const { x509 } = parse(host);
    expect(x509.subjectAltName).toBe(san);
    expect(x509.checkHost('node.example.net')).toBe(
      san.startsWith('DNS') ? 'node.example.net' : undefined,
    );
    if (san.startsWith('IP')) expect(x509.checkIP(host)).toBe(host);
  });

  it('should make an ECDSA P-256 key, self-signed, matching the private key', () => {
    const { made, x509 } = parse('203.0.113.7');
    expect(x509.publicKey.asymmetricKeyType).toBe('ec');
    expect(x509.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: 'prime256v1' });
    expect(x509.verify(x509.publicKey)).toBe(true);
    expect(x509.issuer).toBe(x509.subject);
    expect(x509.ca).toBe(false);
    expect(x509.keyUsage).toEqual(['1.3.6.1.5.5.7.3.1']);
    expect(x509.checkPrivateKey(createPrivateKey(made.keyPem))).toBe(true);
    expect(made.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n/);
  });

  it('should be valid from a minute before now for ten years', () => {
    const { x509 } = parse('203.0.113.7');
    expect(new Date(x509.validFrom).toISOString()).toBe('2026-11-25T02:59:00.000Z');
    expect(new Date(x509.validTo).toISOString()).toBe(
      `${2026 + CERTIFICATE_VALIDITY_YEARS}-11-25T02:59:00.000Z`,
    );
  });

  it('should encode a validity ending in 2050 or later as GeneralizedTime', () => {
    const { x509 } = parse('203.0.113.7', new Date('2045-01-01T00:01:00.000Z'));
    expect(new Date(x509.validTo).toISOString()).toBe('2055-01-01T00:00:00.000Z');
  });

  it('should use a fresh key and serial each time', () => {
    const a = parse('203.0.113.7').x509;
    const b = parse('203.0.113.7').x509;
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.fingerprint256).not.toBe(b.fingerprint256);
  });

  it('should keep a long name out of the CN (64 characters at most) but in the SAN', () => {
    const host = `${'a'.repeat(60)}.example.net`;
    const { x509 } = parse(host);
    expect(x509.subject).toBe('CN=scn-agent');
    expect(x509.subjectAltName).toBe(`DNS:${host}`);
  });

  it('should refuse what is neither a host name nor an address', () => {
    expect(() => generateSelfSignedCertificate('no spaces.example')).toThrow(/not a host name/);
    expect(() => generateSelfSignedCertificate('')).toThrow(/not a host name/);
  });
});

describe('certificatePins', () => {
  it('should pin the leaf DER (hex) and its SPKI (base64) as clients compute them', () => {
    const { made, x509 } = parse('203.0.113.7');
    const pins = certificatePins(made.certificatePem);
    // node:crypto's own fingerprint of the DER, without colons, lower case.
    expect(pins.certificateSha256).toBe(x509.fingerprint256.replace(/:/g, '').toLowerCase());
    expect(pins.certificateSha256).toMatch(/^[0-9a-f]{64}$/);
    const spki = x509.publicKey.export({ type: 'spki', format: 'der' });
    expect(pins.publicKeySha256).toBe(createHash('sha256').update(spki).digest('base64'));
    expect(Buffer.from(pins.publicKeySha256, 'base64')).toHaveLength(32);
    expect(pins.notAfter).toBe(new Date(x509.validTo).toISOString());
  });
});

describe('ipv6Bytes', () => {
  it.each([
    ['::1', '00000000000000000000000000000001'],
    ['2001:db8::', '20010db8000000000000000000000000'],
    ['::ffff:192.0.2.1', '00000000000000000000ffffc0000201'],
    ['fe80::1:2', 'fe800000000000000000000000010002'],
  ])('should expand %s', (address, hex) => {
    expect(ipv6Bytes(address).toString('hex')).toBe(hex);
  });
});
