import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseVlessLink, type VlessLink } from '@scn/proto';
import { APP_BEHAVIOURS, type AppBehaviour, type AppId } from './app-behaviours';
import { eventually } from './proxy-core.support';
import { certificatePin, presentedCertificate } from './tls-client.support';

/**
 * The v2ray 4.34 client config that app `app` would build from one `vless://` link and nothing
 * else (app-behaviours.ts says which fields each app reads): a SOCKS inbound on loopback and a
 * VLESS outbound with the link's address and uuid, and the transport, security, server name,
 * flow and encryption as that app reads them. v2ray 4.34 speaks none and tls (REALITY needs Xray).
 *
 * Certificates: an app that reads `pcs` trusts only the pinned leaf (Xray's
 * pinnedPeerCertSha256; v2ray 4.34 cannot pin a hash, so the presented certificate is checked
 * against the pin here and given as the only authority, with the system roots off). Any other
 * app verifies the certificate against the client process's system roots, which Go reads from
 * SSL_CERT_FILE (startAppClient sets it), unless the link turns checks off in a way it reads.
 * `fp` is not reproduced: v2ray 4.34 has no uTLS (it shapes the ClientHello, not trust).
 */
export async function clientConfigFromLink(
  link: string,
  socksPort: number,
  app: AppId,
): Promise<Record<string, unknown>> {
  const parsed = parseVlessLink(link);
  if (!parsed) throw new Error(`not a VLESS link: ${link}`);
  const behaviour = APP_BEHAVIOURS[app];
  const read = (name: string) => readParam(parsed, behaviour, name);
  const security = read('security') || 'none';
  if (security === 'reality') throw new Error('v2ray 4.34 cannot dial security=reality');
  const network = read('type') || 'tcp';
  if (network !== 'tcp' && network !== 'raw' && network !== 'ws') {
    throw new Error(`v2ray 4.34 cannot dial type=${network}`);
  }
  const flow = behaviour.readsFlow ? read('flow') : undefined;
  const host = read('host');
  return {
    // v2ray logs a failed outbound (an x509 error, say) at info: startAppClient keeps the log.
    log: { loglevel: 'info', access: 'none' },
    inbounds: [
      {
        listen: '127.0.0.1',
        port: socksPort,
        protocol: 'socks',
        settings: { auth: 'noauth', udp: false },
      },
    ],
    outbounds: [
      {
        protocol: 'vless',
        settings: {
          vnext: [
            {
              address: parsed.host,
              port: parsed.port,
              users: [
                {
                  id: parsed.uuid,
                  encryption: (behaviour.readsEncryption && read('encryption')) || 'none',
                  ...(flow ? { flow } : {}),
                  level: 0,
                },
              ],
            },
          ],
        },
        streamSettings: {
          network: network === 'raw' ? 'tcp' : network,
          security: security === 'tls' ? 'tls' : 'none',
          ...(security === 'tls'
            ? { tlsSettings: await tlsSettings(parsed, behaviour, network) }
            : {}),
          ...(network === 'ws'
            ? {
                wsSettings: {
                  path: read('path') || '/',
                  ...(host ? { headers: { Host: host } } : {}),
                },
              }
            : {}),
        },
      },
    ],
  };
}

/** A link parameter as the app looks it up (Hiddify: any case, `_`/`-` alike). */
function readParam(link: VlessLink, app: AppBehaviour, name: string): string | undefined {
  if (!app.caseInsensitiveNames) return link.params[name];
  const normal = (key: string) => key.trim().toLowerCase().replace(/[_-]/g, ' ');
  const key = Object.keys(link.params).find((candidate) => normal(candidate) === normal(name));
  return key === undefined ? undefined : link.params[key];
}

/** The TLS server name the app ends with (app-behaviours.ts serverNameFrom). */
export function appServerName(link: VlessLink, app: AppBehaviour, network: string): string {
  const [first, ...fallbacks] =
    network === 'grpc' ? app.serverNameFrom.grpc : app.serverNameFrom.default;
  const given = first ? readParam(link, app, first) : undefined;
  if (given) return given;
  const fallback = fallbacks
    .map((name) => readParam(link, app, name)?.split(',')[0]?.trim())
    .find((value) => value);
  if (!app.fallbackNeedsDomainName) return fallback || link.host;
  // v2rayNG: the transport's host if a DNS name, else the server if a DNS name, else that host.
  if (fallback && net.isIP(fallback) === 0) return fallback;
  if (net.isIP(link.host) === 0) return link.host;
  return fallback || link.host;
}

