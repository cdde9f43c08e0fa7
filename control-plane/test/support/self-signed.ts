import { execFileSync } from 'node:child_process';
import { createHash, X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A self-signed certificate as a node agent makes one, with its pins. */
export interface SelfSigned {
  certificatePem: string;
  keyPem: string;
  /** The leaf's SHA-256 (DER), lower-case hex: the links' `pcs`. */
  certificateSha256: string;
  /** The SubjectPublicKeyInfo's SHA-256, base64. */
  publicKeySha256: string;
}

/** A P-256 self-signed certificate for `name` (DNS SAN), made by the real openssl. */
export function selfSigned(name: string): SelfSigned {
  const dir = mkdtempSync(join(tmpdir(), 'scn-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '2',
        '-subj',
        `/CN=${name}`,
        '-addext',
        `subjectAltName=DNS:${name}`,
      ],
      { stdio: 'ignore' },
    );
    const certificatePem = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const certificate = new X509Certificate(certificatePem);
    return {
      certificatePem,
      keyPem: readFileSync(join(dir, 'key.pem'), 'utf8'),
      certificateSha256: createHash('sha256').update(certificate.raw).digest('hex'),
      publicKeySha256: createHash('sha256')
        .update(certificate.publicKey.export({ type: 'spki', format: 'der' }))
        .digest('base64'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
