import type { TrafficRepository } from '../traffic/traffic.repository';
import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import type { MarketRefresh } from '../market/market-refresh';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import type { ReliabilityState } from '../reliability/reliability';
import type { ReliabilityHistoryService } from '../reliability-history/reliability-history.service';
import { ReliabilitySweepService } from './reliability-sweep.service';
import { ReliabilitySweepRepository } from '../nodes/reliability-sweep.repository';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const now = new Date('2026-11-10T12:00:00.000Z');
const ago = (ms: number) => new Date(now.getTime() - ms);

// A database of its own: the sweep reads every server, so no other file's rows may be there.
let db: TestDatabase;
let dataSource: DataSource;
let owner: string;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
  owner = randomUUID();
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function insertServer(
  state: Partial<Omit<ReliabilityState, 'lastCreditedAt'>>,
): Promise<string> {
  const id = randomUUID();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, host, port, inbound, hardware,
                          reliability_at_report, last_report_at, below_threshold_since, banned_at)
     VALUES ($1, $2, 'n', 'agent', 'tier1', 'h.example', 443, '{"security":"tls"}', '{"cpuCores":2}',
             $3, $4, $5, $6)`,
    [
      id,
      owner,
      state.reliabilityAtReport ?? 100,
      state.lastReportAt === undefined ? now : state.lastReportAt,
      state.belowThresholdSince ?? null,
      state.bannedAt ?? null,
    ],
  );
  return id;
}

async function rows(): Promise<Map<string, Record<string, unknown>>> {
  const all = await db.query<Record<string, unknown>>('SELECT * FROM servers');
  return new Map(all.map((row) => [row.id as string, row]));
}

describe('ReliabilitySweepService.sweep', () => {
  it('should ban, start and clear recovery windows across pages and leave every other server untouched', async () => {
    // Left alone by the candidate query: reported within the hour at 95 or more, or banned.
    const untouched = [
      await insertServer({ lastReportAt: ago(10 * MIN) }),
      await insertServer({ reliabilityAtReport: 96, lastReportAt: ago(MIN) }),
      await insertServer({ reliabilityAtReport: 95, lastReportAt: ago(40 * MIN) }),
      await insertServer({
        reliabilityAtReport: 0,
        lastReportAt: ago(3 * DAY),
        belowThresholdSince: ago(15 * DAY),
        bannedAt: ago(DAY),
      }),
      // Candidates the rules leave as they are.
      await insertServer({
        reliabilityAtReport: 90,
        lastReportAt: ago(5 * MIN),
        belowThresholdSince: ago(13 * DAY),
      }),
      await insertServer({ lastReportAt: ago(70 * MIN) }), // 100 - 5 = 95: still shown
      await insertServer({ lastReportAt: ago(58 * MIN) }), // within the margin: read, not changed
    ];
    // docs/product/states.md#subscription-and-reliability-states: under 95 starts the 14 days (at the hour staleness took it under), back at 95
    // or more clears them, 14 days under bans.
    const expected = new Map<
      string,
      { below_threshold_since: Date | null; banned_at: Date | null }
    >([
      [
        await insertServer({ lastReportAt: ago(3 * HOUR) }),
        { below_threshold_since: ago(HOUR), banned_at: null },
      ],
      [
        await insertServer({ reliabilityAtReport: 90, lastReportAt: ago(5 * MIN) }),
        { below_threshold_since: ago(5 * MIN), banned_at: null },
      ],
      [await insertServer({ lastReportAt: null }), { below_threshold_since: now, banned_at: null }],
      [
        await insertServer({
          reliabilityAtReport: 97,
          lastReportAt: ago(5 * MIN),
          belowThresholdSince: ago(2 * DAY),
        }),
        { below_threshold_since: null, banned_at: null },
      ],
      [
        await insertServer({
          reliabilityAtReport: 90,
          lastReportAt: ago(5 * MIN),
          belowThresholdSince: ago(15 * DAY),
        }),
        { below_threshold_since: ago(15 * DAY), banned_at: now },
      ],
      [
        await insertServer({ lastReportAt: ago(100 * HOUR), belowThresholdSince: ago(20 * DAY) }),
        { below_threshold_since: ago(20 * DAY), banned_at: now },
      ],
    ]);
    const before = await rows();

    const repository = new ReliabilitySweepRepository(dataSource);
    const read = jest.spyOn(repository, 'listServersForSweep');
    const write = jest.spyOn(repository, 'settleServers');
    const realtime = { serverListUpdated: jest.fn() };
    const service = new ReliabilitySweepService(
      repository,
      {} as MarketRefresh,
      realtime as unknown as RealtimeGateway,
      {} as ReliabilityHistoryService,
      { now: () => now },
      {} as TrafficRepository,
    );
    expect(await service.sweep(3)).toBe(expected.size);
    expect(realtime.serverListUpdated.mock.calls).toEqual([['availability']]);

    // 9 candidates, 3 a page: three full pages and an empty one; one write per page.
    expect(read.mock.calls.map(([, , limit]) => limit)).toEqual([3, 3, 3, 3]);
    expect(write).toHaveBeenCalledTimes(4);
    for (const [settlements] of write.mock.calls) expect(settlements.length).toBeLessThanOrEqual(3);
    expect(
      write.mock.calls.flatMap(([settlements]) => settlements.map((s) => s.id)).sort(),
    ).toEqual([...expected.keys()].sort());

    const after = await rows();
    expect(after.size).toBe(untouched.length + expected.size);
    for (const id of untouched) expect(after.get(id)).toEqual(before.get(id));
    for (const [id, lifecycle] of expected) {
      expect(after.get(id)).toEqual({
        ...before.get(id),
        ...lifecycle,
        updated_at: expect.any(Date),
      });
      expect(after.get(id)!.updated_at).not.toEqual(before.get(id)!.updated_at);
    }

    // Idempotent for its minute: nothing more to change, nothing to announce.
    expect(await service.sweep(3)).toBe(0);
    expect(realtime.serverListUpdated).toHaveBeenCalledTimes(1);
    expect(await rows()).toEqual(after);
  });
});
