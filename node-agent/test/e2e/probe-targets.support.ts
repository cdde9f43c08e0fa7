import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  certificatePins,
  generateSelfSignedCertificate,
} from '../../src/proxy-core/tls-certificate';
import {
  eventually,
  freePort,
  killAndWait,
  type LocalHttpServer,
  startHttpServer,
} from './proxy-core.support';

/**
 * What a vantage point tests, on loopback: one Debian v2ray 4.34 with four VLESS inbounds (none
 * and TLS, over tcp and ws; the agent's own self-signed certificate, pinned), a page to reach
 * through them, and stand-ins for a network in the way: a port that accepts and never answers,
 * one that resets right after the first bytes (a TLS ClientHello), a service that is not VLESS.
 */
export interface ProbeTargets {
  uuid: string;
  pin: string;
  ports: { none: number; tls: number; tlsWs: number; noneWs: number };
  wsPath: string;
  /** The page the VLESS tests fetch through the server. */
  targetUrl: string;
  silentPort: number;
  resetPort: number;
  httpPort: number;
  /** A loopback port where nothing listens. */
  closedPort: number;
  /** How many first packets the reset stand-in read before resetting. */
  resetsAfterHello: () => number;
  close(): Promise<void>;
}

function listenOn(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)),
  );
}

export async function startProbeTargets(binary: string, uuid: string): Promise<ProbeTargets> {
  const workDir = await mkdtemp(path.join(tmpdir(), 'scn-probe-'));
  const certificate = generateSelfSignedCertificate('127.0.0.1');
  const certificateFile = path.join(workDir, 'cert.pem');
  const keyFile = path.join(workDir, 'key.pem');
  await writeFile(certificateFile, certificate.certificatePem);
  await writeFile(keyFile, certificate.keyPem, { mode: 0o600 });
  const ports = {
    none: await freePort(),
    tls: await freePort(),
    tlsWs: await freePort(),
    noneWs: await freePort(),
  };
  const wsPath = '/0123456789abcdef';
  const inbound = (port: number, security: 'none' | 'tls', network: 'tcp' | 'ws') => ({
    listen: '127.0.0.1',
    port,
    protocol: 'vless',
    settings: { clients: [{ id: uuid, level: 0 }], decryption: 'none' },
    streamSettings: {
      network,
      security,
      ...(security === 'tls'
        ? { tlsSettings: { certificates: [{ certificateFile, keyFile }] } }
        : {}),
      ...(network === 'ws' ? { wsSettings: { path: wsPath } } : {}),
    },
  });
  const configFile = path.join(workDir, 'v2ray.json');
  await writeFile(
    configFile,
    JSON.stringify({
      log: { loglevel: 'warning', access: 'none' },
      inbounds: [
        inbound(ports.none, 'none', 'tcp'),
        inbound(ports.tls, 'tls', 'tcp'),
        inbound(ports.tlsWs, 'tls', 'ws'),
        inbound(ports.noneWs, 'none', 'ws'),
      ],
      outbounds: [{ protocol: 'freedom', settings: {} }],
    }),
    { mode: 0o600 },
  );
  const child: ChildProcess = spawn(binary, ['-config', configFile], { stdio: 'ignore' });
  for (const port of Object.values(ports)) {
    await eventually(
      () =>
        new Promise<void>((resolve, reject) => {
          const socket = net.connect(port, '127.0.0.1', () => {
            socket.destroy();
            resolve();
          });
          socket.on('error', reject);
        }),
      5000,
      25,
    );
  }
  const page: LocalHttpServer = await startHttpServer('reachable');
  const accepted: net.Socket[] = [];
  // A prober that gives up resets its connection: without an error listener that reset would
  // end the test process with an uncaught ECONNRESET.
  const track = (server: net.Server) =>
    server.on('connection', (s) => {
      accepted.push(s);
      s.on('error', () => undefined);
    });
  const silent = net.createServer(() => undefined);
  let resets = 0;
  const reset = net.createServer((socket) =>
    socket.once('data', () => {
      resets += 1;
      socket.resetAndDestroy();
    }),
  );
  const http = net.createServer((socket) =>
    socket.once('data', () =>
      socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n'),
    ),
  );
  for (const server of [silent, reset, http]) track(server);
  const [silentPort, resetPort, httpPort] = await Promise.all([silent, reset, http].map(listenOn));
  return {
    uuid,
    pin: certificatePins(certificate.certificatePem).certificateSha256,
    ports,
    wsPath,
    targetUrl: `http://127.0.0.1:${page.port}/probe`,
    silentPort: silentPort!,
    resetPort: resetPort!,
    httpPort: httpPort!,
    closedPort: await freePort(),
    resetsAfterHello: () => resets,
    async close() {
      for (const socket of accepted) socket.destroy();
      await Promise.all(
        [silent, reset, http].map((s) => new Promise((resolve) => s.close(resolve))),
      );
      await page.close();
      await killAndWait(child);
      await rm(workDir, { recursive: true, force: true });
    },
  };
}
