import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  decodeSubscriptionContent,
  NODES_ROUTES,
  type NodeServerDetails,
  parseVlessLink,
  type SubscriptionCreationResponse,
} from '@scn/proto';
import { CertificateManager } from '../../src/certificates/certificate-manager';
import type { AgentDaemon } from '../../src/commands/run';
import type { AgentConfig } from '../../src/config/agent-config';
import { tlsDirFor } from '../../src/proxy-core/inbound-setup';
import {
  type ControlPlaneKit,
  type FundingChain,
  hasDatabase,
  loadControlPlaneKit,
  type TestApp,
} from './control-plane-kit';
import { hasPebble, PEBBLE, type Pebble, startPebble } from './pebble.support';
import {
  eventually,
  freePort,
  killAndWait,
  type LocalHttpServer,
  socksHttpGet,
  startHttpServer,
} from './proxy-core.support';
import { presentedCertificate } from './tls-client.support';
import { APP_IDS, type AppId, DEFAULT_APP } from './app-behaviours';
import { startAppClient } from './vless-link-client';
import { enrollV2rayNode, startV2rayDaemon, V2RAY } from './v2ray-node';

/**
 * Publicly trusted certificates end to end, the name path: the control plane names the node under the platform's
 * domain (SCN_NODE_DOMAIN) and answers that name in its own DNS server (SCN_DNS_LISTEN); a v2ray
 * node enrolls with pebble (Let's Encrypt's test CA) as its ACME CA, which resolves the name
 * through the control plane's DNS only, and gets a publicly trusted certificate for the name,
 * validated over HTTP-01 that the agent answers itself. The served link carries the address, the
 * name as sni, no pin and no allowInsecure; a stock v2ray client built from the link alone as
 * each app of the behaviour table builds it, trusting pebble's root the way a phone trusts Let's
 * Encrypt's (its system roots, SSL_CERT_FILE), carries traffic, and one without that root is
 * refused (the trust is real). The node dashboard says the certificate is trusted. Then the
 * certificate renews while a client keeps running: the node presents the new certificate and
 * the client's next request goes through.
 */
const BODY = 'hello over a CA-issued certificate';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`ACME subscription e2e skipped: ${V2RAY} is missing`);
if (!hasPebble) console.warn(`ACME subscription e2e skipped: ${PEBBLE} is missing`);
const describeLive = hasV2ray && hasPebble && hasDatabase ? describe : describe.skip;

const DOMAIN = 'nodes.scn.test';

interface Kit extends Pick<
  ControlPlaneKit,
  'startFundingChain' | 'depositThroughChain' | 'AgentGrpcServer' | 'NodeDnsServer'
> {
  startTestApp(env: Record<string, string>): Promise<TestApp>;
  registerAccount(
    t: TestApp,
    options: { userType: 'client' | 'node' },
  ): Promise<{ uuid: string; token: string; cookie: string }>;
}

