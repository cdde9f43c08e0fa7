import { randomUUID } from 'node:crypto';
import { repositoryDatabase } from '../../test/support/server-rows';
import { ReliabilityHistoryRepository } from './reliability-history.repository';
import {
  HISTORY_MAX_SPAN_MS,
  HISTORY_RETENTION_DAYS,
  ReliabilityHistoryService,
  retentionCutoff,
} from './reliability-history.service';

const S = 1000;
const MIN = 60 * S;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-11-10T00:00:00Z');
const at = (ms: number) => new Date(T0 + ms);

// A database of its own: the history sweep reads every server.
const t = repositoryDatabase();
let repository: ReliabilityHistoryRepository;
beforeAll(() => {
  repository = new ReliabilityHistoryRepository(t.dataSource);
});
beforeEach(async () => {
  await t.db.query('DELETE FROM server_reliability_days');
  await t.db.query('DELETE FROM server_history_cursors');
  await t.db.query('DELETE FROM servers');
});

async function insertServer(
  options: {
    createdAt?: Date;
    reliability?: number;
    lastReportAt?: Date | null;
    bannedAt?: Date | null;
    tier?: string;
    id?: string;
  } = {},
): Promise<{ id: string; owner: string }> {
  const owner = randomUUID();
  await t.db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = options.id ?? randomUUID();
  await t.db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, host, port, inbound,
                          reliability_at_report, last_report_at, banned_at, created_at)
     VALUES ($1, $2, 'n', 'agent', $3, 'h.example', 443, '{"security":"tls"}', $4, $5, $6, $7)`,
    [
      id,
      owner,
      options.tier ?? 'tier1',
      options.reliability ?? 100,
      options.lastReportAt === undefined ? at(0) : options.lastReportAt,
      options.bannedAt ?? null,
      options.createdAt ?? at(0),
    ],
  );
  return { id, owner };
}

interface DayRow {
  server_id: string;
  day: string;
  owner_uuid: string;
  tier: string;
  observed_seconds: number;
  reliability_seconds: string;
  below_seconds: number;
  stale_seconds: number;
  failed_reports: number;
  malformed_reports: number;
  min_reliability: number;
}

/** The history as readers see it: the day rows and the days pending in the cursors, summed. */
function dayRows(serverId?: string): Promise<DayRow[]> {
  return t.db.query<DayRow>(
    `SELECT server_id, to_char(day, 'YYYY-MM-DD') AS day, max(owner_uuid::text) AS owner_uuid,
            max(tier) AS tier, sum(observed_seconds)::int AS observed_seconds,
            sum(reliability_seconds)::text AS reliability_seconds,
            sum(below_seconds)::int AS below_seconds, sum(stale_seconds)::int AS stale_seconds,
            sum(failed_reports)::int AS failed_reports,
            sum(malformed_reports)::int AS malformed_reports,
            min(min_reliability) AS min_reliability
     FROM (SELECT server_id, day, owner_uuid, tier, observed_seconds, reliability_seconds,
                  below_seconds, stale_seconds, failed_reports, malformed_reports, min_reliability
           FROM server_reliability_days
           UNION ALL
           SELECT server_id, pending_day, owner_uuid, tier, pending_observed_seconds,
                  pending_reliability_seconds, pending_below_seconds, pending_stale_seconds, 0, 0,
                  pending_min_reliability
           FROM server_history_cursors WHERE pending_day IS NOT NULL) AS d
     WHERE $1::uuid IS NULL OR server_id = $1
     GROUP BY server_id, day ORDER BY server_id, day`,
    [serverId ?? null],
  );
}

/** The days written to server_reliability_days itself (not pending in a cursor). */
async function storedDays(serverId: string): Promise<string[]> {
  const rows = await t.db.query<{ day: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day FROM server_reliability_days
     WHERE server_id = $1 ORDER BY day`,
    [serverId],
  );
  return rows.map((row) => row.day);
}

async function pendingDayOf(serverId: string): Promise<string | null> {
  const [row] = await t.db.query<{ day: string | null }>(
    `SELECT to_char(pending_day, 'YYYY-MM-DD') AS day FROM server_history_cursors
     WHERE server_id = $1`,
    [serverId],
  );
  return row?.day ?? null;
}

