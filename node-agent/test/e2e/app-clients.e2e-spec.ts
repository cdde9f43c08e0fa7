import { type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildVlessLink, parseVlessLink } from '@scn/proto';
import {
  certificatePins,
  generateSelfSignedCertificate,
} from '../../src/proxy-core/tls-certificate';
import {
  APP_BEHAVIOURS,
  APP_IDS,
  type AppId,
  NON_PINNING_APPS,
  PINNING_APPS,
} from './app-behaviours';
import {
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
} from './proxy-core.support';
import { createTestCa, hasOpenssl, type TestCa } from './test-ca.support';
import { V2RAY } from './v2ray-node';
import { appServerName, type AppClient, startAppClient } from './vless-link-client';
import { startVlessTlsNode } from './vless-tls-node.support';

/**
 * The client built from a link behaves like the apps: for every app in app-behaviours.ts, a real
 * v2ray 4.34 client configured from one link the way that app reads it, against real v2ray 4.34
 * nodes on loopback. A test CA stands in for a public CA: it is the client's whole set of system
 * roots (SSL_CERT_FILE), as Let's Encrypt's root is on a phone.
 *
 *   (a) a node with a CA-issued certificate for a name, the link's sni = the name, its address
 *       127.0.0.1: every app connects from the link alone;
 *   (b) a node with the agent's self-signed certificate, the link pinning it (`pcs`): the apps
 *       that read `pcs` connect, every other app fails with an x509 unknown-authority error;
 *   (c) a node with a CA-issued certificate for its IP address, the link without sni: every app
 *       connects (each falls back to the address; Go checks the IP SAN).
 */
const hasV2ray = existsSync(V2RAY);
const openssl = hasOpenssl();
if (!hasV2ray) console.warn(`app clients e2e skipped: ${V2RAY} is missing (apt-get install v2ray)`);
else if (!openssl)
  console.warn('app clients e2e skipped: no openssl CLI (apt-get install openssl)');
const describeLive = hasV2ray && openssl ? describe : describe.skip;

const UUID = '3f0b6a2e-8c41-4d5a-9e27-6b1c0d4f8a53';
const NAME = 'node-7.nodes.scn.test';
const BODY = 'hello from behind the node';
const WS_PATH = '/scn-ws';
const UNKNOWN_AUTHORITY = /x509: certificate signed by unknown authority/;
const NO_IP_SAN = /x509: cannot validate certificate for 127\.0\.0\.1/;

