import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import {
  decodeSubscriptionContent,
  NODES_ROUTES,
  type NodeServerDetails,
  parseVlessLink,
  type SubscriptionCreationResponse,
} from '@scn/proto';
import type { AgentDaemon } from '../../src/commands/run';
import type { AgentConfig } from '../../src/config/agent-config';
import { hasDatabase, type TestApp } from './control-plane-kit';
import { eventually, freePort, type LocalHttpServer, socksHttpGet } from './proxy-core.support';
import { certificatePin, presentedCertificate } from './tls-client.support';
import { SubscriptionNode } from './subscription-node.support';
import { startClientFromLink } from './vless-link-client';
import { V2RAY } from './v2ray-node';

/**
 * End to end with every real part that runs here: the real agent enrolls Debian's
 * v2ray (VLESS + TLS with its own certificate by default), a client buys a subscription, and a
 * real v2ray client configured ONLY from the served link (base64 feed; the `pcs` pin checked
 * against the certificate the node presents with node:tls, since v2ray 4.34 cannot pin a hash)
 * and, separately, ONLY from the `?format=v2ray` JSON (its local SOCKS port aside) fetches a
 * page from a loopback HTTP server through the node. Then the operator switches the node to TLS
 * over WebSocket and regenerates its port over REST: the plan reaches the agent, the agent
 * reports, and links and feeds follow; both clients are built again and carry traffic.
 * The default path serves no `security=none` link. gRPC is refused for this node (v2ray 4.34 has
 * no gRPC transport) and REALITY needs Xray: neither runs here (docs/operators.md).
 */
const BODY = 'hello over a pinned TLS subscription';

const hasV2ray = existsSync(V2RAY);
if (!hasV2ray) console.warn(`secure subscription e2e skipped: ${V2RAY} is missing`);
const describeLive = hasV2ray && hasDatabase ? describe : describe.skip;

