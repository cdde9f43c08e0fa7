import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A certificate authority for tests, made with the openssl CLI: the test's stand-in for a public
 * CA such as Let's Encrypt. A client trusts it the way a phone trusts a public CA when its
 * system roots are this CA's file (startAppClient's systemRootsFile sets SSL_CERT_FILE).
 */
export interface TestCa {
  /** The root certificate, PEM, in a file of its own (a client's whole root store). */
  rootFile: string;
  rootPem: string;
  /** A leaf certificate for `host` (a DNS name or an IP address) signed by this CA. */
  issue(host: string): Promise<IssuedCertificate>;
}

export interface IssuedCertificate {
  certificateFile: string;
  keyFile: string;
  certificatePem: string;
}

/** Whether the openssl CLI is here (suites skip with a printed reason when it is not). */
export function hasOpenssl(): boolean {
  return spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0;
}

const EC_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** A fresh CA (ECDSA P-256, valid two days) under `dir`. */
export async function createTestCa(dir: string, name = 'SCN Test Root'): Promise<TestCa> {
  await mkdir(dir, { recursive: true });
  const rootFile = path.join(dir, 'root.pem');
  const rootKey = path.join(dir, 'root.key');
  await run('openssl', [
    'req',
    '-x509',
    ...EC_KEY,
    '-keyout',
    rootKey,
    '-out',
    rootFile,
    '-days',
    '2',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  let issued = 0;
  return {
    rootFile,
    rootPem: await readFile(rootFile, 'utf8'),
    async issue(host: string): Promise<IssuedCertificate> {
      issued += 1;
      const base = path.join(dir, `leaf-${issued}`);
      const extensions = `${base}.ext`;
      await writeFile(
        extensions,
        [
          `subjectAltName=${net.isIP(host) ? 'IP' : 'DNS'}:${host}`,
          'basicConstraints=critical,CA:FALSE',
          'keyUsage=critical,digitalSignature',
          'extendedKeyUsage=serverAuth',
          '',
        ].join('\n'),
      );
      await run('openssl', [
        'req',
        '-new',
        ...EC_KEY,
        '-keyout',
        `${base}.key`,
        '-out',
        `${base}.csr`,
        '-subj',
        `/CN=${host}`,
      ]);
      await run('openssl', [
        'x509',
        '-req',
        '-in',
        `${base}.csr`,
        '-CA',
        rootFile,
        '-CAkey',
        rootKey,
        '-set_serial',
        `0x${randomBytes(16)
          .toString('hex')
          .replace(/^[89a-f]/, '1')}`,
        '-days',
        '2',
        '-sha256',
        '-extfile',
        extensions,
        '-out',
        `${base}.pem`,
      ]);
      return {
        certificateFile: `${base}.pem`,
        keyFile: `${base}.key`,
        certificatePem: await readFile(`${base}.pem`, 'utf8'),
      };
    },
  };
}
