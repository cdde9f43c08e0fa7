import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { coreDefaultSecurity, inboundUnsupportedReason, type ProxyCoreKind } from '@scn/proto';
import type { AgentInbound } from '../config/agent-config';
import { generateRealityKeyPair, generateRealityShortId } from './reality-keys';
import { DEFAULT_REALITY_DEST } from './reality-targets';
import { certificateFacts } from '../certificates/certificate-plan';
import { generateSelfSignedCertificate } from './tls-certificate';

/**
 * The node's secure VLESS inbound: what `scn-agent enroll` sets up and what an
 * inbound plan changes. Xray serves VLESS + REALITY (+ xtls-rprx-vision over tcp) by default;
 * v2ray 4.34, which has no REALITY, serves VLESS + TLS with the agent's self-signed certificate
 * or the operator's CA-issued one. tcp, ws and grpc carry either.
 */

export type InboundSecurity = AgentInbound['security'];
export type InboundNetwork = AgentInbound['network'];

export const NETWORKS: readonly InboundNetwork[] = ['tcp', 'ws', 'grpc'];

/** REALITY's default camouflage target, from the checked list in reality-targets.ts. */
export { DEFAULT_REALITY_DEST };
/** The uTLS fingerprint the links ask clients to present. */
export const DEFAULT_FINGERPRINT = 'chrome';
export const VISION_FLOW = 'xtls-rprx-vision';
/** File names of the self-signed certificate and its key, in the TLS folder. */
export const CERTIFICATE_FILE = 'certificate.pem';
export const KEY_FILE = 'key.pem';

/** xtls-rprx-vision where Xray can run it (tcp with REALITY or TLS); no flow otherwise. */
export function flowFor(kind: ProxyCoreKind, security: InboundSecurity, network: InboundNetwork) {
  return kind === 'xray' && network === 'tcp' && security !== 'none' ? VISION_FLOW : undefined;
}

/** A fresh WebSocket path: `/` and 16 hex digits. */
export function randomWsPath(): string {
  return `/${randomBytes(8).toString('hex')}`;
}

/** A fresh gRPC service name: 16 hex digits. */
export function randomServiceName(): string {
  return randomBytes(8).toString('hex');
}

/** The sni of a REALITY target `host:port` (its host). */
export function realityServerName(dest: string): string {
  return dest.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
}

export interface InboundMaterialOptions {
  kind: ProxyCoreKind;
  /** What clients dial: the self-signed certificate's SAN and the TLS sni. */
  publicHost: string;
  /** Folder of the self-signed certificate and key (created 0700). */
  tlsDir: string;
  /** REALITY target (`host:port`) and server name; defaults above. */
  realityDest?: string;
  realitySni?: string;
  /** The operator's CA-issued certificate and key (TLS): no pin is reported then. */
  certificateFile?: string;
  keyFile?: string;
}

