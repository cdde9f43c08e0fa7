import type { AgentServiceClient } from '@scn/proto';
import { RELIABILITY_HISTORY_MESSAGES, RELIABILITY_ROUTES } from '@scn/proto';
import { ReliabilitySweepJob } from '../../src/agent-reports/reliability-sweep.job';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { agentClient, agentReport, report } from '../support/agent-client';
import { enrolledNode as enrollNode } from '../support/enrolled-node';
import { startTestApp, type TestApp } from '../support/test-app';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

// A UTC midnight at least four hours from now; the test clock starts 3 h 30 s before it, on a
// whole second, after the real time (the server rows' created_at is the database's clock), and
// only moves when a test moves it.
const midnight = Math.ceil((Date.now() + 4 * HOUR) / DAY) * DAY;
let now = new Date(midnight - 3 * HOUR - 30 * S);
const clock = { now: () => now };
const setNow = (ms: number) => (now = new Date(ms));

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

const sweep = () => t.app.get(ReliabilitySweepJob).runOnce();
const enrolledNode = () => enrollNode(t, client);

function reliabilityOf(
  operator: { uuid: string; token: string },
  serverId: string,
  query: string = '',
) {
  return t
    .http()
    .get(`${RELIABILITY_ROUTES.serverReliability(operator.uuid, serverId)}${query}`)
    .set('Authorization', `Bearer ${operator.token}`);
}

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const average = (reliabilitySeconds: number, seconds: number) =>
  Math.round((reliabilitySeconds * 10) / seconds) / 10;

describe('GET /api/nodes/{uuid}/servers/{serverId}/reliability', () => {
  it('should answer the days the sweep wrote across a midnight, with the stale hours and the failed client count that dropped them', async () => {
    const node = await enrolledNode();
    const [row] = await t.db.query<{ created_at: Date }>(
      'SELECT created_at FROM servers WHERE id = $1',
      [node.id],
    );
    const createdAt = row!.created_at;
    // The history starts at the row's creation; the node was enrolled at the test clock's time,
    // later: its state (reported at enrollment, at 100) gives 100 for the time in between.
    const start = Math.floor(createdAt.getTime() / S) * S;
    expect(await sweep()).not.toBeNull();

    setNow(midnight - 3 * HOUR);
    await report(client, node.metadata, agentReport(1));
    await sweep();
    // Silent for four hours, the sweep running meanwhile (as it does every minute).
    setNow(midnight - HOUR);
    await sweep();
    setNow(midnight + HOUR);
    await sweep();
    // Back: its client count fails (80 at a 4-hour-old report, -10), then a good report (+2).
    await report(client, node.metadata, agentReport(2, { clientCountFailed: true }));
    setNow(midnight + HOUR + MIN);
    await sweep();
    await report(client, node.metadata, agentReport(3));
    setNow(midnight + 2 * HOUR);
    await sweep();

    const res = await reliabilityOf(node.operator, node.id).expect(200);
    expect(res.body).toMatchObject({
      success: true,
      serverId: node.id,
      from: dayOf(midnight - 29 * DAY),
      to: dayOf(midnight),
      threshold: 95,
    });
    const days = res.body.days as Array<Record<string, unknown>>;
    // The day before midnight: at 100 from its enrollment (or the day's start) to 21:00, then
    // the report ages: 100 up to an hour old, 95 to two hours, 90 to three.
    const dayStart = Math.max(start, midnight - DAY);
    const fresh = (midnight - 3 * HOUR - dayStart) / S;
    const beforeSeconds = fresh + 3 * 3600;
    const beforeSum = fresh * 100 + 3601 * 100 + 3599 * 95 + 3600 * 90;
    // After midnight: 85 (three to four hours old), 70 for the minute after the failed count,
    // then 72 once the good report came.
    const afterSum = 3600 * 85 + 60 * 70 + 3540 * 72;
    expect(days.slice(-2)).toEqual([
      {
        date: dayOf(midnight - DAY),
        observedSeconds: beforeSeconds,
        averageReliability: average(beforeSum, beforeSeconds),
        minReliability: 90,
        belowSeconds: 3600,
        reasons: { staleSeconds: 2 * 3600 - 1, failedClientCounts: 0, malformedReports: 0 },
      },
      {
        date: dayOf(midnight),
        observedSeconds: 7200,
        averageReliability: 78.5,
        minReliability: 70,
        belowSeconds: 7200,
        reasons: { staleSeconds: 3600, failedClientCounts: 1, malformedReports: 0 },
      },
    ]);
    expect(average(afterSum, 7200)).toBe(78.5);
    // Everything before was at 100.
    const earlier = days.slice(0, -2);
    expect(earlier.every((d) => d.averageReliability === 100 && d.minReliability === 100)).toBe(
      true,
    );
    const observed = days.reduce((sum, d) => sum + (d.observedSeconds as number), 0);
    expect(observed).toBe((midnight + 2 * HOUR - start) / S);

    // The last day only.
    const one = await reliabilityOf(node.operator, node.id, '?days=1').expect(200);
    expect(one.body.days).toEqual(days.slice(-1));
  });

  it("should refuse another operator's server as not found and another account's path as forbidden", async () => {
    const mine = await enrolledNode();
    const theirs = await enrolledNode();
    const res = await reliabilityOf(mine.operator, theirs.id).expect(404);
    expect(res.body.message).toBe('Server not found');
    await reliabilityOf(mine.operator, 'not-a-uuid').expect(404);
    await t
      .http()
      .get(RELIABILITY_ROUTES.serverReliability(theirs.operator.uuid, theirs.id))
      .set('Authorization', `Bearer ${mine.operator.token}`)
      .expect(403);
    await t
      .http()
      .get(RELIABILITY_ROUTES.serverReliability(mine.operator.uuid, mine.id))
      .expect(401);
    // Its own: an empty history until the sweep writes one.
    const own = await reliabilityOf(mine.operator, mine.id).expect(200);
    expect(own.body.days).toEqual([]);
  });

  it.each(['0', '91', 'abc', '1.5', '-3', ''])(
    'should refuse days=%j with 400 and the range',
    async (days) => {
      const node = await enrolledNode();
      const res = await reliabilityOf(node.operator, node.id, `?days=${days}`).expect(400);
      expect(res.body.message).toBe(RELIABILITY_HISTORY_MESSAGES.daysInvalid);
    },
  );
});
