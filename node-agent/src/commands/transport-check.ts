import { execFile } from 'node:child_process';
import { access, constants, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentConfig } from '../config/agent-config';
import { buildCoreConfig, writeCoreConfig } from '../proxy-core/core-config';
import { decoyFallbackDest } from '../proxy-core/decoy';
import { coreInboundSettings, describeInbound } from '../proxy-core/inbound-plan';
import { certificatePins } from '../proxy-core/tls-certificate';
import { certificateSource } from '../certificates/certificate-plan';

/**
 * What `doctor` and `status` say about the transport: which inbound runs, its
 * REALITY key or certificate, and whether the core accepts the config the agent gives it
 * (`v2ray -test -config` / `xray run -test -config`).
 */

export interface TransportSummary {
  security: string;
  network: string;
  port: number;
  sni: string | null;
  flow: string | null;
  path: string | null;
  serviceName: string | null;
  /** REALITY: the public key and short id clients need. */
  reality: { publicKey: string; shortId: string; dest: string } | null;
  /** TLS: the certificate's pins and expiry, or why it cannot be read. */
  certificate:
    | {
        file: string;
        selfSigned: boolean;
        source: 'acme' | 'operator' | 'self_signed';
        sha256: string;
        publicKeySha256: string;
        notAfter: string;
        subjectAltName: string;
      }
    | { file: string; error: string }
    | null;
  planRevision: string;
  lastPlan: AgentConfig['lastPlan'] | null;
}

export async function summarizeTransport(config: AgentConfig): Promise<TransportSummary> {
  const inbound = config.inbound;
  let certificate: TransportSummary['certificate'] = null;
  if (inbound.security === 'tls' && inbound.certificateFile) {
    const file = inbound.certificateFile;
    try {
      const pins = certificatePins(await readFile(file, 'utf8'));
      certificate = {
        file,
        selfSigned: certificateSource(inbound) === 'self_signed',
        source: certificateSource(inbound),
        sha256: pins.certificateSha256,
        publicKeySha256: pins.publicKeySha256,
        notAfter: pins.notAfter,
        subjectAltName: pins.subjectAltName,
      };
    } catch (error) {
      certificate = { file, error: (error as Error).message };
    }
  }
  return {
    security: inbound.security,
    network: inbound.network,
    port: config.publicPort,
    sni: inbound.sni ?? null,
    flow: inbound.flow ?? null,
    path: inbound.network === 'ws' ? (inbound.path ?? null) : null,
    serviceName: inbound.network === 'grpc' ? (inbound.serviceName ?? null) : null,
    reality:
      inbound.security === 'reality'
        ? {
            publicKey: inbound.pbk ?? '',
            shortId: inbound.sid ?? '',
            dest: inbound.realityDest ?? '',
          }
        : null,
    certificate,
    planRevision: inbound.planRevision,
    lastPlan: config.lastPlan ?? null,
  };
}

const SOURCE_LABEL = {
  acme: 'issued by the ACME CA',
  operator: 'operator-supplied',
  self_signed: 'self-signed',
} as const;

/** One line: `tls/ws on port 443, path /…, certificate sha256 ab… (self-signed, until …)`. */
export function describeTransport(summary: TransportSummary): string {
  const parts = [
    `${summary.security}/${summary.network} on port ${summary.port}`,
    ...(summary.sni ? [`sni ${summary.sni}`] : []),
    ...(summary.flow ? [`flow ${summary.flow}`] : []),
    ...(summary.path ? [`path ${summary.path}`] : []),
    ...(summary.serviceName ? [`serviceName ${summary.serviceName}`] : []),
  ];
  if (summary.reality) {
    parts.push(
      `REALITY public key ${summary.reality.publicKey}, short id ${summary.reality.shortId}, target ${summary.reality.dest}`,
    );
  }
  const cert = summary.certificate;
  if (cert && 'error' in cert) parts.push(`certificate ${cert.file} UNREADABLE: ${cert.error}`);
  else if (cert) {
    parts.push(
      `certificate sha256 ${cert.sha256} (${SOURCE_LABEL[cert.source]}, ` +
        `${cert.subjectAltName}, valid until ${cert.notAfter})`,
    );
  }
  if (summary.security === 'none') parts.push('PLAINTEXT: for loopback tests only');
  return parts.join('; ');
}

export interface CoreConfigVerdict {
  /** true: the core accepted it; false: refused; null: not tested (no core binary). */
  accepted: boolean | null;
  command: string;
  /** The core's own words (last lines), or why the test did not run. */
  output: string;
}

/**
 * Builds the core config the daemon would write (this inbound, the allowed clients) into a
 * private temporary folder and asks the core whether it accepts it.
 */
export async function testCoreConfig(
  config: AgentConfig,
  timeoutMs = 15_000,
): Promise<CoreConfigVerdict> {
  const binary = config.core.binary;
  const present = await access(binary, constants.X_OK).then(
    () => true,
    () => false,
  );
  if (!present) return { accepted: null, command: binary, output: `${binary} is not installed` };
  let coreConfig;
  try {
    coreConfig = buildCoreConfig({
      kind: config.core.kind,
      inbound: coreInboundSettings(config.inbound, config.publicPort),
      apiPort: config.core.apiPort,
      allowedUuids: config.allowedClients,
      fallbackDest: decoyFallbackDest(config),
      socketDir: config.core.workDir,
    });
  } catch (error) {
    return { accepted: false, command: 'scn-agent', output: (error as Error).message };
  }
  const dir = await mkdtemp(path.join(os.tmpdir(), 'scn-agent-test-'));
  try {
    const file = await writeCoreConfig(path.join(dir, 'core'), coreConfig);
    const args =
      config.core.kind === 'v2ray' ? ['-test', '-config', file] : ['run', '-test', '-config', file];
    const command = `${binary} ${args.join(' ')}`;
    return await new Promise<CoreConfigVerdict>((resolve) => {
      execFile(binary, args, { timeout: timeoutMs }, (error, stdout, stderr) => {
        const output = `${stdout}${stderr}`.trim().split('\n').slice(-5).join('\n');
        resolve({ accepted: error === null, command, output });
      });
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export { describeInbound };
