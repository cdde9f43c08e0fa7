import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A private CA and a server certificate it issued, made by the real openssl in `dir`: what a
 * test's TLS-terminating proxy serves (never an outside ACME). The certificate names localhost
 * and 127.0.0.1; clients trust `caPem` (agents: `enroll --ca-file`).
 */
export interface LocalCa {
  caPem: string;
  certificatePem: string;
  keyPem: string;
}

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

export function makeLocalCa(dir: string): LocalCa {
  // prettier-ignore
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-days', '2', '-subj', '/CN=SCN test CA',
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign',
    '-keyout', 'ca.key', '-out', 'ca.pem');
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  // prettier-ignore
  openssl(dir, 'req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1',
    '-nodes', '-subj', '/CN=localhost', '-keyout', 'server.key', '-out', 'server.csr');
  // prettier-ignore
  openssl(dir, 'x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key',
    '-CAcreateserial', '-days', '2', '-extfile', 'server.ext', '-out', 'server.pem');
  return {
    caPem: join(dir, 'ca.pem'),
    certificatePem: join(dir, 'server.pem'),
    keyPem: join(dir, 'server.key'),
  };
}