async function cursorOf(serverId: string): Promise<Date | null> {
  const [row] = await t.db.query<{ history_until: Date }>(
    'SELECT history_until FROM server_history_cursors WHERE server_id = $1',
    [serverId],
  );
  return row?.history_until ?? null;
}

const totalObserved = async (serverId?: string) =>
  (await dayRows(serverId)).reduce((sum, row) => sum + row.observed_seconds, 0);

describe('ReliabilityHistoryService.writeUntil', () => {
  it('should write each server from its creation to now per UTC day, then accumulate from where it stopped', async () => {
    const fresh = await insertServer({ createdAt: at(-30 * MIN), lastReportAt: at(-30 * MIN) });
    const silent = await insertServer({ createdAt: at(-3 * HOUR), lastReportAt: at(-3 * HOUR) });
    const service = new ReliabilityHistoryService(repository);

    expect(await service.writeUntil(at(30 * MIN + 400))).toBe(2);
    // Rounded down to the second.
    expect(await cursorOf(fresh.id)).toEqual(at(30 * MIN));
    expect(await dayRows(fresh.id)).toEqual([
      expect.objectContaining({
        day: '2026-11-09',
        observed_seconds: 1800,
        reliability_seconds: String(1800 * 100),
        min_reliability: 100,
        owner_uuid: fresh.owner,
        tier: 'tier1',
      }),
      expect.objectContaining({
        day: '2026-11-10',
        observed_seconds: 1800,
        // The report is exactly an hour old at 00:30:00, the interval's (excluded) end: all fresh.
        reliability_seconds: String(1800 * 100),
        stale_seconds: 0,
      }),
    ]);
    // Reported three hours before T0: 100 for the first hour, then 95, then 90 (below 95) until
    // T0, then 85 (age 3 h to 4 h).
    expect(await dayRows(silent.id)).toEqual([
      expect.objectContaining({
        day: '2026-11-09',
        observed_seconds: 3 * 3600,
        reliability_seconds: String(3601 * 100 + 3599 * 95 + 3600 * 90),
        below_seconds: 3600,
        stale_seconds: 2 * 3600 - 1,
        min_reliability: 90,
      }),
      expect.objectContaining({
        day: '2026-11-10',
        observed_seconds: 1800,
        reliability_seconds: String(1800 * 85),
        below_seconds: 1800,
        stale_seconds: 1800,
        min_reliability: 85,
      }),
    ]);

    // The next minute adds a minute to today's row, nothing more.
    expect(await service.writeUntil(at(31 * MIN))).toBe(2);
    const [, today] = await dayRows(silent.id);
    expect(today).toMatchObject({
      observed_seconds: 1860,
      reliability_seconds: String(1860 * 85),
      stale_seconds: 1860,
    });
    // The same instant again: nothing to write.
    expect(await service.writeUntil(at(31 * MIN))).toBe(0);
    expect(await totalObserved(silent.id)).toBe(3 * 3600 + 1860);
  });

  it('should count every interval once when two sweeps run at the same time', async () => {
    const servers = [];
    for (let i = 0; i < 40; i += 1) {
      servers.push(
        await insertServer({ createdAt: at(-2 * HOUR), lastReportAt: at(-i * 7 * MIN) }),
      );
    }
    const a = new ReliabilityHistoryService(repository);
    const b = new ReliabilityHistoryService(new ReliabilityHistoryRepository(t.dataSource));
    // Small pages: the two interleave page by page on separate connections.
    const [movedA, movedB] = await Promise.all([
      a.writeUntil(at(HOUR), 7),
      b.writeUntil(at(HOUR), 5),
    ]);
    expect(movedA + movedB).toBe(servers.length);
    for (const { id } of servers) expect(await totalObserved(id)).toBe(3 * 3600);

    // Racing again with different clocks: a server is moved by one of them, or by the earlier
    // and then the later; either way its observed time is exactly up to its cursor.
    const [againA, againB] = await Promise.all([
      a.writeUntil(at(2 * HOUR), 3),
      b.writeUntil(at(2 * HOUR + 30 * MIN), 4),
    ]);
    expect(againA + againB).toBeGreaterThanOrEqual(servers.length);
    for (const { id } of servers) {
      const until = (await cursorOf(id))!.getTime();
      expect([at(2 * HOUR).getTime(), at(2 * HOUR + 30 * MIN).getTime()]).toContain(until);
      expect(await totalObserved(id)).toBe((until - at(-2 * HOUR).getTime()) / S);
    }
  });

  it('should write nothing for a server whose cursor moved since it was read', async () => {
    const server = await insertServer({ createdAt: at(-HOUR) });
    const service = new ReliabilityHistoryService(repository);
    await service.writeUntil(at(0));
    const days = {
      day: '2026-11-10',
      observedSeconds: 60,
      reliabilitySeconds: 6000,
      belowSeconds: 0,
      staleSeconds: 0,
      minReliability: 100,
    };
    const stale = {
      serverId: server.id,
      ownerUuid: server.owner,
      tier: 'tier1',
      flush: [],
      pending: { ...days, observedSeconds: 3660, reliabilitySeconds: 366_000 },
      until: at(MIN),
    };
    // Read before the first write (no cursor), or at an instant it has moved past.
    expect(await repository.advance([{ ...stale, readUntil: null }])).toBe(0);
    expect(await repository.advance([{ ...stale, readUntil: at(-HOUR) }])).toBe(0);
    expect(await totalObserved(server.id)).toBe(3600);
    expect(await cursorOf(server.id)).toEqual(at(0));
    // At the cursor as it is: written.
    expect(await repository.advance([{ ...stale, readUntil: at(0) }])).toBe(1);
    expect(await totalObserved(server.id)).toBe(3660);
  });

  it('should lose nothing and count nothing twice when a run fails between pages', async () => {
    const servers = [];
    for (let i = 0; i < 9; i += 1) servers.push(await insertServer({ createdAt: at(-HOUR) }));
    const failing = new ReliabilityHistoryRepository(t.dataSource);
    const advance = failing.advance.bind(failing);
    let pages = 0;
    jest.spyOn(failing, 'advance').mockImplementation((advances) => {
      pages += 1;
      if (pages === 2) return Promise.reject(new Error('connection lost'));
      return advance(advances);
    });
    await expect(new ReliabilityHistoryService(failing).writeUntil(at(0), 4)).rejects.toThrow(
      'connection lost',
    );
    const written = (await Promise.all(servers.map(({ id }) => cursorOf(id)))).filter(Boolean);
    expect(written).toHaveLength(4);

    // The next run, a minute later, writes the rest from their creation and the first page on.
    expect(await new ReliabilityHistoryService(repository).writeUntil(at(MIN), 4)).toBe(9);
    for (const { id } of servers) {
      expect(await cursorOf(id)).toEqual(at(MIN));
      expect(await totalObserved(id)).toBe(3660);
    }
  });

  it('should stop a banned server at its ban, with its last day in the day rows, and then leave it out', async () => {
    const banned = await insertServer({ createdAt: at(-HOUR), bannedAt: at(-20 * MIN + 500) });
    const service = new ReliabilityHistoryService(repository);
    expect(await service.writeUntil(at(0))).toBe(1);
    expect(await cursorOf(banned.id)).toEqual(at(-20 * MIN));
    expect(await totalObserved(banned.id)).toBe(40 * 60);
    expect(await storedDays(banned.id)).toEqual(['2026-11-09']);
    expect(await pendingDayOf(banned.id)).toBeNull();
    expect(await repository.listServersForHistory(null, 10)).toEqual([]);
    expect(await service.writeUntil(at(HOUR))).toBe(0);
    expect(await totalObserved(banned.id)).toBe(40 * 60);
  });

  it('should move the pending day to the day rows when the server is banned after it was written', async () => {
    const server = await insertServer({ createdAt: at(-HOUR) });
    const service = new ReliabilityHistoryService(repository);
    await service.writeUntil(at(30 * MIN));
    expect(await pendingDayOf(server.id)).toBe('2026-11-10');
    // Banned by the lifecycle at the instant the history was written up to.
    await t.db.query('UPDATE servers SET banned_at = $2 WHERE id = $1', [server.id, at(30 * MIN)]);
    expect(await service.writeUntil(at(31 * MIN))).toBe(1);
    expect(await pendingDayOf(server.id)).toBeNull();
    expect(await storedDays(server.id)).toEqual(['2026-11-09', '2026-11-10']);
    expect(await totalObserved(server.id)).toBe(90 * 60);
    expect(await repository.listServersForHistory(null, 10)).toEqual([]);
  });

  it('should keep the day going in the cursor and write it to the day rows once it is over', async () => {
    const server = await insertServer({ createdAt: at(-10 * MIN), lastReportAt: at(-10 * MIN) });
    const service = new ReliabilityHistoryService(repository);
    await service.writeUntil(at(-5 * MIN));
    // Yesterday still going: nothing in the day rows yet, all in the cursor.
    expect(await storedDays(server.id)).toEqual([]);
    expect(await pendingDayOf(server.id)).toBe('2026-11-09');
    await service.writeUntil(at(-MIN));
    expect(await storedDays(server.id)).toEqual([]);
    // Past midnight: yesterday is over and written once, today goes on in the cursor.
    await service.writeUntil(at(2 * MIN));
    expect(await storedDays(server.id)).toEqual(['2026-11-09']);
    expect(await pendingDayOf(server.id)).toBe('2026-11-10');
    const [yesterday] = await t.db.query<{ observed_seconds: number }>(
      'SELECT observed_seconds FROM server_reliability_days WHERE server_id = $1',
      [server.id],
    );
    expect(yesterday!.observed_seconds).toBe(600);
    expect((await dayRows(server.id)).map((d) => [d.day, d.observed_seconds])).toEqual([
      ['2026-11-09', 600],
      ['2026-11-10', 120],
    ]);
  });

  it('should write a long gap a month per run, and not before the retention', async () => {
    const old = await insertServer({ createdAt: at(-(HISTORY_RETENTION_DAYS + 50) * DAY) });
    const service = new ReliabilityHistoryService(repository);
    await service.writeUntil(at(0));
    const keptFrom = Date.parse(retentionCutoff(at(0)));
    expect((await cursorOf(old.id))!.getTime()).toBe(keptFrom + HISTORY_MAX_SPAN_MS);
    const rows = await dayRows(old.id);
    expect(rows[0]!.day).toBe(retentionCutoff(at(0)));
    expect(rows).toHaveLength(HISTORY_MAX_SPAN_MS / DAY);
    expect(rows.every((row) => row.observed_seconds === 86_400)).toBe(true);
  });

  it('should leave the servers rows (and their row version) alone', async () => {
    const server = await insertServer({ createdAt: at(-HOUR) });
    const version = async () =>
      (
        await t.db.query<{ v: string }>('SELECT xmin::text AS v FROM servers WHERE id = $1', [
          server.id,
        ])
      )[0]!.v;
    const before = await version();
    await new ReliabilityHistoryService(repository).writeUntil(at(0));
    await new ReliabilityHistoryService(repository).writeUntil(at(MIN));
    // Agent reports are written against the row version (AgentReportRepository): a sweep that
    // touched it would make each server's next report miss.
    expect(await version()).toBe(before);
  });

  it('should keep the days of a deleted server, its last one moved from the cursor by the next run', async () => {
    const server = await insertServer({ createdAt: at(-HOUR) });
    const service = new ReliabilityHistoryService(repository);
    await service.writeUntil(at(30 * MIN));
    await t.db.query('DELETE FROM servers WHERE id = $1', [server.id]);
    // Until the next run the pending day is still read from the cursor.
    expect(await totalObserved(server.id)).toBe(90 * 60);
    await service.writeUntil(at(31 * MIN));
    expect(await cursorOf(server.id)).toBeNull();
    expect(await storedDays(server.id)).toEqual(['2026-11-09', '2026-11-10']);
    expect(await totalObserved(server.id)).toBe(90 * 60);
    expect((await dayRows(server.id))[1]).toMatchObject({
      owner_uuid: server.owner,
      tier: 'tier1',
    });
  });
});

