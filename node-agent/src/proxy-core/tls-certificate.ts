import {
  createHash,
  generateKeyPairSync,
  type KeyObject,
  randomBytes,
  sign,
  X509Certificate,
} from 'node:crypto';
import net from 'node:net';

/**
 * The self-signed TLS certificate of a v2ray node: ECDSA P-256, SAN = the public
 * host (an IP SAN for an address, a DNS SAN for a name), valid for ten years. Clients cannot
 * verify it by name, so the agent reports its pins (certificate_sha256, public_key_sha256) and
 * the links carry them.
 *
 * Written with node:crypto and the small DER writer below rather than a library: the agent ships
 * as one bundled file kept in memory on a 1 GB VPS (node-agent/scripts/build-agent-file.mjs), and
 * an X.509 library brings an ASN.1 stack and polyfills for the few fields needed here. The tests
 * parse every certificate back with node:crypto's X509Certificate and run it in real v2ray.
 */

export interface SelfSignedCertificate {
  certificatePem: string;
  /** PKCS #8, PEM. */
  keyPem: string;
}

export interface CertificatePins {
  /** SHA-256 of the certificate's DER, 64 lower-case hex digits (links' `pcs`). */
  certificateSha256: string;
  /** SHA-256 of its SubjectPublicKeyInfo DER, base64 (sing-box certificate_public_key_sha256). */
  publicKeySha256: string;
  /** The end of its validity, ISO 8601. */
  notAfter: string;
  /** The names it is valid for, as X509Certificate prints them (`IP Address:1.2.3.4`, `DNS:x`). */
  subjectAltName: string;
}

export const CERTIFICATE_VALIDITY_YEARS = 10;

// --- DER ------------------------------------------------------------------------------------

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

const sequence = (...items: Buffer[]) => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]) => tlv(0x31, Buffer.concat(items));
const octetString = (content: Buffer) => tlv(0x04, content);
/** A BIT STRING with no unused bits. */
const bitString = (content: Buffer) => tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
const explicit = (n: number, content: Buffer) => tlv(0xa0 + n, content);

/** A positive INTEGER from big-endian bytes (a leading 0 when the top bit is set). */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start += 1;
  const trimmed = bytes.subarray(start);
  return tlv(0x02, trimmed[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), trimmed]) : trimmed);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk = [part & 0x7f];
    for (let rest = Math.floor(part / 128); rest > 0; rest = Math.floor(rest / 128)) {
      chunk.unshift(0x80 | (rest & 0x7f));
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** RFC 5280 §4.1.2.5: UTCTime through 2049, GeneralizedTime from 2050. */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-25T03:08:26.000Z
  const digits = iso.slice(0, 19).replace(/[-T:]/g, ''); // 20261125030826
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, 'ascii'))
    : tlv(0x18, Buffer.from(`${digits}Z`, 'ascii'));
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
} as const;

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return sequence(
    oid(id),
    ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []),
    octetString(value),
  );
}

/** The 16 bytes of an IPv6 address (with `::` and an embedded IPv4 tail). */
export function ipv6Bytes(address: string): Buffer {
  if (!net.isIPv6(address)) throw new Error(`not an IPv6 address: ${address}`);
  let text = address.replace(/%.*$/, '');
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split('.').map(Number);
    text = `${text.slice(0, -v4[1]!.length)}${((a! << 8) | b!).toString(16)}:${((c! << 8) | d!).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? 0 : 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(zeros).fill('0'), ...tailGroups];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, i) => bytes.writeUInt16BE(parseInt(group, 16), i * 2));
  return bytes;
}

/** The SAN's one GeneralName: iPAddress [7] for an address, dNSName [2] for a name. */
function generalName(host: string): Buffer {
  if (net.isIPv4(host)) return tlv(0x87, Buffer.from(host.split('.').map(Number)));
  if (net.isIPv6(host)) return tlv(0x87, ipv6Bytes(host));
  return tlv(0x82, Buffer.from(host.toLowerCase(), 'ascii'));
}

function name(commonName: string): Buffer {
  return sequence(set(sequence(oid(OID.commonName), tlv(0x0c, Buffer.from(commonName, 'utf8')))));
}

// --- the certificate ---------------------------------------------------------------------------

/** Whether a certificate can name `host`: an IP address or a DNS name (letters, digits, -). */
export function canCertify(host: string): boolean {
  return net.isIP(host) !== 0 || /^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)*$/i.test(host);
}

/**
 * A fresh key pair and self-signed certificate for `host` (what clients dial: a host name or an
 * IPv4/IPv6 address, unbracketed), valid from a minute before `now` for ten years.
 */
export function generateSelfSignedCertificate(
  host: string,
  now: Date = new Date(),
): SelfSignedCertificate {
  if (!canCertify(host)) {
    throw new Error(`cannot make a certificate for "${host}": not a host name or an IP address`);
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const notBefore = new Date(now.getTime() - 60_000);
  const notAfter = new Date(notBefore);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + CERTIFICATE_VALIDITY_YEARS);
  // CN is at most 64 characters (RFC 5280 ub-common-name); clients match the SAN anyway.
  const subject = name(host.length <= 64 ? host : 'scn-agent');
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f; // positive, at most 20 octets (RFC 5280 §4.1.2.2)
  const signatureAlgorithm = sequence(oid(OID.ecdsaWithSha256));
  const tbs = sequence(
    explicit(0, integer(Buffer.from([2]))), // v3
    integer(serial),
    signatureAlgorithm,
    subject, // issuer: self-signed
    sequence(time(notBefore), time(notAfter)),
    subject,
    publicKey.export({ type: 'spki', format: 'der' }),
    explicit(
      3,
      sequence(
        extension(OID.subjectAltName, false, sequence(generalName(host))),
        extension(OID.basicConstraints, true, sequence()),
        // digitalSignature only: ECDHE key exchange signs with the key.
        extension(OID.keyUsage, true, tlv(0x03, Buffer.from([0x07, 0x80]))),
        extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth))),
      ),
    ),
  );
  const signature = sign('sha256', tbs, privateKey as KeyObject);
  const der = sequence(tbs, signatureAlgorithm, bitString(signature));
  return {
    certificatePem: toPem(der),
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}

/** The pins and validity of a PEM certificate (its first certificate: the leaf). */
export function certificatePins(certificatePem: string): CertificatePins {
  const certificate = new X509Certificate(certificatePem);
  const spki = certificate.publicKey.export({ type: 'spki', format: 'der' });
  return {
    certificateSha256: createHash('sha256').update(certificate.raw).digest('hex'),
    publicKeySha256: createHash('sha256').update(spki).digest('base64'),
    notAfter: new Date(certificate.validTo).toISOString(),
    subjectAltName: certificate.subjectAltName ?? '',
  };
}