/** Writes `content` atomically with `mode`. */
export async function writeSecretFile(
  file: string,
  content: string | Buffer,
  mode: number,
): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString('hex')}.tmp`;
  await writeFile(temporary, content, { mode });
  await chmod(temporary, mode);
  await rename(temporary, file);
}

/**
 * A self-signed certificate for `publicHost` in `tlsDir` (key 0600, certificate 0644), kept when
 * one is already there for the same host, so clients keep their pin across re-enrollment or a
 * plan that comes back to TLS.
 */
export async function ensureSelfSignedCertificate(
  tlsDir: string,
  publicHost: string,
): Promise<{ certificateFile: string; keyFile: string }> {
  const certificateFile = path.join(tlsDir, CERTIFICATE_FILE);
  const keyFile = path.join(tlsDir, KEY_FILE);
  const existing = await readFile(certificateFile, 'utf8').catch(() => null);
  const keyExists = await readFile(keyFile).then(
    () => true,
    () => false,
  );
  if (existing && keyExists && certificateFits(existing, publicHost)) {
    return { certificateFile, keyFile };
  }
  await mkdir(tlsDir, { recursive: true, mode: 0o700 });
  const made = generateSelfSignedCertificate(publicHost);
  await writeSecretFile(keyFile, made.keyPem, 0o600);
  await writeSecretFile(certificateFile, made.certificatePem, 0o644);
  return { certificateFile, keyFile };
}

/** Whether a certificate names `host` and stays valid for at least another 30 days. */
function certificateFits(pem: string, host: string): boolean {
  try {
    const facts = certificateFacts(pem);
    const identity = { type: net.isIP(host) ? 'ip' : 'dns', value: host } as const;
    return facts.names(identity) && facts.notAfter > Date.now() + 30 * 86_400_000;
  } catch {
    return false; // unreadable: replaced
  }
}

/**
 * Adds what `security` needs and the inbound lacks, keeping what it has: the REALITY key pair,
 * short id and target, or the certificate (self-signed when the operator gave none).
 */
export async function withSecurityMaterial(
  inbound: AgentInbound,
  security: InboundSecurity,
  options: InboundMaterialOptions,
): Promise<AgentInbound> {
  const next: AgentInbound = { ...inbound, security };
  if (security === 'reality' && !(next.realityPrivateKey && next.pbk)) {
    const keys = generateRealityKeyPair();
    next.realityPrivateKey = keys.privateKey;
    next.pbk = keys.publicKey;
  }
  if (security === 'reality') {
    next.sid ??= generateRealityShortId();
    next.realityDest ??= options.realityDest ?? DEFAULT_REALITY_DEST;
  }
  if (security === 'tls' && !(next.certificateFile && next.keyFile)) {
    if (options.certificateFile && options.keyFile) {
      next.certificateFile = path.resolve(options.certificateFile);
      next.keyFile = path.resolve(options.keyFile);
      next.selfSigned = false;
      next.certificateSource = 'operator';
    } else {
      // The fallback until the certificate manager gets a CA's (certificates/).
      Object.assign(next, await ensureSelfSignedCertificate(options.tlsDir, options.publicHost));
      next.selfSigned = true;
      next.certificateSource = 'self_signed';
    }
  }
  // The name clients send: REALITY's target, or the node's own name for TLS.
  if (security === 'reality') {
    const kept = inbound.security === 'reality' ? inbound.sni : undefined;
    next.sni = options.realitySni ?? kept ?? realityServerName(next.realityDest!);
  } else if (security === 'tls') {
    next.sni = options.publicHost;
  } else {
    delete next.sni;
  }
  next.fp = security === 'none' ? undefined : DEFAULT_FINGERPRINT;
  if (next.fp === undefined) delete next.fp;
  return next;
}

/** Sets the network, with a fresh ws path or gRPC service name only when the network changes. */
export function withNetwork(
  kind: ProxyCoreKind,
  inbound: AgentInbound,
  network: InboundNetwork,
): AgentInbound {
  const next: AgentInbound = { ...inbound, network };
  if (network !== inbound.network || (network === 'ws' && !next.path)) {
    if (network === 'ws') next.path = randomWsPath();
  }
  if (network !== inbound.network || (network === 'grpc' && !next.serviceName)) {
    if (network === 'grpc') next.serviceName = randomServiceName();
  }
  if (network !== 'ws') delete next.path;
  if (network !== 'grpc') delete next.serviceName;
  const flow = flowFor(kind, next.security, network);
  if (flow) next.flow = flow;
  else delete next.flow;
  return next;
}

/** The inbound `scn-agent enroll` writes: keys or certificate made here, fresh path or name. */
export async function createInbound(
  options: InboundMaterialOptions & {
    security?: InboundSecurity;
    network?: InboundNetwork;
    planRevision?: string;
  },
): Promise<AgentInbound> {
  const security = options.security ?? coreDefaultSecurity(options.kind);
  const network = options.network ?? 'tcp';
  const reason = inboundUnsupportedReason(options.kind, security, network);
  if (reason) throw new Error(reason);
  const base: AgentInbound = { security, network, planRevision: options.planRevision ?? '0' };
  const secured = await withSecurityMaterial(base, security, options);
  return withNetwork(options.kind, { ...secured, network: 'tcp' }, network);
}

/** The folder of the self-signed certificate: `tls/` beside the agent's config file. */
export function tlsDirFor(configPath: string): string {
  return path.join(path.dirname(configPath), 'tls');
}