describe('ReliabilityHistoryService.prune', () => {
  it('should delete the days before the retention once a day and keep the rest', async () => {
    const server = await insertServer();
    const now = at(0);
    const cutoff = retentionCutoff(now);
    expect(cutoff).toBe(
      new Date(T0 - (HISTORY_RETENTION_DAYS - 1) * DAY).toISOString().slice(0, 10),
    );
    const dayBefore = new Date(Date.parse(cutoff) - DAY).toISOString().slice(0, 10);
    for (const day of [dayBefore, cutoff, '2026-11-10', '2020-01-01']) {
      await t.db.query(
        `INSERT INTO server_reliability_days (server_id, day, owner_uuid, observed_seconds)
         VALUES ($1, $2, $3, 86400)`,
        [server.id, day, server.owner],
      );
    }
    const service = new ReliabilityHistoryService(repository);
    expect(await service.prune(now)).toBe(2);
    expect((await dayRows()).map((row) => row.day)).toEqual([cutoff, '2026-11-10']);
    // Once a day: a later minute of the same day does not scan again.
    const prune = jest.spyOn(repository, 'pruneBefore');
    expect(await service.prune(at(23 * HOUR))).toBe(0);
    expect(prune).not.toHaveBeenCalled();
    prune.mockRestore();
    // The next day moves the cutoff on: the former first day goes.
    expect(await service.prune(at(DAY))).toBe(1);
    expect((await dayRows()).map((row) => row.day)).toEqual(['2026-11-10']);
  });
});