describeLive('clients built from a link as each app builds them (real v2ray 4.34)', () => {
  let workDir: string;
  let ca: TestCa;
  let page: LocalHttpServer;
  const nodes: ChildProcess[] = [];
  const clients: AppClient[] = [];
  let namedPort: number;
  let selfSignedPort: number;
  let ipPort: number;
  let namedWsPort: number;
  let selfSignedPin: string;

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'scn-app-clients-'));
    ca = await createTestCa(path.join(workDir, 'ca'));
    page = await startHttpServer(BODY);

    const named = await ca.issue(NAME);
    namedPort = await freePort();
    nodes.push(await node('named', namedPort, named.certificateFile, named.keyFile));
    namedWsPort = await freePort();
    nodes.push(await node('named-ws', namedWsPort, named.certificateFile, named.keyFile, 'ws'));

    const forIp = await ca.issue('127.0.0.1');
    ipPort = await freePort();
    nodes.push(await node('ip', ipPort, forIp.certificateFile, forIp.keyFile));

    // The agent's own self-signed certificate, as a v2ray node serves it today.
    const selfSigned = generateSelfSignedCertificate('127.0.0.1');
    const certificateFile = path.join(workDir, 'self-signed.pem');
    const keyFile = path.join(workDir, 'self-signed.key');
    await writeFile(certificateFile, selfSigned.certificatePem);
    await writeFile(keyFile, selfSigned.keyPem, { mode: 0o600 });
    selfSignedPin = certificatePins(selfSigned.certificatePem).certificateSha256;
    selfSignedPort = await freePort();
    nodes.push(await node('self-signed', selfSignedPort, certificateFile, keyFile));
  }, 30_000);

  afterAll(async () => {
    try {
      for (const client of clients) await killAndWait(client.process);
      for (const child of nodes) await killAndWait(child);
      await page?.close();
    } finally {
      if (workDir) await rm(workDir, { recursive: true, force: true });
    }
  });

  function node(
    name: string,
    port: number,
    certificateFile: string,
    keyFile: string,
    network: 'tcp' | 'ws' = 'tcp',
  ) {
    return startVlessTlsNode({
      binary: V2RAY,
      workDir,
      name,
      port,
      uuid: UUID,
      certificateFile,
      keyFile,
      network,
      wsPath: WS_PATH,
    });
  }

  /** A link in the shape the control plane writes (subscription-links.ts connectionString). */
  function link(port: number, extra: Record<string, string>): string {
    return buildVlessLink({
      uuid: UUID,
      host: '127.0.0.1',
      port,
      name: 'SCN node',
      params: { encryption: 'none', security: 'tls', fp: 'chrome', type: 'tcp', ...extra },
    });
  }

  let clientCount = 0;
  async function client(
    app: AppId,
    vless: string,
    rootsFile: string = ca.rootFile,
  ): Promise<{ client: AppClient; socksPort: number }> {
    clientCount += 1;
    const socksPort = await freePort();
    const started = await startAppClient(
      V2RAY,
      workDir,
      vless,
      socksPort,
      `client-${clientCount}-${app}`,
      app,
      { systemRootsFile: rootsFile },
    );
    clients.push(started);
    return { client: started, socksPort };
  }

  /** The fetch fails and the client logged why (`reason`); resolves with that log. */
  async function failedFetch(
    started: { client: AppClient; socksPort: number },
    reason: RegExp = UNKNOWN_AUTHORITY,
  ) {
    await expect(socksHttpGet(started.socksPort, page.port, 3000)).rejects.toThrow();
    // v2ray logs the outbound's failure just after it drops the SOCKS connection.
    const deadline = Date.now() + 3000;
    while (!reason.test(started.client.output()) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return started.client.output();
  }

  it('should hold the apps the issue names, pinning and not, when the table is read', () => {
    expect(PINNING_APPS.sort()).toEqual(['v2rayn-7.17.1', 'v2rayn-7.24.5', 'v2rayng-2.0.7']);
    expect(NON_PINNING_APPS.sort()).toEqual(
      [
        'hiddify',
        'mihomo-converter',
        'nekobox-android',
        'nekoray',
        'v2rayn-before-7.17.1',
        'v2rayng-before-2.0.7',
      ].sort(),
    );
  });

  describe('(a) a CA-issued certificate for a name, sni = the name', () => {
    it.each(APP_IDS)('should connect from the link alone when the app is %s', async (app) => {
      const started = await client(app, link(namedPort, { sni: NAME }));
      const answer = await socksHttpGet(started.socksPort, page.port, 5000);
      expect(answer).toEqual({ status: 200, body: BODY });
    });

    it.each(APP_IDS)(
      'should fail on the name when the link has no sni and the app is %s',
      async (app) => {
        // The address is all the app has left: the certificate names the node, not 127.0.0.1.
        const output = await failedFetch(await client(app, link(namedPort, {})), NO_IP_SAN);
        expect(output).toMatch(NO_IP_SAN);
      },
    );

    it('should fail with an unknown authority when the CA is not among the client roots', async () => {
      const emptyRoots = path.join(workDir, 'no-roots.pem');
      await writeFile(emptyRoots, '');
      const output = await failedFetch(
        await client('hiddify', link(namedPort, { sni: NAME }), emptyRoots),
      );
      expect(output).toMatch(UNKNOWN_AUTHORITY);
    });
  });

  describe('ws with the name only in `host`, no sni (the table column serverNameFrom)', () => {
    const wsLink = () => link(namedWsPort, { type: 'ws', path: WS_PATH, host: NAME });
    const fromHost = APP_IDS.filter((app) =>
      APP_BEHAVIOURS[app].serverNameFrom.default.includes('host'),
    );
    const fromAddress = APP_IDS.filter((app) => !fromHost.includes(app));

    it.each(fromHost)('should connect when the app takes the name from host (%s)', async (app) => {
      const started = await client(app, wsLink());
      const answer = await socksHttpGet(started.socksPort, page.port, 5000);
      expect(answer).toEqual({ status: 200, body: BODY });
    });

    it.each(fromAddress)(
      'should fail on the name when the app takes the address instead (%s)',
      async (app) => {
        const output = await failedFetch(await client(app, wsLink()), NO_IP_SAN);
        expect(output).toMatch(NO_IP_SAN);
      },
    );
  });

  describe('(b) the self-signed certificate, pinned by `pcs`', () => {
    const pinned = () => link(selfSignedPort, { pcs: selfSignedPin });

    it.each(PINNING_APPS)('should connect when the app pins (%s)', async (app) => {
      const started = await client(app, pinned());
      const answer = await socksHttpGet(started.socksPort, page.port, 5000);
      expect(answer).toEqual({ status: 200, body: BODY });
    });

    it.each(NON_PINNING_APPS)(
      'should fail with x509 unknown authority when the app ignores pcs (%s)',
      async (app) => {
        const output = await failedFetch(await client(app, pinned()));
        expect(output).toMatch(UNKNOWN_AUTHORITY);
      },
    );
  });

  describe('the table column allowInsecure, against the self-signed node', () => {
    // The product never writes allowInsecure; this checks the table's reading of it.
    const reads = APP_IDS.filter((app) => APP_BEHAVIOURS[app].allowInsecure.keys.length > 0);
    const ignores = APP_IDS.filter((app) => !reads.includes(app));

    it.each(reads)(
      'should connect with allowInsecure=1 when the app reads it (%s)',
      async (app) => {
        const started = await client(app, link(selfSignedPort, { allowInsecure: '1' }));
        const answer = await socksHttpGet(started.socksPort, page.port, 5000);
        expect(answer).toEqual({ status: 200, body: BODY });
      },
    );

    it.each(ignores)(
      'should still verify with allowInsecure=1 when the app ignores it (%s)',
      async (app) => {
        const output = await failedFetch(
          await client(app, link(selfSignedPort, { allowInsecure: '1' })),
        );
        expect(output).toMatch(UNKNOWN_AUTHORITY);
      },
    );
  });

  describe('(c) a CA-issued certificate for the IP address, no sni in the link', () => {
    it.each(APP_IDS)('should connect when the app is %s', async (app) => {
      const vless = link(ipPort, {});
      // Every app falls back to the address when the link names no server.
      expect(appServerName(parseVlessLink(vless)!, APP_BEHAVIOURS[app], 'tcp')).toBe('127.0.0.1');
      const started = await client(app, vless);
      const answer = await socksHttpGet(started.socksPort, page.port, 5000);
      expect(answer).toEqual({ status: 200, body: BODY });
    });
  });

  describe('server names from the table (no process)', () => {
    const parsed = (params: Record<string, string>) =>
      parseVlessLink(
        buildVlessLink({ uuid: UUID, host: '203.0.113.7', port: 443, name: '', params }),
      )!;

    it('should take the ws host when sni is empty for the apps that read it', () => {
      const ws = parsed({ security: 'tls', type: 'ws', host: 'cdn.scn.test', path: '/x' });
      const names = Object.fromEntries(
        APP_IDS.map((app) => [app, appServerName(ws, APP_BEHAVIOURS[app], 'ws')]),
      );
      expect(names).toEqual({
        'v2rayng-before-2.0.7': 'cdn.scn.test',
        'v2rayng-2.0.7': 'cdn.scn.test',
        'v2rayn-before-7.17.1': 'cdn.scn.test',
        'v2rayn-7.17.1': 'cdn.scn.test',
        'v2rayn-7.24.5': 'cdn.scn.test',
        'nekobox-android': 'cdn.scn.test',
        hiddify: '203.0.113.7',
        nekoray: '203.0.113.7',
        'mihomo-converter': '203.0.113.7',
      });
    });

    it('should skip an IP host for v2rayNG when the server is a name', () => {
      const link = parseVlessLink(
        buildVlessLink({
          uuid: UUID,
          host: 'node.scn.test',
          port: 443,
          name: '',
          params: { security: 'tls', type: 'ws', host: '198.51.100.9' },
        }),
      )!;
      expect(appServerName(link, APP_BEHAVIOURS['v2rayng-2.0.7'], 'ws')).toBe('node.scn.test');
      expect(appServerName(link, APP_BEHAVIOURS['v2rayn-7.17.1'], 'ws')).toBe('198.51.100.9');
    });
  });
});
