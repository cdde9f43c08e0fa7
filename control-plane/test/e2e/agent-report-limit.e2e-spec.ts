import * as grpc from '@grpc/grpc-js';
import type { AgentServiceClient, ReportRequest } from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { REPORT_BURST, REPORT_REFILL_MS } from '../../src/grpc/report-rate-limiter';
import { registerAccount } from '../support/accounts';
import {
  agentClient,
  enroll,
  nodeMetadata,
  report,
  reportStream,
  TIER1_HARDWARE,
} from '../support/agent-client';
import { startTestApp, type TestApp } from '../support/test-app';

// Time stands still unless a test moves it: the allowance refills only when it does.
let now = new Date('2026-11-24T00:00:00Z');
const clock = { now: () => now };
const advance = (ms: number) => (now = new Date(now.getTime() + ms));

let t: TestApp;
let client: AgentServiceClient;
beforeAll(async () => {
  t = await startTestApp({}, { clock });
  client = agentClient(t.app.get(AgentGrpcServer).port);
});
afterAll(async () => {
  client.close();
  await t.close();
});

const hardware = TIER1_HARDWARE;

const goodReport = (uptimeSeconds: number): ReportRequest => ({
  agentVersion: '0.1.0',
  uptimeSeconds: String(uptimeSeconds),
  proxyCore: {
    state: 'PROXY_CORE_STATE_RUNNING',
    name: 'v2ray',
    version: '4.34.0',
    restartCount: 0,
  },
  activeClients: 0,
  clientCountFailed: false,
  pingMs: 12,
  publicHost: 'node.example.net',
  publicPort: 443,
  inbound: {
    security: 'tls',
    sni: 'node.example.net',
    fp: 'chrome',
    pbk: '',
    sid: '',
    flow: '',
    network: 'tcp',
  },
  appliedClientSetVersion: '0',
});

async function enrolledNode() {
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
    agentVersion: '0.1.0',
    hardware,
  });
  return { id: node.nodeId, metadata: nodeMetadata(node.nodeId, node.nodeSecret) };
}

/** 'ok', or the status and message a call was refused with. */
const outcome = (promise: Promise<unknown>) =>
  promise.then(
    () => 'ok',
    (error: grpc.ServiceError) => `${grpc.status[error.code]}: ${error.details}`,
  );

const uptimeOf = async (id: string) =>
  Number(
    (await t.db.query('SELECT uptime_seconds FROM servers WHERE id = $1', [id]))[0]?.uptime_seconds,
  );

describe('per-node report allowance', () => {
  it('should refuse a node sending 1,000 reports at once after its burst, and leave another node alone (unary Report)', async () => {
    const flood = await enrolledNode();
    const quiet = await enrolledNode();
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, flood.metadata, goodReport(i)))).toBe('ok');
    }
    const answers = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        outcome(report(client, flood.metadata, goodReport(1000 + i))),
      ),
    );
    expect(new Set(answers)).toEqual(
      new Set([
        'RESOURCE_EXHAUSTED: Too many reports from this node: after a burst of 20, one every 6 s (agents report every 60 s); retry in 6 s',
      ]),
    );
    expect(await uptimeOf(flood.id)).toBe(REPORT_BURST);

    // The other node was never held back, and has its whole burst.
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, quiet.metadata, goodReport(i)))).toBe('ok');
    }

    // The allowance refills at one report per 6 s.
    advance(REPORT_REFILL_MS);
    expect(await outcome(report(client, flood.metadata, goodReport(5000)))).toBe('ok');
    expect(await outcome(report(client, flood.metadata, goodReport(5001)))).toMatch(
      /^RESOURCE_EXHAUSTED: /,
    );
    expect(await uptimeOf(flood.id)).toBe(5000);
  });

  it('should end a ReportStream that goes over the allowance, shared with unary Report, and leave another node streaming', async () => {
    advance(60 * 60_000);
    const flood = await enrolledNode();
    const quiet = await enrolledNode();
    const floodStream = reportStream(client, flood.metadata);
    const quietStream = reportStream(client, quiet.metadata);
    for (let i = 1; i <= REPORT_BURST / 2; i += 1) {
      expect((await floodStream.send(goodReport(i))).accepted).toBe(true);
    }
    for (let i = REPORT_BURST / 2 + 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, flood.metadata, goodReport(i)))).toBe('ok');
    }
    expect(await outcome(floodStream.send(goodReport(999)))).toMatch(
      /^RESOURCE_EXHAUSTED: Too many reports from this node/,
    );
    expect((await floodStream.ended).code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(await uptimeOf(flood.id)).toBe(REPORT_BURST);

    for (let i = 1; i <= 5; i += 1) {
      expect((await quietStream.send(goodReport(i))).accepted).toBe(true);
    }
    expect((await quietStream.end()).code).toBe(grpc.status.OK);
  });

  it('should not let calls that only name a node use up its allowance', async () => {
    advance(60 * 60_000);
    const victim = await enrolledNode();
    const forged = nodeMetadata(victim.id, `${victim.id}.not-the-secret`);
    for (let i = 0; i < 30; i += 1) {
      expect(await outcome(report(client, forged, goodReport(i)))).toMatch(/^UNAUTHENTICATED/);
    }
    for (let i = 1; i <= REPORT_BURST; i += 1) {
      expect(await outcome(report(client, victim.metadata, goodReport(i)))).toBe('ok');
    }
  });
});
