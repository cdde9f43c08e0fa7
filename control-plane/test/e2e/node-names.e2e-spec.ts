import { Resolver } from 'node:dns/promises';
import type { AgentServiceClient } from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { NodeDnsServer } from '../../src/node-dns/node-dns.server';
import { registerAccount } from '../support/accounts';
import {
  agentClient,
  agentReport,
  enroll,
  nodeMetadata,
  report,
  TIER1_HARDWARE,
} from '../support/agent-client';
import { startTestApp, type TestApp } from '../support/test-app';

const DOMAIN = 'nodes.scn.test';

let t: TestApp;
let client: AgentServiceClient;
let resolver: Resolver;
beforeAll(async () => {
  t = await startTestApp({ SCN_NODE_DOMAIN: DOMAIN, SCN_DNS_LISTEN: '127.0.0.1:0' });
  client = agentClient(t.app.get(AgentGrpcServer).port);
  resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${t.app.get(NodeDnsServer).port}`]);
});
afterAll(async () => {
  client.close();
  await t.close();
});

async function enrollNode(publicHost: string) {
  const operator = await registerAccount(t, { userType: 'node' });
  const { body } = await t
    .http()
    .post('/api/nodes/enrollment-tokens')
    .set('Authorization', `Bearer ${operator.token}`)
    .send({ tier: 'tier1' })
    .expect(201);
  const node = await enroll(client, {
    enrollmentToken: body.token as string,
    tier: 'TIER_1',
    agentVersion: '0.1.0',
    hardware: TIER1_HARDWARE,
    publicHost,
  });
  return { ...node, operator };
}

describe('node names (SCN_NODE_DOMAIN, SCN_DNS_LISTEN)', () => {
  it('should name the node at enrollment and answer the name with the address it gave, then the one it reports', async () => {
    const node = await enrollNode('203.0.113.40');
    expect(node.hostName).toMatch(new RegExp(`^n[0-9a-f]{16}\\.${DOMAIN.replace(/\./g, '\\.')}$`));
    expect(await resolver.resolve4(node.hostName)).toEqual(['203.0.113.40']);

    const metadata = nodeMetadata(node.nodeId, node.nodeSecret);
    const answer = await report(
      client,
      metadata,
      agentReport(60, { publicHost: '203.0.113.41', publicPort: 443 }),
    );
    expect(answer.hostName).toBe(node.hostName);
    // The report's replica forgets the cached answer at once.
    expect(await resolver.resolve4(node.hostName)).toEqual(['203.0.113.41']);
    const v6 = await report(
      client,
      metadata,
      agentReport(120, { publicHost: '2001:db8::41', publicPort: 443 }),
    );
    expect(v6.hostName).toBe(node.hostName);
    expect(await resolver.resolve6(node.hostName)).toEqual(['2001:db8::41']);
  });

  it('should give each node a different name and refuse a malformed public host', async () => {
    const a = await enrollNode('');
    const b = await enrollNode('198.51.100.7');
    expect(a.hostName).not.toBe(b.hostName);
    // Enrolled without an address and not reported yet: the name exists, with no address.
    await expect(resolver.resolve4(a.hostName)).rejects.toMatchObject({ code: 'ENODATA' });
    await expect(enrollNode('not a host')).rejects.toMatchObject({ code: 3 });
  });

  it('should name a node enrolled before names with its next report', async () => {
    const node = await enrollNode('203.0.113.60');
    await t.db.query(`UPDATE servers SET host_name = NULL WHERE id = $1`, [node.nodeId]);
    const metadata = nodeMetadata(node.nodeId, node.nodeSecret);
    const first = await report(
      client,
      metadata,
      agentReport(60, { publicHost: '203.0.113.61', publicPort: 443 }),
    );
    expect(first.hostName).toMatch(/^n[0-9a-f]{16}\.nodes\.scn\.test$/);
    expect(first.hostName).not.toBe(node.hostName);
    const second = await report(
      client,
      metadata,
      agentReport(120, { publicHost: '203.0.113.61', publicPort: 443 }),
    );
    expect(second.hostName).toBe(first.hostName);
    expect(await resolver.resolve4(first.hostName)).toEqual(['203.0.113.61']);
  });

  it('should show the node dashboard where its certificate comes from, as the node reported it', async () => {
    const node = await enrollNode('203.0.113.50');
    const metadata = nodeMetadata(node.nodeId, node.nodeSecret);
    const base = agentReport(60, { publicHost: '203.0.113.50', publicPort: 443 });
    const tls = {
      ...base.inbound!,
      sni: node.hostName,
      certificateSource: 'acme',
      certificateName: node.hostName,
      certificateNotAfterMs: '1798761600000',
    };
    await report(client, metadata, { ...base, inbound: tls });
    const shown = async () => {
      const { body } = await t
        .http()
        .get(`/nodes/servers/${node.operator.uuid}`)
        .set('Authorization', `Bearer ${node.operator.token}`)
        .expect(200);
      return (body.servers as Array<{ id: string; certificate: unknown }>).find(
        (s) => s.id === node.nodeId,
      )!.certificate;
    };
    expect(await shown()).toEqual({
      source: 'acme',
      name: node.hostName,
      notAfter: '2027-01-01T00:00:00.000Z',
      problem: '',
    });
    await report(client, metadata, {
      ...agentReport(120, { publicHost: '203.0.113.50', publicPort: 443 }),
      inbound: {
        ...tls,
        certificateSource: 'self_signed',
        certificateName: '203.0.113.50',
        certificateNotAfterMs: '0',
        certificateProblem: 'the CA could not reach port 80',
      },
    });
    expect(await shown()).toMatchObject({
      source: 'self_signed',
      notAfter: null,
      problem: 'the CA could not reach port 80',
    });
  });
});
