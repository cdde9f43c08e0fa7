import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { AgentServiceClient, ReportRequest } from '@scn/proto';
import {
  serverTrafficResponseSchema,
  subscriptionCreationResponseSchema,
  subscriptionTrafficResponseSchema,
  TRAFFIC_MESSAGES,
  TRAFFIC_ROUTES,
} from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { registerAccount } from '../support/accounts';
import { agentClient, agentReport, report, statusOf } from '../support/agent-client';
import { enrolledNode as enrollNode } from '../support/enrolled-node';
import { buy } from '../support/subscriptions';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The traffic an agent reports per client reaches its subscription's day, the
 * subscription URL's `subscription-userinfo` header, the client's per-server-per-day view and the
 * operator's per-server view; nobody else's.
 */

const MIN = 60_000;
// Noon (UTC) of the real day, so two reports a few minutes apart share their UTC day.
let now = new Date(Math.floor(Date.now() / 86_400_000) * 86_400_000 + 12 * 60 * MIN);
const clock = { now: () => now };
const today = now.toISOString().slice(0, 10);

let t: TestApp;
let grpcClient: AgentServiceClient;
beforeAll(async () => {
  // Subscriptions are free in the launch period: no chain needed to buy one.
  t = await startTestApp({ LAUNCH_PERIOD_ENDS: '2099-12-31' }, { clock });
  grpcClient = agentClient(t.app.get(AgentGrpcServer).port);
});
afterAll(async () => {
  grpcClient.close();
  await t.close();
});

type Traffic = ReportRequest['clientTraffic'];

/** A report with these clients' traffic (each an active client). */
const trafficReport = (uptimeSeconds: number, clientTraffic: Traffic = []) =>
  agentReport(uptimeSeconds, { clientTraffic, activeClients: clientTraffic.length });

async function enrolledNode() {
  const node = await enrollNode(t, grpcClient);
  // The first report gives the address clients dial: the server can be bought.
  await report(grpcClient, node.metadata, trafficReport(1));
  return node;
}

const userinfo = (header: string | undefined) =>
  Object.fromEntries(
    (header ?? '').split(';').map((part) => part.trim().split('=') as [string, string]),
  );