describe('ReliabilityHistoryRepository.periodFacts', () => {
  it('should sum each server over the period with the latest day’s owner and tier, deleted servers included', async () => {
    const a = await insertServer({ tier: 'tier1' });
    const b = await insertServer({ tier: 'tier2' });
    const insert = (id: string, owner: string, day: string, tier: string, observed: number) =>
      t.db.query(
        `INSERT INTO server_reliability_days (server_id, day, owner_uuid, tier, observed_seconds,
           reliability_seconds, below_seconds) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [id, day, owner, tier, observed, observed * 99, observed / 2],
      );
    await insert(a.id, a.owner, '2026-10-31', 'tier1', 86_400); // before the period
    await insert(a.id, a.owner, '2026-11-01', 'tier1', 86_400);
    await insert(a.id, a.owner, '2026-11-02', 'tier3', 3_600); // upgraded: the latest tier
    await insert(b.id, b.owner, '2026-11-30', 'tier2', 86_400);
    await insert(b.id, b.owner, '2026-12-01', 'tier2', 86_400); // after
    await t.db.query('DELETE FROM servers WHERE id = $1', [b.id]);

    const facts = await repository.periodFacts(
      new Date('2026-11-01T00:00:00Z'),
      new Date('2026-12-01T00:00:00Z'),
    );
    const byServer = new Map(facts.map((f) => [f.serverId, f]));
    expect(facts).toHaveLength(2);
    expect([byServer.get(a.id), byServer.get(b.id)]).toEqual([
      {
        serverId: a.id,
        ownerUuid: a.owner,
        tier: 'tier3',
        observedSeconds: 90_000,
        reliabilitySeconds: 90_000n * 99n,
        belowSeconds: 45_000,
      },
      {
        serverId: b.id,
        ownerUuid: b.owner,
        tier: 'tier2',
        observedSeconds: 86_400,
        reliabilitySeconds: 86_400n * 99n,
        belowSeconds: 43_200,
      },
    ]);
    expect(
      await repository.serverPeriodFacts(
        b.id,
        new Date('2026-11-01T00:00:00Z'),
        new Date('2026-12-01T00:00:00Z'),
      ),
    ).toEqual(byServer.get(b.id));
    expect(
      await repository.serverPeriodFacts(
        a.id,
        new Date('2026-12-01T00:00:00Z'),
        new Date('2027-01-01T00:00:00Z'),
      ),
    ).toBeNull();
  });
});
