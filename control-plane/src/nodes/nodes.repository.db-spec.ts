import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { dataSourceOptions } from '../database/data-source';
import { type ReliabilityState, settleThreshold } from '../reliability/reliability';
import { ServerEntity } from './entities/server.entity';
import { NodesRepository, type SweepCandidate } from './nodes.repository';
import { type ReportColumns, ReportWriter } from './report-writer';

let db: TestDatabase;
let dataSource: DataSource;
beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = await new DataSource(dataSourceOptions(db.url)).initialize();
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

async function insertServer(): Promise<string> {
  const owner = randomUUID();
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
    [owner, `${owner}@example.com`],
  );
  const id = randomUUID();
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, secret_hash, host, port, inbound, hardware, last_report_at)
     VALUES ($1, $2, 'n', 'agent', 'tier1', $3, 'h.example', 443, '{"security":"tls"}', '{"cpuCores":2}', now())`,
    [id, owner, 'a'.repeat(64)],
  );
  return id;
}

describe('NodesRepository.findServer', () => {
  it('should map a row exactly as TypeORM does, every column included', async () => {
    const id = await insertServer();
    const plain = await new NodesRepository(dataSource).findServer(id);
    const typeorm = await dataSource.getRepository(ServerEntity).findOneBy({ id });
    expect(plain).toEqual(typeorm);
    const metadata = dataSource.getMetadata(ServerEntity);
    const relations = new Set(metadata.relations.map((r) => r.propertyName));
    const mapped = Object.keys(plain ?? {}).filter((key) => !relations.has(key));
    expect(mapped.sort()).toEqual(metadata.columns.map((c) => c.propertyName).sort());
  });
});

describe('NodesRepository.updateOwnedServer', () => {
  it("should change only the owner's server and only the given columns", async () => {
    const id = await insertServer();
    const [{ owner_uuid: owner } = { owner_uuid: '' }] = await db.query<{ owner_uuid: string }>(
      'SELECT owner_uuid FROM servers WHERE id = $1',
      [id],
    );
    const repository = new NodesRepository(dataSource);
    expect(await repository.updateOwnedServer(randomUUID(), id, { name: 'Stolen' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, randomUUID(), { name: 'Ghost' })).toBe(false);
    expect(await repository.updateOwnedServer(owner, id, { country: 'NL', location: 'Ams' })).toBe(
      true,
    );
    expect(
      await db.query('SELECT name, country, location, host FROM servers WHERE id = $1', [id]),
    ).toEqual([{ name: 'n', country: 'NL', location: 'Ams', host: 'h.example' }]);
  });
});

/** A report's row change; `overrides` for what a test looks at. */
function reportColumns(overrides: Partial<ReportColumns> = {}): ReportColumns {
  return {
    reliabilityAtReport: 100,
    lastReportAt: new Date('2026-11-01T00:00:00Z'),
    lastCreditedAt: null,
    belowThresholdSince: null,
    bannedAt: null,
    host: 'h.example',
    port: 443,
    inbound: { security: 'none' },
    hardware: null,
    agentVersion: '0.1.0',
    coreState: 'running',
    activeClients: 0,
    pingMs: 7,
    uptimeSeconds: '1',
    appliedClientSetVersion: '0',
    ...overrides,
  };
}

describe('ReportWriter', () => {
  it('should persist a burst of reports in batches, each acknowledged only once written', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => insertServer()));
    const writer = new ReportWriter(dataSource);
    const at = new Date('2026-11-01T00:00:00Z');
    // Distinct times to the millisecond, stored exactly.
    const stamp = (i: number) => new Date(at.getTime() + i * 1_001 + 7);
    const versions = await versionsOf(ids);
    const written = await Promise.all(
      ids.map((id, i) =>
        writer.write(
          id,
          versions.get(id)!,
          reportColumns({
            reliabilityAtReport: i,
            lastReportAt: stamp(i),
            lastCreditedAt: at,
            belowThresholdSince: i % 2 === 0 ? stamp(i + 100) : null,
            bannedAt: i % 5 === 0 ? stamp(i + 200) : null,
            host: `n${i}.example`,
            port: 1000 + i,
            activeClients: i,
            uptimeSeconds: String(i * 10),
            appliedClientSetVersion: '3',
          }),
        ),
      ),
    );
    const rows = await db.query<{
      id: string;
      reliability_at_report: number;
      port: number;
      uptime_seconds: string;
      inbound: unknown;
    }>(
      `SELECT id, reliability_at_report, port, uptime_seconds, inbound, last_report_at, last_credited_at,
              below_threshold_since, banned_at
       FROM servers WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    ids.forEach((id, i) =>
      expect(byId.get(id)).toMatchObject({
        reliability_at_report: i,
        port: 1000 + i,
        uptime_seconds: String(i * 10),
        inbound: { security: 'none' },
        last_report_at: stamp(i),
        last_credited_at: at,
        below_threshold_since: i % 2 === 0 ? stamp(i + 100) : null,
        banned_at: i % 5 === 0 ? stamp(i + 200) : null,
      }),
    );
    // Each write answers the row's new version.
    const after = await versionsOf(ids);
    expect(written).toEqual(ids.map((id) => after.get(id)));
    expect(written.every((version, i) => version !== versions.get(ids[i]!))).toBe(true);
  });

  it('should keep the stored hardware when a report leaves it out, and store what one carries', async () => {
    const [left, given] = await Promise.all([insertServer(), insertServer()]);
    const versions = await versionsOf([left!, given!]);
    const writer = new ReportWriter(dataSource);
    const resized = {
      os: 'Debian GNU/Linux 12 (bookworm)',
      osRelease: '6.1.0',
      arch: 'x64',
      cpuCores: 4,
      cpuModel: 'AMD EPYC',
      cpuGhz: 2.4,
      ramBytes: '8589934592',
      diskBytes: '85899345920',
    };
    await Promise.all([
      writer.write(left!, versions.get(left!)!, reportColumns({ hardware: null })),
      writer.write(given!, versions.get(given!)!, reportColumns({ hardware: resized })),
    ]);
    const rows = await db.query<{ id: string; hardware: unknown }>(
      'SELECT id, hardware FROM servers WHERE id = ANY($1::uuid[])',
      [[left, given]],
    );
    expect(new Map(rows.map((r) => [r.id, r.hardware]))).toEqual(
      new Map<string, unknown>([
        [left, { cpuCores: 2 }],
        [given, resized],
      ]),
    );
  });

  it('should fail only the report PostgreSQL refuses, not the others of its batch', async () => {
    const ids = await Promise.all([insertServer(), insertServer(), insertServer()]);
    const versions = await versionsOf(ids);
    const writer = new ReportWriter(dataSource);
    const columns = (uptimeSeconds: string) => reportColumns({ uptimeSeconds });
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        writer.write(id, versions.get(id)!, columns(i === 1 ? '99999999999999999999' : '77')),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await db.query<{ id: string; uptime_seconds: string }>(
      'SELECT id, uptime_seconds FROM servers WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(new Map(rows.map((r) => [r.id, r.uptime_seconds]))).toEqual(
      new Map([
        [ids[0], '77'],
        [ids[1], '0'],
        [ids[2], '77'],
      ]),
    );
  });

  it('should write nothing where the row changed since the report was computed', async () => {
    const [changed, kept, gone] = await Promise.all([
      insertServer(),
      insertServer(),
      insertServer(),
    ]);
    const versions = await versionsOf([changed!, kept!, gone!]);
    await db.query('UPDATE servers SET name = $2 WHERE id = $1', [changed, 'renamed']);
    await db.query('DELETE FROM servers WHERE id = $1', [gone]);
    const writer = new ReportWriter(dataSource);
    const columns = reportColumns({ reliabilityAtReport: 42 });
    const outcomes = await Promise.all(
      [changed!, kept!, gone!].map((id) => writer.write(id, versions.get(id)!, columns)),
    );
    expect(outcomes[0]).toBeNull();
    expect(outcomes[1]).toEqual(expect.any(String));
    expect(outcomes[2]).toBeNull();
    const rows = await db.query<{ id: string; reliability_at_report: number }>(
      'SELECT id, reliability_at_report FROM servers WHERE id = ANY($1::uuid[])',
      [[changed, kept]],
    );
    expect(new Map(rows.map((r) => [r.id, r.reliability_at_report]))).toEqual(
      new Map([
        [changed, 100],
        [kept, 42],
      ]),
    );
  });
});