describe('traffic per subscription, server and day', () => {
  it('should add reported traffic to the feed header and both views, only for their owners', async () => {
    const [a, b] = [await enrolledNode(), await enrolledNode()];
    const client = await registerAccount(t, { userType: 'client' });
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [a.id, b.id]).expect(200)).body,
    );
    const vless = bought.subscription.uuid;
    const feedPath = new URL(bought.subscription.subscriptionUrl).pathname;
    const feedInfo = async () =>
      userinfo((await t.http().get(feedPath).expect(200)).headers['subscription-userinfo']);
    // Nothing moved yet.
    expect(await feedInfo()).toMatchObject({ upload: '0', download: '0', total: '0' });

    now = new Date(now.getTime() + MIN);
    const stranger = randomUUID();
    await report(
      grpcClient,
      a.metadata,
      trafficReport(61, [
        { clientUuid: vless, uplinkBytes: '1500', downlinkBytes: '250000' },
        // Not a client of this server: never stored.
        { clientUuid: stranger, uplinkBytes: '9', downlinkBytes: '9' },
      ]),
    );
    await report(
      grpcClient,
      b.metadata,
      trafficReport(61, [{ clientUuid: vless, uplinkBytes: '500', downlinkBytes: '750000' }]),
    );
    now = new Date(now.getTime() + MIN);
    // Deltas: the next report adds its movement.
    await report(
      grpcClient,
      a.metadata,
      trafficReport(121, [{ clientUuid: vless, uplinkBytes: '25', downlinkBytes: '1000' }]),
    );

    const info = await feedInfo();
    expect(info).toMatchObject({ upload: '2025', download: '1001000', total: '0' });
    expect(Number(info.expire)).toBeGreaterThan(now.getTime() / 1000);

    const mine = await t
      .http()
      .get(TRAFFIC_ROUTES.subscriptionTraffic(client.uuid, bought.subscriptionId, 7))
      .set('Cookie', client.cookie)
      .expect(200);
    const view = subscriptionTrafficResponseSchema.parse(mine.body);
    expect(view.to).toBe(today);
    expect(view.days).toEqual(
      [
        { date: today, serverId: a.id, uploadBytes: '1525', downloadBytes: '251000' },
        { date: today, serverId: b.id, uploadBytes: '500', downloadBytes: '750000' },
      ].sort((x, y) => x.serverId.localeCompare(y.serverId)),
    );
    expect(view.total).toEqual({ uploadBytes: '2025', downloadBytes: '1001000' });
    expect(view.allTime).toEqual(view.total);

    const serverView = await t
      .http()
      .get(TRAFFIC_ROUTES.serverTraffic(a.operator.uuid, a.id))
      .set('Authorization', `Bearer ${a.operator.token}`)
      .expect(200);
    expect(serverTrafficResponseSchema.parse(serverView.body)).toMatchObject({
      serverId: a.id,
      days: [{ date: today, uploadBytes: '1525', downloadBytes: '251000', subscriptions: 1 }],
      total: { uploadBytes: '1525', downloadBytes: '251000' },
    });

    // Nobody else's: another client, another operator, an operator asking for a subscription.
    const other = await registerAccount(t, { userType: 'client' });
    await t
      .http()
      .get(TRAFFIC_ROUTES.subscriptionTraffic(other.uuid, bought.subscriptionId))
      .set('Cookie', other.cookie)
      .expect(404);
    await t
      .http()
      .get(TRAFFIC_ROUTES.subscriptionTraffic(client.uuid, bought.subscriptionId))
      .set('Cookie', other.cookie)
      .expect(403);
    await t
      .http()
      .get(TRAFFIC_ROUTES.serverTraffic(b.operator.uuid, a.id))
      .set('Authorization', `Bearer ${b.operator.token}`)
      .expect(404);
    await t.http().get(TRAFFIC_ROUTES.serverTraffic(a.operator.uuid, a.id)).expect(401);
    const refused = await t
      .http()
      .get(TRAFFIC_ROUTES.subscriptionTraffic(client.uuid, bought.subscriptionId, 91))
      .set('Cookie', client.cookie)
      .expect(400);
    expect(JSON.stringify(refused.body)).toContain(TRAFFIC_MESSAGES.daysInvalid);
    // Only byte counts are stored: no destination or address column exists.
    const columns = await t.db.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_name = 'subscription_traffic_days' ORDER BY 1`,
    );
    expect(columns.map((c) => c.column_name)).toEqual([
      'day',
      'download_bytes',
      'server_id',
      'subscription_id',
      'upload_bytes',
    ]);
  });

  it('should count a batch sent again after a lost answer once, in the views and the feed header', async () => {
    const node = await enrolledNode();
    const client = await registerAccount(t, { userType: 'client' });
    const bought = subscriptionCreationResponseSchema.parse(
      (await buy(t, client, [node.id]).expect(200)).body,
    );
    const vless = bought.subscription.uuid;
    const feedPath = new URL(bought.subscription.subscriptionUrl).pathname;
    const batch = (uptime: number, trafficBatchId: string, up: number, down: number) => ({
      ...trafficReport(uptime, [
        { clientUuid: vless, uplinkBytes: String(up), downlinkBytes: String(down) },
      ]),
      trafficBatchId,
    });
    now = new Date(now.getTime() + MIN);
    const first = randomUUID();
    await report(grpcClient, node.metadata, batch(61, first, 300, 4000));
    // The answer was lost: the agent sends the same batch again, which is answered accepted.
    now = new Date(now.getTime() + MIN);
    expect((await report(grpcClient, node.metadata, batch(121, first, 300, 4000))).accepted).toBe(
      true,
    );
    // The next batch adds; an agent from before batch ids (empty) adds every report.
    await report(grpcClient, node.metadata, batch(181, randomUUID(), 20, 100));
    await report(grpcClient, node.metadata, batch(241, '', 1, 1));
    await report(grpcClient, node.metadata, batch(301, '', 1, 1));
    // A batch id that is not a UUID is refused and changes nothing.
    expect(await statusOf(report(grpcClient, node.metadata, batch(361, 'batch-1', 5, 5)))).toBe(
      grpc.status.INVALID_ARGUMENT,
    );

    const view = subscriptionTrafficResponseSchema.parse(
      (
        await t
          .http()
          .get(TRAFFIC_ROUTES.subscriptionTraffic(client.uuid, bought.subscriptionId, 7))
          .set('Cookie', client.cookie)
          .expect(200)
      ).body,
    );
    expect(view.total).toEqual({ uploadBytes: '322', downloadBytes: '4102' });
    const header = (await t.http().get(feedPath).expect(200)).headers['subscription-userinfo'];
    expect(userinfo(header)).toMatchObject({ upload: '322', download: '4102' });
  });
});
