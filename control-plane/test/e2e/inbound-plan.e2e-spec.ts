import {
  type AgentServiceClient,
  INBOUND_PLAN_MESSAGES,
  type NodeServerDetails,
  NODES_ROUTES,
} from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { PLAN_PORT_RANGE } from '../../src/nodes/inbound-plan';
import { registerAccount } from '../support/accounts';
import {
  agentClient,
  agentReport,
  enroll,
  nodeMetadata,
  report,
  TIER1_HARDWARE,
  watch,
} from '../support/agent-client';
import { selfSigned } from '../support/self-signed';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Control plane side, from outside: enrollment gives the machine a persistent port
 * of its own and the core's secure default; the owner changes the transport and regenerates the
 * port over REST; each change reaches the node's open WatchClients stream at once as a new
 * ClientSet carrying the new InboundPlan; Node Configuration shows it pending until the node
 * reports serving it.
 */

let t: TestApp;
let client: AgentServiceClient;

beforeAll(async () => {
  t = await startTestApp();
  client = agentClient(t.app.get(AgentGrpcServer).port);
});
afterAll(async () => {
  client.close();
  await t.close();
});

type Operator = Awaited<ReturnType<typeof registerAccount>>;

async function enrolled(core: string, requestedPort = 0) {
  const operator = await registerAccount(t, { userType: 'node' });
  const { body } = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ tier: 'tier2' })
    .expect(201);
  const node = await enroll(client, {
    enrollmentToken: body.token as string,
    tier: 'TIER_2',
    agentVersion: '0.2.0',
    hardware: TIER1_HARDWARE,
    requestedPort,
    core,
  });
  return { operator, node, metadata: nodeMetadata(node.nodeId, node.nodeSecret) };
}

function details(operator: Operator, serverId: string): Promise<NodeServerDetails> {
  return t
    .http()
    .get(NODES_ROUTES.server(operator.uuid, serverId))
    .set('Authorization', `Bearer ${operator.token}`)
    .expect(200)
    .then((res) => res.body.server as NodeServerDetails);
}

