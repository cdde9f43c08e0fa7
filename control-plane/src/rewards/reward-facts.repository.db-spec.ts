import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import { RewardFactsRepository } from './reward-facts.repository';

const t = repositoryDatabase();

describe('RewardFactsRepository.serverFacts', () => {
  it("should sum a period's finished days and the day still pending in the history cursor", async () => {
    const server = await insertAgentServer(t.db);
    const [{ owner_uuid: owner } = { owner_uuid: '' }] = await t.db.query<{ owner_uuid: string }>(
      'SELECT owner_uuid FROM servers WHERE id = $1',
      [server],
    );
    // A finished day (100% all day), and today's first six hours at 90% still in the cursor.
    await t.db.query(
      `INSERT INTO server_reliability_days
         (server_id, day, owner_uuid, tier, observed_seconds, reliability_seconds, below_seconds)
       VALUES ($1, '2026-11-01', $2, 'tier1', 86400, 8640000, 0)`,
      [server, owner],
    );
    await t.db.query(
      `INSERT INTO server_history_cursors
         (server_id, history_until, owner_uuid, tier, pending_day, pending_observed_seconds,
          pending_reliability_seconds, pending_below_seconds)
       VALUES ($1, '2026-11-02T06:00:00Z', $2, 'tier1', '2026-11-02', 21600, 1944000, 21600)`,
      [server, owner],
    );
    const facts = await new RewardFactsRepository(t.dataSource).serverFacts(
      {
        startDay: '2026-11-01',
        endDay: '2026-12-01',
        start: new Date('2026-11-01T00:00:00Z'),
        until: new Date('2026-11-02T06:00:00Z'),
      },
      null,
    );
    expect(facts).toEqual([
      expect.objectContaining({
        serverId: server,
        ownerUuid: owner,
        tier: 'tier1',
        observedSeconds: 86400 + 21600,
        reliabilitySeconds: 8640000n + 1944000n,
        belowSeconds: 21600,
      }),
    ]);
    // Outside the window, neither counts.
    const december = await new RewardFactsRepository(t.dataSource).serverFacts(
      {
        startDay: '2026-12-01',
        endDay: '2027-01-01',
        start: new Date('2026-12-01T00:00:00Z'),
        until: new Date('2027-01-01T00:00:00Z'),
      },
      owner,
    );
    expect(december).toEqual([]);
  });
});
