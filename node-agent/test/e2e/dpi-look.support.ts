import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import net from 'node:net';
import tls from 'node:tls';
import path from 'node:path';
import { promisify } from 'node:util';
import { type AgentInbound } from '../../src/config/agent-config';
import { buildCoreConfig } from '../../src/proxy-core/core-config';
import { coreInboundSettings } from '../../src/proxy-core/inbound-plan';
import { createInbound, type InboundNetwork } from '../../src/proxy-core/inbound-setup';
import { certificatePins } from '../../src/proxy-core/tls-certificate';
import { reportedInbound } from '../../src/reporter/reporter';
import { netnsSkipReason, type TestNetns } from './netns.support';
import { NDPI_READER, TCPDUMP } from './ndpi.support';
import { eventually } from './proxy-core.support';
import { DEFAULT_APP } from './app-behaviours';
import { clientConfigFromLink } from './vless-link-client';
import { V2RAY } from './v2ray-node';

const execFileAsync = promisify(execFile);

/**
 * What a passive DPI box makes of the node's traffic (docs/security.md#what-dpi-sees): the
 * node's core, configured by the agent's own config builder, in a network namespace of its own
 * (so it can take 443 without competing with this machine), a v2ray client built from the link
 * the control plane serves, tcpdump on this machine's end of the namespace's veth, and Debian's
 * nDPI classifying the capture flow by flow (ndpi.support.ts).
 */

export const OPENSSL = '/usr/bin/openssl';
export const UNSHARE = '/usr/bin/unshare';

/** Why the measurement cannot run here, or null (root, `ip netns`, the tools). */
export function dpiLookSkipReason(): string | null {
  const netns = netnsSkipReason();
  if (netns) return netns;
  const missing = [V2RAY, NDPI_READER, TCPDUMP, OPENSSL, UNSHARE].filter((f) => !existsSync(f));
  return missing.length > 0
    ? `missing ${missing.join(', ')} (apt-get install libndpi-bin tcpdump)`
    : null;
}

export interface IssuedCertificate {
  certificateFile: string;
  keyFile: string;
}

/**
 * A test CA (openssl) and certificates it issued for `name`, one per lifetime in days, as an ACME
 * CA issues them: Let's Encrypt's are 90 days for a name, about 6 for an IP address. nDPI judges
 * the lifetime left when it sees the certificate (TLS 1.2), so the lifetimes matter.
 */
export async function issueFromTestCa(
  dir: string,
  name: string,
  lifetimesDays: readonly number[],
): Promise<{ caFile: string; issued: Map<number, IssuedCertificate> }> {
  const file = (base: string) => path.join(dir, base);
  const openssl = (...args: string[]) => execFileAsync(OPENSSL, args, { timeout: 30_000 });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  const caFile = file('ca.pem');
  // prettier-ignore
  await openssl('req', '-x509', ...ec, '-keyout', file('ca-key.pem'), '-out', caFile,
    '-subj', '/CN=SCN DPI test CA', '-days', '365');
  await writeFile(
    file('leaf.ext'),
    `subjectAltName=DNS:${name}\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n`,
  );
  const issued = new Map<number, IssuedCertificate>();
  for (const days of lifetimesDays) {
    const leaf = {
      certificateFile: file(`leaf-${days}.pem`),
      keyFile: file(`leaf-${days}-key.pem`),
    };
    // prettier-ignore
    await openssl('req', '-new', ...ec, '-keyout', leaf.keyFile, '-out', file('leaf.csr'),
      '-subj', `/CN=${name}`);
    // prettier-ignore
    await openssl('x509', '-req', '-in', file('leaf.csr'), '-CA', caFile, '-CAkey',
      file('ca-key.pem'), '-CAcreateserial', '-days', String(days), '-extfile', file('leaf.ext'),
      '-out', leaf.certificateFile);
    issued.set(days, leaf);
  }
  return { caFile, issued };
}

export interface MeasuredNodeOptions {
  network: InboundNetwork;
  /** What clients dial: a name (the CA-issued certificate names it) or the node's IP. */
  publicHost: string;
  port: number;
  /** The CA-issued certificate; absent: the agent's self-signed fallback for publicHost. */
  issued?: IssuedCertificate;
  clientUuid: string;
  workDir: string;
}

export interface MeasuredNode {
  inbound: AgentInbound;
  /** The inbound as the agent reports it (what the control plane builds links from). */
  reported: ReturnType<typeof reportedInbound>;
  process: ChildProcess;
}

