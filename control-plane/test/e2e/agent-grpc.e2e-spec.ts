import { createHash } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import { Client } from 'pg';
import type { AgentServiceClient, ReportRequest } from '@scn/proto';
import {
  AgentGrpcServer,
  MAX_QUEUED_REPORTS,
  SHUTDOWN_STATUS_DETAILS,
} from '../../src/grpc/agent-grpc.server';
import { ClientSetsService } from '../../src/client-sets/client-sets.service';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { registerAccount } from '../support/accounts';
import {
  agentClient,
  enroll,
  nodeMetadata,
  report,
  reportStream,
  statusOf,
  TIER1_HARDWARE,
  watch,
} from '../support/agent-client';
import { startTestApp, type TestApp } from '../support/test-app';
import {
  enrolledNode as enrolledNodeOf,
  operatorWithToken as operatorWithTokenOf,
} from '../support/enrolled-node';
import { SteppedClock, useAgentApp } from '../support/agent-app';

const MIN = 60_000;
const HOUR = 60 * MIN;
const clock = new SteppedClock(new Date('2026-11-01T00:00:00Z'));
const advance = (ms: number) => clock.advance(ms);

let t: TestApp;
let client: AgentServiceClient;
useAgentApp(clock, (app, agent) => {
  t = app;
  client = agent;
});

const hardware = TIER1_HARDWARE;

function goodReport(overrides: Partial<ReportRequest> = {}): ReportRequest {
  return {
    agentVersion: '0.1.0',
    hardware,
    uptimeSeconds: '7200',
    proxyCore: {
      state: 'PROXY_CORE_STATE_RUNNING',
      name: 'v2ray',
      version: '4.34.0',
      restartCount: 0,
    },
    activeClients: 1,
    clientCountFailed: false,
    clientTraffic: [
      {
        clientUuid: '11111111-1111-4111-8111-111111111111',
        uplinkBytes: '10',
        downlinkBytes: '20',
      },
    ],
    pingMs: 12,
    publicHost: 'node1.example.net',
    publicPort: 443,
    inbound: {
      security: 'tls',
      sni: 'node1.example.net',
      fp: 'chrome',
      pbk: '',
      sid: '',
      flow: '',
      network: 'tcp',
    },
    appliedClientSetVersion: '0',
    ...overrides,
  };
}

const operatorWithToken = (tier = 'tier2', app = t) => operatorWithTokenOf(app, tier);
const enrolledNode = (app = t, agent = client) => enrolledNodeOf(app, agent);

/** Two enrolled nodes, and what a refused call must leave unchanged of their rows. */
async function twoNodes() {
  const a = await enrolledNode();
  const b = await enrolledNode();
  const snapshot = () =>
    t.db.query(
      'SELECT reliability_at_report, last_report_at, host, updated_at FROM servers WHERE id IN ($1, $2) ORDER BY id',
      [a.node.nodeId, b.node.nodeId],
    );
  return { a, b, snapshot };
}

async function serversOf(operator: { uuid: string; token: string }) {
  const res = await t
    .http()
    .get(`/nodes/servers/${operator.uuid}`)
    .set('Authorization', `Bearer ${operator.token}`)
    .expect(200);
  return res.body.servers as Array<Record<string, unknown>>;
}

describe('enrollment tokens (setup wizard)', () => {
  it('should give a node operator a one-line install command with a token bound to the tier', async () => {
    const { token, installCommand } = await operatorWithToken('tier3');
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(installCommand).toBe(
      `curl -fsSL ${t.config.publicUrl}/install.sh | sudo bash -s -- --token ${token} --tier tier3`,
    );
  });

  it('should refuse clients, a missing tier and signed-out callers', async () => {
    const client1 = await registerAccount(t, { userType: 'client' });
    const auth = { Authorization: `Bearer ${client1.token}` };
    const forbidden = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set(auth)
      .send({ tier: 'tier1' })
      .expect(403);
    expect(forbidden.body.message).toBe('Only node operator accounts can add servers');
    const operator = await registerAccount(t, { userType: 'node' });
    const missing = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set('Authorization', `Bearer ${operator.token}`)
      .send({})
      .expect(400);
    expect(missing.body.message).toBe('Please select a VPS tier');
    await t.http().post('/api/nodes/enrollment-tokens').send({ tier: 'tier1' }).expect(401);
  });

  it('should keep the name the wizard gives the server, and refuse a blank one', async () => {
    const operator = await registerAccount(t, { userType: 'node' });
    const auth = { Authorization: `Bearer ${operator.token}` };
    const blank = await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set(auth)
      .send({ tier: 'tier1', name: '  ' })
      .expect(400);
    expect(blank.body.message).toBe('Name is required');
    await t
      .http()
      .post('/api/nodes/enrollment-tokens')
      .set(auth)
      .send({ tier: 'tier1', name: '  Frankfurt VPS ' })
      .expect(201);
    const rows = await t.db.query<{ server_name: string }>(
      'SELECT server_name FROM enrollment_tokens WHERE owner_uuid = $1',
      [operator.uuid],
    );
    expect(rows).toEqual([{ server_name: 'Frankfurt VPS' }]);
  });
});

