import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { eventually } from './proxy-core.support';

/**
 * A bare VLESS + TLS node on Debian's v2ray 4.34 (no agent): one client uuid, the given
 * certificate and key files, tcp or ws, on a loopback port, forwarding to anywhere (the suites'
 * pages are on loopback). For tests of what a client does with a certificate, where the agent's
 * own certificate handling is not the subject.
 */
export async function startVlessTlsNode(options: {
  binary: string;
  workDir: string;
  name: string;
  port: number;
  uuid: string;
  certificateFile: string;
  keyFile: string;
  network?: 'tcp' | 'ws';
  wsPath?: string;
}): Promise<ChildProcess> {
  const network = options.network ?? 'tcp';
  const config = {
    log: { loglevel: 'warning', access: 'none' },
    inbounds: [
      {
        listen: '127.0.0.1',
        port: options.port,
        protocol: 'vless',
        settings: { clients: [{ id: options.uuid, level: 0 }], decryption: 'none' },
        streamSettings: {
          network,
          security: 'tls',
          tlsSettings: {
            certificates: [{ certificateFile: options.certificateFile, keyFile: options.keyFile }],
          },
          ...(network === 'ws' ? { wsSettings: { path: options.wsPath ?? '/' } } : {}),
        },
      },
    ],
    outbounds: [{ protocol: 'freedom', settings: {} }],
  };
  const configFile = path.join(options.workDir, `${options.name}.json`);
  await writeFile(configFile, JSON.stringify(config), { mode: 0o600 });
  const child = spawn(options.binary, ['-config', configFile], { stdio: 'ignore' });
  await eventually(
    () =>
      new Promise<void>((resolve, reject) => {
        const socket = net.connect(options.port, '127.0.0.1', () => {
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
