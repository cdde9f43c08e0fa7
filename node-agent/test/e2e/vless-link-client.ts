import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { parseVlessLink } from '@scn/proto';
import { eventually } from './proxy-core.support';
import { certificatePin, presentedCertificate } from './tls-client.support';

/**
 * The v2ray client config a user's app would build from one `vless://` link and nothing else:
 * a SOCKS inbound on loopback and a VLESS outbound with the link's address, uuid, flow, transport
 * and security. v2ray 4.34 speaks none and tls (REALITY needs Xray). With a certificate pin
 * (`pcs`, SHA-256 of the leaf), the presented certificate is checked against it and then
 * trusted alone, as a pinning client does (v2ray 4.34 cannot pin a hash itself).
 */
export async function clientConfigFromLink(
  link: string,
  socksPort: number,
): Promise<Record<string, unknown>> {
  const parsed = parseVlessLink(link);
  if (!parsed) throw new Error(`not a VLESS link: ${link}`);
  const security = parsed.params.security ?? 'none';
  if (security !== 'none' && security !== 'tls') {
    throw new Error(`v2ray cannot dial security=${security}`);
  }
  const network = parsed.params.type ?? 'tcp';
  return {
    log: { loglevel: 'warning', access: 'none' },
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
                  encryption: parsed.params.encryption ?? 'none',
                  ...(parsed.params.flow ? { flow: parsed.params.flow } : {}),
                  level: 0,
                },
              ],
            },
          ],
        },
        streamSettings: {
          network,
          security,
          ...(security === 'tls' ? { tlsSettings: await tlsSettings(parsed) } : {}),
          ...(network === 'ws' ? { wsSettings: { path: parsed.params.path ?? '/' } } : {}),
          ...(network === 'grpc'
            ? { grpcSettings: { serviceName: parsed.params.serviceName ?? '' } }
            : {}),
        },
      },
    ],
  };
}

async function tlsSettings(
  parsed: NonNullable<ReturnType<typeof parseVlessLink>>,
): Promise<Record<string, unknown>> {
  const serverName = parsed.params.sni;
  const pin = parsed.params.pcs?.replace(/:/g, '').toLowerCase();
  if (!pin) return { serverName };
  const presented = await presentedCertificate(parsed.host, parsed.port, serverName);
  if (certificatePin(presented) !== pin) {
    throw new Error(
      `pin mismatch: ${parsed.host}:${parsed.port} presented ${certificatePin(presented)}`,
    );
  }
  return {
    serverName,
    certificates: [{ usage: 'verify', certificate: presented.toString().trim().split('\n') }],
  };
}

/** Starts a v2ray client configured only from `link`; resolves when its SOCKS port listens. */
export async function startClientFromLink(
  binary: string,
  workDir: string,
  link: string,
  socksPort: number,
  name: string,
): Promise<ChildProcess> {
  const configFile = path.join(workDir, `${name}.json`);
  await writeFile(configFile, JSON.stringify(await clientConfigFromLink(link, socksPort)), {
    mode: 0o600,
  });
  const child = spawn(binary, ['-config', configFile], { stdio: 'ignore' });
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
  return child;
}