describeLive('a node on a certificate from an ACME CA (pebble), used from the link alone', () => {
  let kit: Kit;
  let t: TestApp;
  let funding: FundingChain | undefined;
  let workDir: string;
  let pebble: Pebble;
  let httpServer: LocalHttpServer;
  let config: AgentConfig;
  let daemon: AgentDaemon | undefined;
  let subscription: SubscriptionCreationResponse;
  let operator: { uuid: string; token: string };
  const clients: ChildProcess[] = [];
  const io = { out: () => undefined, err: () => undefined };

  beforeAll(async () => {
    workDir = await mkdtemp(path.join(tmpdir(), 'scn-acme-subscription-'));
    kit = (await loadControlPlaneKit()) as unknown as Kit;
    funding = await kit.startFundingChain();
    t = await kit.startTestApp({
      ...funding.env,
      LAUNCH_PERIOD_ENDS: '2020-01-01',
      SCN_NODE_DOMAIN: DOMAIN,
      SCN_DNS_LISTEN: '127.0.0.1:0',
    });
    // The CA resolves names through the control plane's DNS and nothing else.
    const dnsPort = t.app.get<{ port: number }>(kit.NodeDnsServer).port;
    pebble = await startPebble({ dir: workDir, dnsPort });
    const grpcPort = t.app.get<{ port: number }>(kit.AgentGrpcServer).port;
    operator = await kit.registerAccount(t, { userType: 'node' });
    const client = await kit.registerAccount(t, { userType: 'client' });
    await kit.depositThroughChain(t, funding, client, 20);
    httpServer = await startHttpServer(BODY);
    const enrolled = await enrollV2rayNode(t, {
      operatorToken: operator.token,
      grpcPort,
      workDir,
      io,
      flags: {
        acme: pebble.directoryUrl,
        acmeCaFile: pebble.apiCaFile,
        acmeHttpPort: String(pebble.httpPort),
      },
    });
    config = enrolled.config;
    daemon = await startV2rayDaemon(enrolled, io);
    const bought = await t
      .http()
      .post('/api/clients/create-subscription')
      .set('Cookie', client.cookie)
      .set('Idempotency-Key', `acme-${Date.now()}`)
      .send({ uuid: client.uuid, serverIds: [config.nodeId], billingCycle: 'monthly' })
      .expect(200);
    subscription = bought.body as SubscriptionCreationResponse;
    await eventually(async () => {
      if (!daemon!.store.current.allowedClients.includes(subscription.subscription.uuid)) {
        throw new Error('the client is not on the node yet');
      }
    }, 10_000);
  }, 120_000);

  afterAll(async () => {
    try {
      await daemon?.stop();
      for (const child of clients) await killAndWait(child);
      await httpServer?.close();
      await t?.close();
    } finally {
      await funding?.stop();
      await pebble?.stop();
      if (workDir) await rm(workDir, { recursive: true, force: true });
    }
  });

  async function servedLink(): Promise<string> {
    const feed = new URL(subscription.subscriptionUrl).pathname;
    const links = decodeSubscriptionContent((await t.http().get(feed).expect(200)).text) ?? [];
    expect(links).toHaveLength(1);
    return links[0]!;
  }

  /** A v2ray client built from the link as `app` builds it; `roots`: its system roots. */
  async function clientFromLink(link: string, app: AppId, roots: string) {
    const socksPort = await freePort();
    const client = await startAppClient(
      V2RAY,
      workDir,
      link,
      socksPort,
      `${app}-${socksPort}`,
      app,
      {
        systemRootsFile: roots,
      },
    );
    clients.push(client.process);
    return { socksPort, output: client.output };
  }

  it("should serve a CA-issued certificate for the node's name, and a link without a pin", async () => {
    const hostName = daemon!.store.current.hostName!;
    expect(hostName).toMatch(new RegExp(`^n[0-9a-f]{16}\\.${DOMAIN.replace(/\./g, '\\.')}$`));
    const inbound = daemon!.store.current.inbound;
    expect(inbound).toMatchObject({ security: 'tls', certificateSource: 'acme', sni: hostName });
    expect(inbound.certificateProblem).toBeUndefined();
    const presented = await presentedCertificate('127.0.0.1', config.publicPort, hostName);
    expect(presented.subjectAltName).toBe(`DNS:${hostName}`);
    expect(presented.issuer).not.toBe(presented.subject);

    const link = await servedLink();
    const parsed = parseVlessLink(link)!;
    // The address stays what the client dials (no lookup a censor can poison); the name is sni.
    expect(parsed.host).toBe('127.0.0.1');
    expect(parsed.params).toMatchObject({ security: 'tls', sni: hostName });
    expect(parsed.params.pcs).toBeUndefined();
    expect(link).not.toMatch(/allowInsecure|insecure=1/i);
  });

  it('should tell the operator on the node dashboard that the certificate is trusted', async () => {
    const hostName = daemon!.store.current.hostName!;
    const server = await eventually(async () => {
      const response = await t
        .http()
        .get(NODES_ROUTES.server(operator.uuid, config.nodeId))
        .set('Authorization', `Bearer ${operator.token}`)
        .expect(200);
      const details = (response.body as { server: NodeServerDetails }).server;
      if (details.certificate?.source !== 'acme') throw new Error('not reported yet');
      return details;
    }, 10_000);
    expect(server.certificate).toMatchObject({ source: 'acme', name: hostName, problem: '' });
    expect(Date.parse(server.certificate!.notAfter!)).toBeGreaterThan(Date.now());
  });

  it("should connect from the link alone in every app's way, with pebble's root as the system roots", async () => {
    const link = await servedLink();
    for (const app of APP_IDS) {
      const { socksPort } = await clientFromLink(link, app, pebble.rootFile);
      await expect(
        eventually(() => socksHttpGet(socksPort, httpServer.port, 1500), 8000, 100),
      ).resolves.toEqual({ status: 200, body: BODY });
    }
  });

  it("should be refused by a client whose system roots do not hold the CA's root", async () => {
    const { socksPort, output } = await clientFromLink(
      await servedLink(),
      DEFAULT_APP,
      pebble.apiCaFile,
    );
    await expect(socksHttpGet(socksPort, httpServer.port, 1500)).rejects.toThrow();
    await eventually(async () => {
      if (!/x509: certificate signed by unknown authority/.test(output()))
        throw new Error('no x509 error yet');
    }, 5000);
  });

  it('should renew under a running client: the new certificate serves and the client goes on', async () => {
    const link = await servedLink();
    const { socksPort } = await clientFromLink(link, 'v2rayng-before-2.0.7', pebble.rootFile);
    expect(
      await eventually(() => socksHttpGet(socksPort, httpServer.port, 1500), 8000, 100),
    ).toEqual({ status: 200, body: BODY });
    const hostName = daemon!.store.current.hostName!;
    const before = await presentedCertificate('127.0.0.1', config.publicPort, hostName);
    // Four years on, two thirds of pebble's five-year certificate have passed: renewal is due.
    const later = new CertificateManager({
      store: daemon!.store,
      core: daemon!.core,
      tlsDir: tlsDirFor(daemon!.store.file),
      now: () => Date.now() + 4 * 365 * 86_400_000,
    });
    await expect(later.ensure()).resolves.toMatchObject({ outcome: 'issued' });
    const after = await presentedCertificate('127.0.0.1', config.publicPort, hostName);
    expect(after.serialNumber).not.toBe(before.serialNumber);
    expect(
      await eventually(() => socksHttpGet(socksPort, httpServer.port, 1500), 10_000, 100),
    ).toEqual({ status: 200, body: BODY });
    // The link did not change: nothing pinned, nothing to re-import.
    expect(await servedLink()).toBe(link);
  });
});
