import { randomUUID } from 'node:crypto';
import { repositoryDatabase } from '../../test/support/server-rows';
import { type ReliabilityState, settleThreshold } from '../reliability/reliability';
import { ReliabilitySweepRepository, type SweepCandidate } from './reliability-sweep.repository';

const t = repositoryDatabase();

describe('ReliabilitySweepRepository', () => {
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;
  const now = new Date('2026-11-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  let owner: string;
  beforeAll(async () => {
    owner = randomUUID();
    await t.db.query(
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
      [owner, `${owner}@example.com`],
    );
  });

  type Row = Partial<Omit<ReliabilityState, 'lastCreditedAt'>>;
  /** Inserts servers in one statement; `lastReportAt` may be a SQL timestamp literal. */
  async function insertServers(rows: ReadonlyArray<Row & { lastReportText?: string }>) {
    const ids = rows.map(() => randomUUID());
    await t.db.query(
      `INSERT INTO servers (id, owner_uuid, name, source, inbound, hardware, reliability_at_report,
                            last_report_at, below_threshold_since, banned_at)
       SELECT v.id, $2, 'n', 'agent', '{"security":"tls"}', '{"cpuCores":2}', v.r, v.l, v.b, v.x
       FROM unnest($1::uuid[], $3::smallint[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[])
         AS v(id, r, l, b, x)`,
      [
        ids,
        owner,
        rows.map((r) => r.reliabilityAtReport ?? 100),
        rows.map((r) => r.lastReportText ?? (r.lastReportAt === undefined ? now : r.lastReportAt)),
        rows.map((r) => r.belowThresholdSince ?? null),
        rows.map((r) => r.bannedAt ?? null),
      ],
    );
    return ids;
  }

  async function candidatesAmong(ids: readonly string[]): Promise<Map<string, SweepCandidate>> {
    const mine = new Set(ids);
    const all = await new ReliabilitySweepRepository(t.dataSource).listServersForSweep(
      now,
      null,
      100_000,
    );
    return new Map(all.filter((c) => mine.has(c.id)).map((c) => [c.id, c]));
  }

  it('should return stale, below-threshold and never-reported servers but not a fresh healthy or a banned one', async () => {
    const [stale, staleInMargin, below, recovering, never, fresh, freshAt95, banned] =
      await insertServers([
        { lastReportAt: ago(2 * HOUR) },
        { lastReportAt: ago(HOUR - 2 * MIN) },
        { reliabilityAtReport: 94, lastReportAt: ago(MIN) },
        { belowThresholdSince: ago(DAY), lastReportAt: ago(MIN) },
        { lastReportAt: null },
        { lastReportAt: ago(10 * MIN) },
        { reliabilityAtReport: 95, lastReportAt: ago(MIN) },
        {
          reliabilityAtReport: 0,
          lastReportAt: ago(30 * DAY),
          belowThresholdSince: ago(20 * DAY),
          bannedAt: ago(6 * DAY),
        },
      ]);
    const found = await candidatesAmong([
      stale!,
      staleInMargin!,
      below!,
      recovering!,
      never!,
      fresh!,
      freshAt95!,
      banned!,
    ]);
    expect([...found.keys()].sort()).toEqual(
      [stale!, staleInMargin!, below!, recovering!, never!].sort(),
    );
    // Only what the lifecycle reads, not the whole row.
    expect(found.get(below!)).toEqual({
      id: below,
      version: expect.any(String),
      reliabilityAtReport: 94,
      lastReportAt: ago(MIN),
      lastCreditedAt: null,
      belowThresholdSince: null,
      bannedAt: null,
    });
  });

  it('should never leave out a server that settleThreshold would change, over a grid of states', async () => {
    const states: Row[] = [];
    for (const reliabilityAtReport of [0, 50, 94, 95, 96, 100])
      for (const age of [
        null,
        0,
        30 * MIN,
        55 * MIN,
        59 * MIN,
        HOUR,
        HOUR + 1,
        61 * MIN,
        2 * HOUR,
        25 * HOUR,
        5 * DAY,
      ])
        for (const since of [null, DAY, 15 * DAY])
          states.push({
            reliabilityAtReport,
            lastReportAt: age === null ? null : ago(age),
            belowThresholdSince: since === null ? null : ago(since),
          });
    const ids = await insertServers(states);
    const found = await candidatesAmong(ids);
    let skipped = 0;
    ids.forEach((id, i) => {
      if (found.has(id)) return;
      skipped += 1;
      const state = { lastCreditedAt: null, bannedAt: null, ...states[i]! } as ReliabilityState;
      expect({ state, settled: settleThreshold(state, now) }).toEqual({ state, settled: state });
    });
    // The filter does filter: fresh healthy servers without a recovery window are left out.
    expect(skipped).toBeGreaterThan(0);
  });

  it('should page by id after the given id when given a limit', async () => {
    const ids = await insertServers(Array.from({ length: 7 }, () => ({ lastReportAt: null })));
    const repository = new ReliabilitySweepRepository(t.dataSource);
    const seen: string[] = [];
    for (let after: string | null = null; ;) {
      const page = await repository.listServersForSweep(now, after, 3);
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((c) => c.id));
      if (page.length < 3) break;
      after = page[page.length - 1]!.id;
    }
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining(ids));
  });

  it('should write only the lifecycle columns and skip a server that reported, was banned or is locked since it was read', async () => {
    const [settled, reported, banned, locked] = await insertServers([
      { lastReportText: '2026-11-10 09:00:00.123456+00' },
      { lastReportAt: ago(3 * HOUR) },
      { lastReportAt: ago(3 * HOUR) },
      { lastReportAt: ago(3 * HOUR) },
    ]);
    const ids = [settled!, reported!, banned!, locked!];
    const found = await candidatesAmong(ids);
    const settlements = ids.map((id) => {
      const candidate = found.get(id)!;
      const after = settleThreshold(candidate, now);
      expect(after).not.toBe(candidate);
      return { ...candidate, belowThresholdSince: after.belowThresholdSince, bannedAt: now };
    });
    const snapshot = () =>
      t.db.query<Record<string, unknown>>('SELECT * FROM servers WHERE id = ANY($1::uuid[])', [
        ids,
      ]);
    const before = new Map((await snapshot()).map((r) => [r.id as string, r]));

    // A report comes in, another replica's rule bans one, a report batch holds one.
    await t.db.query(
      'UPDATE servers SET last_report_at = $2, reliability_at_report = 96 WHERE id = $1',
      [reported, now],
    );
    await t.db.query('UPDATE servers SET banned_at = $2 WHERE id = $1', [banned, ago(MIN)]);
    const changedBeforeWrite = new Map((await snapshot()).map((r) => [r.id as string, r]));
    await t.db.query('BEGIN');
    try {
      await t.db.query('SELECT 1 FROM servers WHERE id = $1 FOR UPDATE', [locked]);
      expect(await new ReliabilitySweepRepository(t.dataSource).settleServers(settlements)).toBe(1);
    } finally {
      await t.db.query('ROLLBACK');
    }

    const after = new Map((await snapshot()).map((r) => [r.id as string, r]));
    expect(after.get(settled!)).toEqual({
      ...before.get(settled!),
      below_threshold_since: new Date('2026-11-10T11:00:00.123Z'),
      banned_at: now,
      updated_at: expect.any(Date),
    });
    expect(after.get(settled!)!.updated_at).not.toEqual(before.get(settled!)!.updated_at);
    for (const id of [reported!, banned!, locked!])
      expect(after.get(id)).toEqual(changedBeforeWrite.get(id));
  });
});