describe('Enroll', () => {
  it('should exchange the token for a node id and a secret that names the node', async () => {
    const { node } = await enrolledNode();
    expect(node.nodeId).toMatch(/^[0-9a-f-]{36}$/);
    expect(node.nodeSecret.startsWith(`${node.nodeId}.`)).toBe(true);
    expect(node.reportIntervalMs).toBe(60_000);
    expect(node.tier).toBe('TIER_2');
    const [row] = await t.db.query<{ secret_hash: string }>(
      'SELECT secret_hash FROM servers WHERE id = $1',
      [node.nodeId],
    );
    expect(row?.secret_hash).not.toContain(node.nodeSecret);
  });

  it('should use a token only once', async () => {
    const { token } = await operatorWithToken();
    const request = {
      enrollmentToken: token,
      tier: 'TIER_2' as const,
      agentVersion: '0.1.0',
      hardware,
    };
    await enroll(client, request);
    expect(await statusOf(enroll(client, request))).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('should refuse an expired token', async () => {
    const { token } = await operatorWithToken();
    advance(24 * HOUR + 1);
    expect(
      await statusOf(
        enroll(client, { enrollmentToken: token, tier: 'TIER_2', agentVersion: '0.1.0', hardware }),
      ),
    ).toBe(grpc.status.UNAUTHENTICATED);
  });

  it('should refuse another tier or too small a machine and keep the token usable', async () => {
    const { token } = await operatorWithToken('tier2');
    const before = await t.db.query('SELECT count(*)::int AS n FROM servers');
    expect(
      await statusOf(
        enroll(client, { enrollmentToken: token, tier: 'TIER_3', agentVersion: '0.1.0', hardware }),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
    const tiny = { ...hardware, cpuCores: 1, ramBytes: String(1024 ** 3) };
    expect(
      await statusOf(
        enroll(client, {
          enrollmentToken: token,
          tier: 'TIER_2',
          agentVersion: '0.1.0',
          hardware: tiny,
        }),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
    expect(await t.db.query('SELECT count(*)::int AS n FROM servers')).toEqual(before);
    await enroll(client, {
      enrollmentToken: token,
      tier: 'TIER_2',
      agentVersion: '0.1.0',
      hardware,
    });
  });

  it('should answer INVALID_ARGUMENT to malformed enrollments', async () => {
    expect(
      await statusOf(
        enroll(client, {
          enrollmentToken: 'short',
          tier: 'TIER_2',
          agentVersion: '0.1.0',
          hardware,
        }),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
    expect(
      await statusOf(
        enroll(client, { enrollmentToken: 'A'.repeat(43), tier: 'TIER_2', agentVersion: '0.1.0' }),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
  });
});

describe('Report', () => {
  it('should store the report and raise reliability by 2 per report at the 60 s pace', async () => {
    const { operator, node, metadata } = await enrolledNode();
    await t.db.query('UPDATE servers SET reliability_at_report = 50 WHERE id = $1', [node.nodeId]);
    let last = await report(client, metadata, goodReport());
    for (let i = 0; i < 4; i += 1) {
      advance(MIN);
      last = await report(client, metadata, goodReport());
    }
    expect(last).toMatchObject({
      accepted: true,
      reliability: 60,
      available: true,
      nextReportIntervalMs: 60_000,
    });
    const [server] = await serversOf(operator);
    expect(server).toMatchObject({
      id: node.nodeId,
      host: 'node1.example.net',
      port: 443,
      uptime: 2,
      connections: 1,
      reliability: 60,
      ping: 12,
      coreState: 'running',
      available: true,
      hidden: true, // below 95
    });
  });

  it('should take 10 when client counting failed and 5 for an impossible client count', async () => {
    const { node, metadata } = await enrolledNode();
    await t.db.query('UPDATE servers SET reliability_at_report = 80 WHERE id = $1', [node.nodeId]);
    advance(MIN);
    expect(
      (await report(client, metadata, goodReport({ clientCountFailed: true }))).reliability,
    ).toBe(70);
    advance(MIN);
    expect((await report(client, metadata, goodReport({ activeClients: 5 }))).reliability).toBe(65);
  });

  it('should apply a report to what others changed since its node last reported here', async () => {
    const { node, metadata } = await enrolledNode();
    expect((await report(client, metadata, goodReport())).reliability).toBe(100);
    // Another replica, the sweep or a support fix changes the row meanwhile.
    await t.db.query('UPDATE servers SET reliability_at_report = 50 WHERE id = $1', [node.nodeId]);
    advance(MIN);
    expect((await report(client, metadata, goodReport())).reliability).toBe(52);
    advance(MIN);
    expect((await report(client, metadata, goodReport())).reliability).toBe(54);
  });

  it('should take a credential changed in the database although this process remembers the node', async () => {
    const { node, metadata } = await enrolledNode();
    await report(client, metadata, goodReport());
    const secret = `${node.nodeId}.${'b'.repeat(43)}`;
    await t.db.query('UPDATE servers SET secret_hash = $2 WHERE id = $1', [
      node.nodeId,
      createHash('sha256').update(secret).digest('hex'),
    ]);
    advance(MIN);
    expect((await report(client, nodeMetadata(node.nodeId, secret), goodReport())).accepted).toBe(
      true,
    );
    advance(MIN);
    expect(await statusOf(report(client, metadata, goodReport()))).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });

  it('should keep the stored hardware, client count and ping when a report does not give them', async () => {
    const { node, metadata } = await enrolledNode();
    const stored = async () =>
      (
        (await t.db.query('SELECT hardware, active_clients, ping_ms FROM servers WHERE id = $1', [
          node.nodeId,
        ])) as Array<{
          hardware: { cpuCores: number } | null;
          active_clients: number;
          ping_ms: number | null;
        }>
      )[0];
    await report(client, metadata, goodReport({ activeClients: 1, pingMs: 0 }));
    expect((await stored())?.ping_ms).toBeNull(); // never measured
    advance(MIN);
    await report(client, metadata, goodReport({ activeClients: 1, pingMs: 12 }));
    advance(MIN);
    await report(
      client,
      metadata,
      goodReport({ hardware: undefined, clientCountFailed: true, pingMs: 0 }),
    );
    expect(await stored()).toMatchObject({
      hardware: { cpuCores: hardware.cpuCores },
      active_clients: 1,
      ping_ms: 12,
    });
    advance(MIN);
    await report(client, metadata, goodReport({ activeClients: 0 }));
    expect((await stored())?.active_clients).toBe(0);
  });

  it('should decay a node that stops reporting, with nobody watching', async () => {
    const { operator, metadata } = await enrolledNode();
    await report(client, metadata, goodReport());
    advance(3 * HOUR + 5 * MIN);
    const [server] = await serversOf(operator);
    expect(server).toMatchObject({ reliability: 85, available: false, hidden: true });
    // The minute job settles the lifecycle; a second replica's run at the same time is skipped.
    const job = t.app.get(ReliabilitySweepJob);
    const [first, concurrent] = await Promise.all([job.runOnce(), job.runOnce()]);
    expect([first, concurrent].filter((r) => r === null)).toHaveLength(1);
    expect(Math.max(first ?? 0, concurrent ?? 0)).toBeGreaterThanOrEqual(1);
    const [row] = await t.db.query<{ below_threshold_since: Date | null }>(
      'SELECT below_threshold_since FROM servers WHERE owner_uuid = $1',
      [operator.uuid],
    );
    expect(row?.below_threshold_since).not.toBeNull();
  });

  it('should answer UNAUTHENTICATED, PERMISSION_DENIED and INVALID_ARGUMENT without changing anything', async () => {
    const { a, b, snapshot } = await twoNodes();
    const before = await snapshot();
    advance(MIN);
    expect(
      await statusOf(
        report(client, nodeMetadata(a.node.nodeId, `${a.node.nodeId}.wrong`), goodReport()),
      ),
    ).toBe(grpc.status.UNAUTHENTICATED);
    expect(await statusOf(report(client, new grpc.Metadata(), goodReport()))).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect(
      await statusOf(report(client, nodeMetadata(b.node.nodeId, a.node.nodeSecret), goodReport())),
    ).toBe(grpc.status.PERMISSION_DENIED);
    expect(await statusOf(report(client, a.metadata, goodReport({ publicPort: 0 })))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect(
      await statusOf(report(client, a.metadata, goodReport({ publicHost: 'not a host!' }))),
    ).toBe(grpc.status.INVALID_ARGUMENT);
    expect(
      await statusOf(
        report(
          client,
          a.metadata,
          goodReport({
            clientTraffic: [{ clientUuid: 'x', uplinkBytes: '1', downlinkBytes: '1' }],
          }),
        ),
      ),
    ).toBe(grpc.status.INVALID_ARGUMENT);
    // What PostgreSQL would refuse is refused first: it would fail a whole batch of reports.
    for (const bad of [
      goodReport({ agentVersion: '0.1.0\u0000' }),
      goodReport({ uptimeSeconds: '9223372036854775808' }),
      goodReport({ appliedClientSetVersion: '18446744073709551615' }),
      goodReport({ inbound: { ...goodReport().inbound!, sni: 'a\u0000b' } }),
    ]) {
      expect(await statusOf(report(client, a.metadata, bad))).toBe(grpc.status.INVALID_ARGUMENT);
    }
    expect(await snapshot()).toEqual(before);
  });

  it('should answer INVALID_ARGUMENT to bytes that are not a message at all', async () => {
    const { metadata } = await enrolledNode();
    const raw = new grpc.Client(
      `127.0.0.1:${t.app.get(AgentGrpcServer).port}`,
      grpc.credentials.createInsecure(),
    );
    const call = (method: string, meta: grpc.Metadata) =>
      new Promise<grpc.ServiceError | null>((resolve) =>
        raw.makeUnaryRequest(
          `/scn.agent.v1.AgentService/${method}`,
          (bytes: Buffer) => bytes,
          (bytes: Buffer) => bytes,
          Buffer.from([0xff, 0xff, 0xff, 0xff]),
          meta,
          (error) => resolve(error),
        ),
      );
    try {
      const reportError = await call('Report', metadata);
      expect(reportError?.code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(reportError?.details).toMatch(/^Malformed message/);
      expect((await call('Enroll', new grpc.Metadata()))?.code).toBe(grpc.status.INVALID_ARGUMENT);
    } finally {
      raw.close();
    }
  });

  it('should refuse a deleted node, also one this control plane has just heard from', async () => {
    const { operator, node, metadata } = await enrolledNode();
    await report(client, metadata, goodReport());
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${node.nodeId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    expect(await statusOf(report(client, metadata, goodReport()))).toBe(
      grpc.status.UNAUTHENTICATED,
    );
  });
});

describe('ReportStream', () => {
  it('should store each report on one stream and answer each, in order, as Report does', async () => {
    const { operator, node, metadata } = await enrolledNode();
    await t.db.query('UPDATE servers SET reliability_at_report = 50 WHERE id = $1', [node.nodeId]);
    const stream = reportStream(client, metadata);
    const answers = [];
    for (let i = 0; i < 5; i += 1) {
      if (i > 0) advance(MIN);
      answers.push(await stream.send(goodReport({ uptimeSeconds: String(100 + i) })));
    }
    expect(answers.map((a) => a.reliability)).toEqual([52, 54, 56, 58, 60]);
    expect(answers[4]).toMatchObject({
      accepted: true,
      available: true,
      nextReportIntervalMs: 60_000,
    });
    const [server] = await serversOf(operator);
    expect(server).toMatchObject({ id: node.nodeId, reliability: 60, host: 'node1.example.net' });
    const [row] = await t.db.query('SELECT uptime_seconds FROM servers WHERE id = $1', [
      node.nodeId,
    ]);
    expect(String(row?.uptime_seconds)).toBe('104');
    expect((await stream.end()).code).toBe(grpc.status.OK);
  });

  it('should say how long it held each report, waiting for the database included', async () => {
    const { node, metadata } = await enrolledNode();
    const stream = reportStream(client, metadata);
    const quick = await stream.send(goodReport());
    expect(quick.handlingMs).toBeLessThan(1_000);
    // Another transaction holds the node's row for 400 ms: the report's batch waits for it.
    const holder = new Client({ connectionString: t.db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT 1 FROM servers WHERE id = $1 FOR UPDATE', [node.nodeId]);
      advance(MIN);
      const answer = stream.send(goodReport());
      await new Promise((resolve) => setTimeout(resolve, 400));
      await holder.query('COMMIT');
      const held = await answer;
      expect(held.accepted).toBe(true);
      expect(held.handlingMs).toBeGreaterThanOrEqual(380);
    } finally {
      await holder.end();
    }
    await stream.end();
  });

  it('should end the stream with UNAUTHENTICATED, PERMISSION_DENIED or INVALID_ARGUMENT without changing anything', async () => {
    const { a, b, snapshot } = await twoNodes();
    const before = await snapshot();
    advance(MIN);
    const refusal = async (metadata: grpc.Metadata, request: ReportRequest) => {
      const stream = reportStream(client, metadata);
      const answer = await statusOf(stream.send(request));
      const status = await stream.ended;
      expect(answer).toBe(status.code);
      return status.code;
    };
    expect(await refusal(nodeMetadata(a.node.nodeId, `${a.node.nodeId}.wrong`), goodReport())).toBe(
      grpc.status.UNAUTHENTICATED,
    );
    expect(await refusal(new grpc.Metadata(), goodReport())).toBe(grpc.status.UNAUTHENTICATED);
    expect(await refusal(nodeMetadata(b.node.nodeId, a.node.nodeSecret), goodReport())).toBe(
      grpc.status.PERMISSION_DENIED,
    );
    expect(await refusal(a.metadata, goodReport({ publicPort: 0 }))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect(await refusal(a.metadata, goodReport({ agentVersion: '0.1.0\u0000' }))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect(await snapshot()).toEqual(before);
  });

  it('should keep the reports it answered and end at the first refused one', async () => {
    const { node, metadata } = await enrolledNode();
    const stream = reportStream(client, metadata);
    expect((await stream.send(goodReport({ uptimeSeconds: '7' }))).accepted).toBe(true);
    advance(MIN);
    expect(await statusOf(stream.send(goodReport({ publicHost: 'not a host!' })))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );
    expect((await stream.ended).code).toBe(grpc.status.INVALID_ARGUMENT);
    const [row] = await t.db.query('SELECT uptime_seconds, host FROM servers WHERE id = $1', [
      node.nodeId,
    ]);
    expect({ uptime: String(row?.uptime_seconds), host: row?.host }).toEqual({
      uptime: '7',
      host: 'node1.example.net',
    });
  });

  it('should answer INVALID_ARGUMENT to bytes that are not a message at all', async () => {
    const { metadata } = await enrolledNode();
    const raw = new grpc.Client(
      `127.0.0.1:${t.app.get(AgentGrpcServer).port}`,
      grpc.credentials.createInsecure(),
    );
    try {
      const call = raw.makeBidiStreamRequest(
        '/scn.agent.v1.AgentService/ReportStream',
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        metadata,
      );
      call.on('data', () => undefined);
      call.on('error', () => undefined);
      const status = new Promise<grpc.StatusObject>((resolve) => call.on('status', resolve));
      call.write(Buffer.from([0xff, 0xff, 0xff, 0xff]));
      const { code, details } = await status;
      expect(code).toBe(grpc.status.INVALID_ARGUMENT);
      expect(details).toMatch(/^Malformed message/);
    } finally {
      raw.close();
    }
  });

  it('should refuse a node deleted while its stream is open', async () => {
    const { operator, node, metadata } = await enrolledNode();
    const stream = reportStream(client, metadata);
    await stream.send(goodReport());
    await t
      .http()
      .delete(`/nodes/server/${operator.uuid}/${node.nodeId}`)
      .set('Authorization', `Bearer ${operator.token}`)
      .expect(200);
    advance(MIN);
    expect(await statusOf(stream.send(goodReport()))).toBe(grpc.status.UNAUTHENTICATED);
    const [left] = await t.db.query('SELECT count(*)::int AS count FROM servers WHERE id = $1', [
      node.nodeId,
    ]);
    expect(left?.count).toBe(0);
  });

  it(`should end a stream that holds more than ${MAX_QUEUED_REPORTS} reports unanswered`, async () => {
    const { metadata } = await enrolledNode();
    const stream = reportStream(client, metadata);
    for (let i = 0; i < MAX_QUEUED_REPORTS * 4; i += 1) stream.write(goodReport());
    const status = await stream.ended;
    expect(status.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(status.details).toMatch(/wait for each answer/);
  });
});

describe('node dashboard calls', () => {
  it("should answer 403 for another operator's servers and 404 for a server that is not yours", async () => {
    const a = await enrolledNode();
    const b = await enrolledNode();
    await t
      .http()
      .get(`/nodes/servers/${b.operator.uuid}`)
      .set('Authorization', `Bearer ${a.operator.token}`)
      .expect(403);
    await t
      .http()
      .delete(`/nodes/server/${a.operator.uuid}/${b.node.nodeId}`)
      .set('Authorization', `Bearer ${a.operator.token}`)
      .expect(404);
    expect(await serversOf(b.operator)).toHaveLength(1);
  });
});

describe('WatchClients', () => {
  it('should push the full allowed set on every change, in version order', async () => {
    const { node, metadata } = await enrolledNode();
    const stream = watch(client, metadata);
    const nodes = t.app.get(ClientSetsService);
    const u1 = '11111111-1111-4111-8111-111111111111';
    const u2 = '22222222-2222-4222-8222-222222222222';
    // Every set also admits the vantage points' UUID of the server, never a client's.
    const [server] = await t.db.query<{ probe_uuid: string }>(
      'SELECT probe_uuid FROM servers WHERE id = $1',
      [node.nodeId],
    );
    const probe = server!.probe_uuid;
    const withProbe = (...uuids: string[]) => [...uuids, probe].sort();
    // A node holding no set gets the current one at once, version 0 included (the probe UUID).
    await stream.waitFor(() => stream.sets.length === 1);
    expect(stream.sets[0]).toMatchObject({ version: '0', clientUuids: [probe] });
    stream.sets.shift();
    await nodes.setAllowedClients(node.nodeId, [u2, u1]);
    await stream.waitFor(() => stream.sets.length === 1);
    // Every set carries the node's inbound plan, here the one enrollment gave.
    const inboundPlan = stream.sets[0]!.inboundPlan;
    expect(inboundPlan).toMatchObject({ security: 'tls', network: 'tcp', revision: '1' });
    expect(stream.sets[0]).toEqual({ version: '1', clientUuids: withProbe(u1, u2), inboundPlan });
    await nodes.setAllowedClients(node.nodeId, [u2]);
    await stream.waitFor(() => stream.sets.length === 2);
    expect(stream.sets[1]).toEqual({ version: '2', clientUuids: withProbe(u2), inboundPlan });
    stream.cancel();

    // A node that reconnects gets the current set at once.
    const again = watch(client, metadata, '1');
    await again.waitFor(() => again.sets.length === 1);
    expect(again.sets[0]).toEqual({ version: '2', clientUuids: withProbe(u2), inboundPlan });
    again.cancel();
  });

  it('should refuse a stream with bad credentials', async () => {
    const { node } = await enrolledNode();
    const stream = watch(client, nodeMetadata(node.nodeId, `${node.nodeId}.nope`));
    await stream.waitFor(() => stream.failure !== null);
    expect(stream.failure?.code).toBe(grpc.status.UNAUTHENTICATED);
  });
});

describe('shutdown', () => {
  it('should end open report and client-set streams with UNAVAILABLE instead of cutting them', async () => {
    const own = await startTestApp({}, { clock });
    const ownClient = agentClient(own.app.get(AgentGrpcServer).port);
    try {
      const { metadata } = await enrolledNode(own, ownClient);
      const watching = watch(ownClient, metadata);
      const watchEnded = new Promise<grpc.StatusObject>((resolve) => watching.onStatus(resolve));
      // One channel, frames in order: once this report is answered, the watch has reached the server.
      const stream = reportStream(ownClient, metadata);
      expect((await stream.send(goodReport())).accepted).toBe(true);
      await own.close();
      // UNAVAILABLE: what agents take as "go to another address" (docs/architecture.md).
      expect((await stream.ended).code).toBe(grpc.status.UNAVAILABLE);
      expect(await watchEnded).toMatchObject({
        code: grpc.status.UNAVAILABLE,
        details: SHUTDOWN_STATUS_DETAILS,
      });
    } finally {
      ownClient.close();
    }
  });
});