describe('inbound plans over REST and WatchClients', () => {
  it('should answer enrollment with a persistent port of the range and the core default', async () => {
    const xray = await enrolled('xray');
    expect(xray.node.inboundPlan).toMatchObject({
      security: 'reality',
      network: 'tcp',
      revision: '1',
    });
    expect(xray.node.inboundPlan!.port).toBeGreaterThanOrEqual(PLAN_PORT_RANGE.min);
    expect(xray.node.inboundPlan!.port).toBeLessThanOrEqual(PLAN_PORT_RANGE.max);
    const v2ray = await enrolled('v2ray', 8443);
    expect(v2ray.node.inboundPlan).toEqual({
      port: 8443,
      security: 'tls',
      network: 'tcp',
      revision: '1',
    });
  });

  it('should give 443 to every machine asking for it, one port per machine, not per platform', async () => {
    // docs/security.md#what-dpi-sees: agents ask for 443 where the machine has it free.
    const nodes = [await enrolled('v2ray', 443), await enrolled('xray', 443)];
    for (const [index, { operator, node, metadata }] of nodes.entries()) {
      expect(node.inboundPlan).toMatchObject({ port: 443, revision: '1' });
      const host = `203.0.113.${10 + index}`;
      await report(client, metadata, agentReport(60, { publicHost: host, publicPort: 443 }));
      expect(await details(operator, node.nodeId)).toMatchObject({ host, port: 443 });
    }
  });

  it('should push a transport change and a regenerated port to the open stream at once, pending until reported', async () => {
    const { operator, node, metadata } = await enrolled('xray');
    const port = node.inboundPlan!.port;
    const stream = watch(client, metadata);
    try {
      // A new node holds no set (version 0) and gets the current one at once, version 0 too:
      // the vantage points' UUID alone, and the plan enrollment gave.
      await stream.waitFor(() => stream.sets.length === 1);
      expect(stream.sets[0]!.version).toBe('0');
      const changed = await t
        .http()
        .patch(NODES_ROUTES.transport(operator.uuid, node.nodeId))
        .set('Authorization', `Bearer ${operator.token}`)
        .send({ transport: 'tls/ws' })
        .expect(200);
      expect(changed.body.message).toBe(INBOUND_PLAN_MESSAGES.transportChanged);
      await stream.waitFor(() => stream.sets.length === 2);
      expect(stream.sets[1]!.inboundPlan).toEqual({
        port,
        security: 'tls',
        network: 'ws',
        revision: '2',
      });

      const regenerated = await t
        .http()
        .post(NODES_ROUTES.regeneratePort(operator.uuid, node.nodeId))
        .set('Authorization', `Bearer ${operator.token}`)
        .send({ confirm: true })
        .expect(200);
      await stream.waitFor(() => stream.sets.length === 3);
      const plan = stream.sets[2]!.inboundPlan!;
      expect(plan).toMatchObject({ security: 'tls', network: 'ws', revision: '3' });
      expect(plan.port).not.toBe(port);
      expect(regenerated.body.server.plan).toMatchObject({ port: plan.port, transport: 'tls/ws' });
      expect(regenerated.body.message).toBe(INBOUND_PLAN_MESSAGES.portRegenerated(plan.port));
      // The client set itself is unchanged (no client: the vantage points' UUID alone): only its
      // version moved, to carry the plan.
      const [probe] = await t.db.query<{ probe_uuid: string }>(
        'SELECT probe_uuid FROM servers WHERE id = $1',
        [node.nodeId],
      );
      expect(stream.sets.every((s) => s.clientUuids.join() === probe!.probe_uuid)).toBe(true);

      // Pending until the node reports serving revision 3; then links follow the report.
      let shown = await details(operator, node.nodeId);
      expect(shown.inboundPending).toBe(true);
      const cert = selfSigned('node.example.net');
      await report(
        client,
        metadata,
        agentReport(60, {
          publicPort: plan.port,
          inbound: {
            security: 'tls',
            sni: 'node.example.net',
            fp: 'chrome',
            network: 'ws',
            path: '/a1b2c3',
            certificateSha256: cert.certificateSha256,
            publicKeySha256: cert.publicKeySha256,
            certificatePem: cert.certificatePem,
            planRevision: '3',
          },
        }),
      );
      shown = await details(operator, node.nodeId);
      expect(shown.inboundPending).toBe(false);
      expect(shown.port).toBe(plan.port);
      expect(shown.inbound).toMatchObject({
        security: 'tls',
        type: 'ws',
        path: '/a1b2c3',
        certificateSha256: cert.certificateSha256,
        planRevision: '3',
      });
      const [row] = await t.db.query<{ certificate_pem: string }>(
        'SELECT certificate_pem FROM servers WHERE id = $1',
        [node.nodeId],
      );
      expect(row?.certificate_pem).toBe(cert.certificatePem);
    } finally {
      stream.cancel();
    }
  });

  it('should refuse without confirmation, too soon, for a transport the core lacks, and for others', async () => {
    const { operator, node } = await enrolled('v2ray');
    const other = await registerAccount(t, { userType: 'node' });
    const regenerate = (as: Operator, body: unknown, uuid = as.uuid) =>
      t
        .http()
        .post(NODES_ROUTES.regeneratePort(uuid, node.nodeId))
        .set('Authorization', `Bearer ${as.token}`)
        .send(body as object);
    expect((await regenerate(operator, {}).expect(400)).body.message).toBe(
      INBOUND_PLAN_MESSAGES.confirmRequired,
    );
    await regenerate(other, { confirm: true }).expect(404);
    await regenerate(other, { confirm: true }, operator.uuid).expect(403);
    await regenerate(operator, { confirm: true }).expect(200);
    const tooSoon = await regenerate(operator, { confirm: true }).expect(429);
    expect(tooSoon.body.message).toMatch(/^The port was regenerated recently: try again in \d+ s$/);
    const wait = Number(/(\d+) s$/.exec(tooSoon.body.message as string)![1]);
    expect(tooSoon.headers['retry-after']).toBe(String(wait));
    const transport = (body: unknown) =>
      t
        .http()
        .patch(NODES_ROUTES.transport(operator.uuid, node.nodeId))
        .set('Authorization', `Bearer ${operator.token}`)
        .send(body as object);
    expect((await transport({ transport: 'reality/tcp' }).expect(422)).body.message).toBe(
      INBOUND_PLAN_MESSAGES.transportUnsupported('reality/tcp', 'v2ray'),
    );
    expect((await transport({ transport: 'quic' }).expect(400)).body.message).toBe(
      INBOUND_PLAN_MESSAGES.transportInvalid,
    );
    const shown = await details(operator, node.nodeId);
    expect(shown.plan).toMatchObject({ transport: 'tls/tcp', transports: ['tls/tcp', 'tls/ws'] });
  });

  it('should refuse a report whose certificate does not match its pin with INVALID_ARGUMENT', async () => {
    const { metadata } = await enrolled('v2ray');
    const [a, b] = [selfSigned('a.example.net'), selfSigned('b.example.net')];
    const refused = await report(
      client,
      metadata,
      agentReport(60, {
        inbound: {
          security: 'tls',
          sni: 'a.example.net',
          network: 'tcp',
          certificateSha256: a.certificateSha256,
          publicKeySha256: a.publicKeySha256,
          certificatePem: b.certificatePem,
        },
      }),
    ).catch((error: { code: number; details: string }) => error);
    expect(refused).toMatchObject({
      code: 3,
      details: 'inbound.certificatePem: does not match certificateSha256',
    });
  });
});
