import { type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { type DecoySite, startDecoySite } from '../../src/proxy-core/decoy-site';
import { generateSelfSignedCertificate } from '../../src/proxy-core/tls-certificate';
import { XrayCore } from '../../src/proxy-core/xray-core';
import {
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
} from './proxy-core.support';
import { startClientFromLink } from './vless-link-client';
import { DEFAULT_APP } from './app-behaviours';
import { V2RAY } from './v2ray-node';
import net from 'node:net';

/**
 * Active probing, live (docs/security.md "Active probing"): the agent's TLS inbound on a real
 * v2ray 4.34 with its VLESS fallback to the agent's decoy site, over tcp and over ws (behind its
 * TLS front, which falls back by path). A prober that completes TLS and sends an HTTP request
 * (for any path but the ws inbound's own) gets exactly what the decoy answers (status, headers,
 * body); random bytes get the decoy's answer to garbage; a client built from the link still
 * connects.
 */
const CLIENT_UUID = '7e4f2a1b-3c5d-4e6f-8a9b-0c1d2e3f4a5b';
const BODY = 'through the node';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`active probing e2e skipped: ${V2RAY} is missing`);
const describeLive = hasV2ray ? describe : describe.skip;

/** Sends `bytes` over `connect()` and collects the answer until the peer closes or goes quiet. */
function exchange(connect: () => net.Socket, bytes: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect();
    let text = '';
    const finish = () => {
      socket.destroy();
      resolve(text);
    };
    socket.once(socket instanceof tls.TLSSocket ? 'secureConnect' : 'connect', () =>
      socket.write(bytes),
    );
    socket.setTimeout(1_500, finish);
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('end', finish);
    socket.on('error', reject);
  });
}

/** Status line, header names in order, headers without Date, body. */
function shape(answer: string) {
  const end = answer.indexOf('\r\n\r\n');
  const [status, ...lines] = answer.slice(0, end).split('\r\n');
  return {
    status,
    names: lines.map((line) => line.slice(0, line.indexOf(':'))),
    headers: lines.filter((line) => !line.startsWith('Date:')),
    body: answer.slice(end + 4),
  };
}

const WS_PATH = '/0123456789abcdef';

describeLive.each(['tcp', 'ws'] as const)(
  'active probing of the TLS/%s inbound (real v2ray 4.34, VLESS fallback)',
  (network) => {
    let workDir: string;
    let decoy: DecoySite;
    let httpServer: LocalHttpServer;
    let core: XrayCore;
    let nodePort: number;
    let pin: string;
    let client: ChildProcess | undefined;

    const toNode = () =>
      tls.connect({ host: '127.0.0.1', port: nodePort, rejectUnauthorized: false });
    const toDecoy = () => net.connect(decoy.port, '127.0.0.1');

    beforeAll(async () => {
      workDir = await mkdtemp(path.join(os.tmpdir(), `scn-probing-${network}-`));
      decoy = await startDecoySite();
      httpServer = await startHttpServer(BODY);
      const made = generateSelfSignedCertificate('127.0.0.1');
      const certificateFile = path.join(workDir, 'certificate.pem');
      const keyFile = path.join(workDir, 'key.pem');
      await writeFile(certificateFile, made.certificatePem);
      await writeFile(keyFile, made.keyPem, { mode: 0o600 });
      pin = createHash('sha256').update(new X509Certificate(made.certificatePem).raw).digest('hex');
      nodePort = await freePort();
      core = new XrayCore(
        {
          kind: 'v2ray',
          binary: V2RAY,
          workDir: path.join(workDir, 'core'),
          apiPort: await freePort(),
          inbound: {
            port: nodePort,
            listen: '127.0.0.1',
            security: 'tls',
            network,
            ...(network === 'ws' ? { path: WS_PATH } : {}),
            sni: '127.0.0.1',
            certificateFile,
            keyFile,
          },
          fallbackDest: `127.0.0.1:${decoy.port}`,
          allowPrivateDestinations: true,
        },
        { stopTimeoutMs: 2_000 },
      );
      await core.start([CLIENT_UUID]);
    }, 30_000);

    afterAll(async () => {
      try {
        await killAndWait(client);
        await core?.stop();
        await decoy?.close();
        await httpServer?.close();
      } finally {
        if (workDir) await rm(workDir, { recursive: true, force: true });
      }
    });

    it.each(['/', '/wp-login.php', `${WS_PATH}x`])(
      "should give a prober's HTTP request for %s the decoy's own answer through the node's TLS",
      async (page) => {
        const request = `GET ${page} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n\r\n`;
        const throughNode = shape(await exchange(toNode, request));
        const direct = shape(await exchange(toDecoy, request));
        expect(throughNode.status).toBe(
          page === '/' ? 'HTTP/1.1 200 OK' : 'HTTP/1.1 404 Not Found',
        );
        expect(throughNode).toEqual(direct);
        expect(throughNode.headers).toContain('Server: nginx');
      },
    );

    it("should give a prober's random bytes what the decoy answers to garbage", async () => {
      const garbage = randomBytes(64);
      garbage[0] = 0x5a; // not VLESS version 0, so the core cannot mistake it for a request
      const throughNode = shape(await exchange(toNode, garbage));
      const direct = shape(await exchange(toDecoy, garbage));
      expect(throughNode.status).toBe('HTTP/1.1 400 Bad Request');
      expect(throughNode).toEqual(direct);
    });

    it('should still carry a client built from the link', async () => {
      const socksPort = await freePort();
      const link =
        `vless://${CLIENT_UUID}@127.0.0.1:${nodePort}?encryption=none&security=tls&type=${network}` +
        `${network === 'ws' ? `&path=${encodeURIComponent(WS_PATH)}` : ''}&sni=127.0.0.1&pcs=${pin}#probing`;
      client = await startClientFromLink(V2RAY, workDir, link, socksPort, 'client', DEFAULT_APP);
      const result = await socksHttpGet(socksPort, httpServer.port, 5_000);
      expect(result).toEqual({ status: 200, body: BODY });
    });
  },
);
