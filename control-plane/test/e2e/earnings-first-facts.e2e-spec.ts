import { earningsResponseSchema, REWARDS_ROUTES } from '@scn/proto';
import { AgentGrpcServer } from '../../src/grpc/agent-grpc.server';
import { agentClient } from '../support/agent-client';
import { enrolledNode } from '../support/enrolled-node';
import { insertHistory } from '../support/reward-fixtures';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * An operator who enrolls a server and opens Earnings at once sees it, before the history sweep
 * (once a minute) has written any of its facts: zero figures and a note that its first facts are
 * on the way (docs/api.md, "Monthly statements").
 */
let t: TestApp;
let grpcClient: ReturnType<typeof agentClient>;

beforeAll(async () => {
  t = await startTestApp();
  grpcClient = agentClient(t.app.get(AgentGrpcServer).port);
});
afterAll(async () => {
  grpcClient.close();
  await t.close();
});

describe('the earnings of a server enrolled a moment ago', () => {
  it('should list it with zero figures and firstFactsPending until its facts are written', async () => {
    const { operator, id } = await enrolledNode(t, grpcClient);
    const facts = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM server_reliability_days WHERE server_id = $1',
      [id],
    );
    expect(facts[0]!.n).toBe(0);

    const res = await t
      .http()
      .get(REWARDS_ROUTES.earnings(operator.uuid))
      .set('Cookie', operator.cookie)
      .expect(200);
    const { earnings } = earningsResponseSchema.parse(res.body);
    expect(earnings.kind).toBe('dry_run');
    expect(earnings.servers).toEqual([
      expect.objectContaining({
        serverId: id,
        serverName: expect.any(String),
        tier: 'tier2',
        serverState: 'active',
        status: 'dry_run',
        firstFactsPending: true,
        lines: [],
        incomeMicro: '0',
        walletMicro: '0',
        autoStakedMicro: '0',
        escrowedMicro: '0',
      }),
    ]);
    expect(earnings.totals.incomeMicro).toBe('0');

    // Once the sweep has written a day of it, the statement is the formula's, line by line.
    const today = new Date().toISOString().slice(0, 10);
    await insertHistory(t.db, {
      serverId: id,
      ownerUuid: operator.uuid,
      tier: 'tier2',
      from: today,
      to: today,
    });
    const after = earningsResponseSchema.parse(
      (
        await t
          .http()
          .get(REWARDS_ROUTES.earnings(operator.uuid))
          .set('Cookie', operator.cookie)
          .expect(200)
      ).body,
    ).earnings;
    expect(after.servers).toHaveLength(1);
    expect(after.servers[0]).toMatchObject({ serverId: id, firstFactsPending: false });
    expect(after.servers[0]!.lines.length).toBeGreaterThan(0);
  });

  it('should not list a server in a month that ended before it was enrolled', async () => {
    const { operator } = await enrolledNode(t, grpcClient);
    const lastMonth = new Date();
    lastMonth.setUTCDate(1);
    lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
    const period = lastMonth.toISOString().slice(0, 7);
    const res = await t
      .http()
      .get(REWARDS_ROUTES.earnings(operator.uuid, period))
      .set('Cookie', operator.cookie)
      .expect(200);
    expect(earningsResponseSchema.parse(res.body).earnings.servers).toEqual([]);
  });
});
