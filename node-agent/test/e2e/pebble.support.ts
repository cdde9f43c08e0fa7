import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { generateSelfSignedCertificate } from '../../src/proxy-core/tls-certificate';
import { eventually, freePort, killAndWait } from './proxy-core.support';

/**
 * Debian's `pebble`, Let's Encrypt's own test ACME server, as the node's CA: it speaks the real
 * protocol (RFC 8555, IP identifiers of RFC 8738), validates HTTP-01 by connecting to the
 * identifier on `httpPort`, and resolves names only through `dnsPort` (a DNS server the test
 * runs), so nothing leaves the machine. Its issued certificates chain to a root made at start
 * (`rootPem`), which a client trusts as a phone trusts Let's Encrypt's.
 */
export const PEBBLE = '/usr/bin/pebble';
export const hasPebble = existsSync(PEBBLE);

export interface Pebble {
  directoryUrl: string;
  /** The CA of the ACME API's own HTTPS certificate (the agent's --acme-ca-file). */
  apiCaFile: string;
  /** The root every certificate pebble issues chains to (PEM). */
  rootPem: string;
  rootFile: string;
  /** Where pebble connects for HTTP-01 (the agent's --acme-http-port). */
  httpPort: number;
  stop(): Promise<void>;
}

function getText(url: string, ca: string): Promise<string> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          response.statusCode === 200
            ? resolve(body)
            : reject(new Error(`${url}: HTTP ${response.statusCode}`)),
        );
      })
      .on('error', reject);
  });
}

export async function startPebble(options: { dir: string; dnsPort: number }): Promise<Pebble> {
  const api = generateSelfSignedCertificate('127.0.0.1');
  const apiCaFile = path.join(options.dir, 'pebble-api.pem');
  const apiKeyFile = path.join(options.dir, 'pebble-api.key');
  await writeFile(apiCaFile, api.certificatePem);
  await writeFile(apiKeyFile, api.keyPem, { mode: 0o600 });
  const [listenPort, managementPort, httpPort, tlsPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const configFile = path.join(options.dir, 'pebble.json');
  await writeFile(
    configFile,
    JSON.stringify({
      pebble: {
        listenAddress: `127.0.0.1:${listenPort}`,
        managementListenAddress: `127.0.0.1:${managementPort}`,
        certificate: apiCaFile,
        privateKey: apiKeyFile,
        httpPort,
        tlsPort,
        ocspResponderURL: '',
        externalAccountBindingRequired: false,
      },
    }),
  );
  const child: ChildProcess = spawn(
    PEBBLE,
    ['-config', configFile, '-dnsserver', `127.0.0.1:${options.dnsPort}`, '-strict'],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        // Validate at once, never reject a nonce on purpose, never reuse an authorization.
        PEBBLE_VA_NOSLEEP: '1',
        PEBBLE_WFE_NONCEREJECT: '0',
        PEBBLE_AUTHZREUSE: '0',
      },
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const directoryUrl = `https://127.0.0.1:${listenPort}/dir`;
  try {
    await eventually(() => getText(directoryUrl, api.certificatePem), 10_000, 50);
  } catch (error) {
    await killAndWait(child);
    throw new Error(`pebble did not start: ${(error as Error).message}\n${stderr}`);
  }
  const rootPem = await getText(`https://127.0.0.1:${managementPort}/roots/0`, api.certificatePem);
  const rootFile = path.join(options.dir, 'pebble-root.pem');
  await writeFile(rootFile, rootPem);
  return {
    directoryUrl,
    apiCaFile,
    rootPem,
    rootFile,
    httpPort,
    stop: () => killAndWait(child),
  };
}