async function versionsOf(ids: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; version: string }>(
    'SELECT id, xmin::text AS version FROM servers WHERE id = ANY($1::uuid[])',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.version]));
}

describe('NodesRepository sweep queries', () => {
  const MIN = 60_000;
  const HOUR = 60 * MIN;
  const DAY = 24 * HOUR;
  const now = new Date('2026-11-10T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  let owner: string;
  beforeAll(async () => {
    owner = randomUUID();
    await db.query(
      `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, 'node', 'x', 'x')`,
      [owner, `${owner}@example.com`],
    );
  });

  type Row = Partial<Omit<ReliabilityState, 'lastCreditedAt'>>;
  /** Inserts servers in one statement; `lastReportAt` may be a SQL timestamp literal. */
  async function insertServers(rows: ReadonlyArray<Row & { lastReportText?: string }>) {
    const ids = rows.map(() => randomUUID());
    await db.query(
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
    const all = await new NodesRepository(dataSource).listServersForSweep(now, null, 100_000);
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
    const repository = new NodesRepository(dataSource);
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
      db.query<Record<string, unknown>>('SELECT * FROM servers WHERE id = ANY($1::uuid[])', [ids]);
    const before = new Map((await snapshot()).map((r) => [r.id as string, r]));

    // A report comes in, another replica's rule bans one, a report batch holds one.
    await db.query(
      'UPDATE servers SET last_report_at = $2, reliability_at_report = 96 WHERE id = $1',
      [reported, now],
    );
    await db.query('UPDATE servers SET banned_at = $2 WHERE id = $1', [banned, ago(MIN)]);
    const changedBeforeWrite = new Map((await snapshot()).map((r) => [r.id as string, r]));
    await db.query('BEGIN');
    try {
      await db.query('SELECT 1 FROM servers WHERE id = $1 FOR UPDATE', [locked]);
      expect(await new NodesRepository(dataSource).settleServers(settlements)).toBe(1);
    } finally {
      await db.query('ROLLBACK');
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