describeLive('a pinned TLS subscription through a real agent node', () => {
  const node = new SubscriptionNode();
  let t: TestApp;
  let workDir: string;
  let httpServer: LocalHttpServer;
  let config: AgentConfig;
  let daemon: AgentDaemon | undefined;
  let operator: { uuid: string; token: string };
  let subscription: SubscriptionCreationResponse;
  const clients = node.clients;

  beforeAll(async () => {
    await node.start({ body: BODY, workDirPrefix: 'scn-secure-subscription-', clientSsl: 20 });
    ({ t, config, daemon, operator, httpServer } = node);
    workDir = node.workDir!;
    const client = node.client;
    const bought = await t
      .http()
      .post('/api/clients/create-subscription')
      .set('Cookie', client.cookie)
      .set('Idempotency-Key', `secure-${Date.now()}`)
      .send({ uuid: client.uuid, serverIds: [config.nodeId], billingCycle: 'monthly' })
      .expect(200);
    subscription = bought.body as SubscriptionCreationResponse;
    await eventually(async () => {
      if (!daemon!.store.current.allowedClients.includes(subscription.subscription.uuid)) {
        throw new Error('the client is not on the node yet');
      }
    }, 10_000);
  }, 90_000);

  afterAll(() => node.stop());

  const feedPath = () => new URL(subscription.subscriptionUrl).pathname;

  /** The feed's one link (base64 format, as v2rayN and v2rayNG fetch it). */
  async function servedLink(): Promise<string> {
    const response = await t.http().get(feedPath()).expect(200);
    const links = decodeSubscriptionContent(response.text) ?? [];
    expect(links).toHaveLength(1);
    // The default path serves no plaintext link.
    for (const link of links) expect(parseVlessLink(link)?.params.security).not.toBe('none');
    return links[0]!;
  }

  /** The feed in v2ray JSON. */
  async function servedV2rayJson(): Promise<Record<string, unknown>> {
    const response = await t
      .http()
      .get(`${feedPath()}?format=v2ray`)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      })
      .expect(200);
    return JSON.parse(response.body as string) as Record<string, unknown>;
  }

  /** A v2ray client from the link alone (pin checked against the presented certificate). */
  async function fetchFromLink(link: string, name: string) {
    const socksPort = await freePort();
    // As v2rayNG 2.0.7+ builds it: it pins the node's self-signed certificate (`pcs`).
    clients.push(await startClientFromLink(V2RAY, workDir, link, socksPort, name, 'v2rayng-2.0.7'));
    return eventually(() => socksHttpGet(socksPort, httpServer.port, 1500), 8000, 100);
  }

  /** A v2ray client running the served JSON; only its local SOCKS port is changed. */
  async function fetchFromJson(served: Record<string, unknown>, name: string) {
    const socksPort = await freePort();
    const inbounds = served.inbounds as Array<{ tag: string; port: number }>;
    const socks = inbounds.find((inbound) => inbound.tag === 'socks')!;
    socks.port = socksPort;
    served.inbounds = [socks];
    const file = path.join(workDir, `${name}.json`);
    await writeFile(file, JSON.stringify(served), { mode: 0o600 });
    const child = spawn(V2RAY, ['-config', file], { stdio: 'ignore' });
    clients.push(child);
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
    return eventually(() => socksHttpGet(socksPort, httpServer.port, 1500), 8000, 100);
  }

  async function details(): Promise<NodeServerDetails> {
    const response = await t
      .http()
      .get(NODES_ROUTES.server(operator.uuid, config.nodeId))
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    return (response.body as { server: NodeServerDetails }).server;
  }

  /** Until the node reported serving the current plan (the dashboard's "pending" ends). */
  function applied(): Promise<NodeServerDetails> {
    return eventually(async () => {
      const server = await details();
      if (server.inboundPending) throw new Error('the node has not reported the plan yet');
      return server;
    }, 30_000);
  }

  /** The pin the link carries, checked here against what the node presents. */
  async function checkPin(link: string): Promise<void> {
    const parsed = parseVlessLink(link)!;
    const presented = await presentedCertificate(parsed.host, parsed.port, parsed.params.sni);
    expect(parsed.params.pcs).toBe(certificatePin(presented));
  }

  it('should carry traffic over TLS/tcp from the served link alone and from the v2ray JSON alone', async () => {
    const server = await applied();
    expect(server.plan).toMatchObject({ transport: 'tls/tcp', transports: ['tls/tcp', 'tls/ws'] });
    const link = await servedLink();
    const params = parseVlessLink(link)!.params;
    expect(params).toMatchObject({ security: 'tls', type: 'tcp', fp: 'chrome' });
    expect(params.pcs).toMatch(/^[0-9a-f]{64}$/);
    expect(link).not.toMatch(/allowInsecure/i);
    await checkPin(link);
    expect(await fetchFromLink(link, 'tcp-link')).toEqual({ status: 200, body: BODY });

    const json = await servedV2rayJson();
    const tls = (json.outbounds as Array<{ streamSettings?: { tlsSettings?: object } }>)[0]!
      .streamSettings!.tlsSettings;
    expect(tls).toMatchObject({ disableSystemRoot: true, certificates: [{ usage: 'verify' }] });
    expect(await fetchFromJson(json, 'tcp-json')).toEqual({ status: 200, body: BODY });
  });

  it('should move to TLS over WebSocket on request, and both clients follow the new feed', async () => {
    await t
      .http()
      .patch(NODES_ROUTES.transport(operator.uuid, config.nodeId))
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ transport: 'tls/ws' })
      .expect(200);
    const server = await applied();
    expect(server.inbound).toMatchObject({ security: 'tls', type: 'ws' });
    const link = await servedLink();
    const params = parseVlessLink(link)!.params;
    expect(params).toMatchObject({ security: 'tls', type: 'ws' });
    expect(params.path).toMatch(/^\//);
    await checkPin(link);
    expect(await fetchFromLink(link, 'ws-link')).toEqual({ status: 200, body: BODY });
    expect(await fetchFromJson(await servedV2rayJson(), 'ws-json')).toEqual({
      status: 200,
      body: BODY,
    });
  });

  it('should regenerate the port: the node moves, the links follow, clients carry traffic there', async () => {
    const before = parseVlessLink(await servedLink())!.port;
    const regenerated = await t
      .http()
      .post(NODES_ROUTES.regeneratePort(operator.uuid, config.nodeId))
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ confirm: true })
      .expect(200);
    const port = (regenerated.body as { server: NodeServerDetails }).server.plan!.port!;
    expect(port).not.toBe(before);
    await applied();
    const link = await servedLink();
    expect(parseVlessLink(link)).toMatchObject({ port, params: { type: 'ws' } });
    expect(await fetchFromLink(link, 'moved-link')).toEqual({ status: 200, body: BODY });
    expect(await fetchFromJson(await servedV2rayJson(), 'moved-json')).toEqual({
      status: 200,
      body: BODY,
    });
  });

  it('should refuse gRPC for a v2ray node (v2ray 4.34 has no gRPC transport)', async () => {
    await t
      .http()
      .patch(NODES_ROUTES.transport(operator.uuid, config.nodeId))
      .set('Authorization', `Bearer ${operator.token}`)
      .send({ transport: 'tls/grpc' })
      .expect(422);
  });
});