function allowsInsecure(link: VlessLink, app: AppBehaviour): boolean {
  const { keys, trueValues, defaultValue } = app.allowInsecure;
  return keys.some((key) => {
    const value = readParam(link, app, key);
    if (value === undefined) return false;
    return trueValues === 'any-non-empty' ? value !== '' : trueValues.includes(value);
  })
    ? true
    : defaultValue;
}

async function tlsSettings(
  link: VlessLink,
  app: AppBehaviour,
  network: string,
): Promise<Record<string, unknown>> {
  const serverName = appServerName(link, app, network);
  const alpnParam = readParam(link, app, 'alpn');
  const alpn = !alpnParam
    ? undefined
    : app.alpn === 'h2-http1-for-ws-grpc-httpupgrade' &&
        ['ws', 'grpc', 'httpupgrade'].includes(network)
      ? ['h2', 'http/1.1']
      : alpnParam.split(',').map((value) => value.trim());
  const base = {
    serverName,
    ...(allowsInsecure(link, app) ? { allowInsecure: true } : {}),
    ...(alpn ? { alpn } : {}),
  };
  const pin = app.readsPcs ? readParam(link, app, 'pcs')?.replace(/:/g, '').toLowerCase() : '';
  if (pin) {
    const presented = await presentedCertificate(link.host, link.port, serverName);
    if (certificatePin(presented) !== pin) {
      throw new Error(
        `pin mismatch: ${link.host}:${link.port} presented ${certificatePin(presented)}`,
      );
    }
    return { ...base, disableSystemRoot: true, certificates: [verifying(presented.toString())] };
  }
  const certificate = app.certificateParam ? readParam(link, app, app.certificateParam) : '';
  if (certificate) {
    return { ...base, disableSystemRoot: true, certificates: [verifying(certificate)] };
  }
  return base;
}

function verifying(pem: string): Record<string, unknown> {
  return { usage: 'verify', certificate: pem.trim().split('\n') };
}

export interface AppClient {
  process: ChildProcess;
  /** What the client printed so far (its log: errors such as x509 failures land here). */
  output(): string;
}

export interface AppClientOptions {
  /**
   * A PEM file that is the client's whole set of system roots (SSL_CERT_FILE, with SSL_CERT_DIR
   * pointed at an empty folder), as a phone's store holds Let's Encrypt. Default: the machine's.
   */
  systemRootsFile?: string;
}

/**
 * Starts a v2ray client configured as `app` would be from `link` alone; resolves when its SOCKS
 * port listens.
 */
export async function startAppClient(
  binary: string,
  workDir: string,
  link: string,
  socksPort: number,
  name: string,
  app: AppId,
  options: AppClientOptions = {},
): Promise<AppClient> {
  const configFile = path.join(workDir, `${name}.json`);
  await writeFile(configFile, JSON.stringify(await clientConfigFromLink(link, socksPort, app)), {
    mode: 0o600,
  });
  const env = { ...process.env };
  if (options.systemRootsFile) {
    const noRootsDir = path.join(workDir, `${name}-no-root-dir`);
    await mkdir(noRootsDir, { recursive: true });
    env.SSL_CERT_FILE = options.systemRootsFile;
    env.SSL_CERT_DIR = noRootsDir;
  }
  const child = spawn(binary, ['-config', configFile], { stdio: ['ignore', 'pipe', 'pipe'], env });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-64 * 1024);
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await eventually(
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(socksPort, '127.0.0.1', () => {
          socket.destroy();
          resolve();
        });
        socket.on('error', reject);
      }),
    5000,
    25,
  );
  return { process: child, output: () => output };
}

/** startAppClient for suites that only need the process. */
export async function startClientFromLink(
  binary: string,
  workDir: string,
  link: string,
  socksPort: number,
  name: string,
  app: AppId,
  options: AppClientOptions = {},
): Promise<ChildProcess> {
  return (await startAppClient(binary, workDir, link, socksPort, name, app, options)).process;
}