/**
 * The node as `scn-agent enroll` sets it up (createInbound) and the daemon runs it
 * (buildCoreConfig), started on v2ray 4.34 inside the namespace on `port`.
 */
export async function startMeasuredNode(
  netns: TestNetns,
  options: MeasuredNodeOptions,
): Promise<MeasuredNode> {
  const inbound = await createInbound({
    kind: 'v2ray',
    publicHost: options.publicHost,
    tlsDir: path.join(options.workDir, 'tls'),
    security: 'tls',
    network: options.network,
    certificateFile: options.issued?.certificateFile,
    keyFile: options.issued?.keyFile,
  });
  const config = buildCoreConfig({
    kind: 'v2ray',
    inbound: coreInboundSettings(inbound, options.port),
    apiPort: 10085, // the namespace's own loopback: nothing else listens there
    allowedUuids: [options.clientUuid],
    // The pages are on the namespace's loopback.
    allowPrivateDestinations: true,
  });
  const configFile = path.join(options.workDir, 'core-config.json');
  await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
  const child = netns.spawn(V2RAY, ['-config', configFile]);
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await eventually(
    () =>
      child.exitCode === null
        ? tcpConnects(netns.nsAddress, options.port)
        : Promise.reject(new Error(`v2ray exited: ${output}`)),
    10_000,
    50,
  );
  const certificatePem =
    inbound.selfSigned && inbound.certificateFile
      ? await readFile(inbound.certificateFile, 'utf8')
      : null;
  const reported = reportedInbound(
    inbound,
    certificatePem ? { pins: certificatePins(certificatePem), sendPem: certificatePem } : null,
  );
  return { inbound, reported, process: child };
}

function tcpConnects(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host, () => {
      socket.destroy();
      resolve();
    });
    socket.on('error', reject);
  });
}

/**
 * A v2ray client built from the link alone as v2rayNG 2.0.7 builds it (vless-link-client.ts), trusting `caFile` as its root
 * store (Go's SSL_CERT_FILE; as a phone trusts Let's Encrypt, no pin, no allowInsecure) and resolving the link's name to `hosts`
 * through a private /etc/hosts in a mount namespace of its own (nothing on this machine changes).
 */
export async function startLinkClient(options: {
  link: string;
  socksPort: number;
  workDir: string;
  caFile?: string;
  hosts?: Readonly<Record<string, string>>;
}): Promise<ChildProcess> {
  const configFile = path.join(options.workDir, 'client.json');
  await writeFile(
    configFile,
    JSON.stringify(await clientConfigFromLink(options.link, options.socksPort, DEFAULT_APP)),
    { mode: 0o600 },
  );
  const hostsFile = path.join(options.workDir, 'hosts');
  const hostLines = Object.entries(options.hosts ?? {}).map(([name, ip]) => `${ip} ${name}`);
  await writeFile(hostsFile, ['127.0.0.1 localhost', ...hostLines, ''].join('\n'));
  const script = 'mount --bind "$1" /etc/hosts && shift && exec "$@"';
  const child = spawn(
    UNSHARE,
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      script,
      'sh',
      hostsFile,
      V2RAY,
      '-config',
      configFile,
    ],
    {
      stdio: 'ignore',
      env: { ...process.env, ...(options.caFile ? { SSL_CERT_FILE: options.caFile } : {}) },
    },
  );
  await eventually(() => tcpConnects('127.0.0.1', options.socksPort), 5000, 25);
  return child;
}

/**
 * A bare TLS handshake of `version` to the node, then close (Node's TLS, the certificate not
 * checked): what an old client or a prober shows a passive observer. Up to TLS 1.2 the
 * certificate travels in the clear, so nDPI can judge it ("Self-signed Certificate", "TLS
 * Certificate Mismatch"); TLS 1.3 hides it. Answers the version negotiated.
 */
export function tlsHandshake(
  host: string,
  port: number,
  servername: string | undefined,
  version: 'TLSv1' | 'TLSv1.2',
): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect(
      {
        host,
        port,
        ...(servername && net.isIP(servername) === 0 ? { servername } : {}),
        minVersion: version,
        maxVersion: version,
        // OpenSSL 3 refuses TLS 1.0 at its default security level.
        ...(version === 'TLSv1' ? { ciphers: 'DEFAULT:@SECLEVEL=0' } : {}),
        ALPNProtocols: ['h2', 'http/1.1'],
        rejectUnauthorized: false,
      },
      () => {
        const negotiated = socket.getProtocol() ?? '';
        socket.end();
        resolve(negotiated);
      },
    );
    socket.once('error', reject);
  });
}
