import { reportColumns, rowVersions } from '../../test/support/agent-report-rows';
import { insertAgentServer, repositoryDatabase } from '../../test/support/server-rows';
import { AgentReportRepository } from './agent-report.repository';

const t = repositoryDatabase();
const insertServer = () => insertAgentServer(t.db);

describe('AgentReportRepository', () => {
  it('should persist a burst of reports in batches, each acknowledged only once written', async () => {
    const ids = await Promise.all(Array.from({ length: 50 }, () => insertServer()));
    const writer = new AgentReportRepository(t.dataSource);
    const at = new Date('2026-11-01T00:00:00Z');
    // Distinct times to the millisecond, stored exactly.
    const stamp = (i: number) => new Date(at.getTime() + i * 1_001 + 7);
    const versions = await rowVersions(t.db, ids);
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
    const rows = await t.db.query<{
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
    const after = await rowVersions(t.db, ids);
    expect(written).toEqual(ids.map((id) => after.get(id)));
    expect(written.every((version, i) => version !== versions.get(ids[i]!))).toBe(true);
  });

  it('should keep the stored hardware when a report leaves it out, and store what one carries', async () => {
    const [left, given] = await Promise.all([insertServer(), insertServer()]);
    const versions = await rowVersions(t.db, [left!, given!]);
    const writer = new AgentReportRepository(t.dataSource);
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
    const rows = await t.db.query<{ id: string; hardware: unknown }>(
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
    const versions = await rowVersions(t.db, ids);
    const writer = new AgentReportRepository(t.dataSource);
    const columns = (uptimeSeconds: string) => reportColumns({ uptimeSeconds });
    const outcomes = await Promise.allSettled(
      ids.map((id, i) =>
        writer.write(id, versions.get(id)!, columns(i === 1 ? '99999999999999999999' : '77')),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const rows = await t.db.query<{ id: string; uptime_seconds: string }>(
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
    const versions = await rowVersions(t.db, [changed!, kept!, gone!]);
    await t.db.query('UPDATE servers SET name = $2 WHERE id = $1', [changed, 'renamed']);
    await t.db.query('DELETE FROM servers WHERE id = $1', [gone]);
    const writer = new AgentReportRepository(t.dataSource);
    const columns = reportColumns({ reliabilityAtReport: 42 });
    const outcomes = await Promise.all(
      [changed!, kept!, gone!].map((id) => writer.write(id, versions.get(id)!, columns)),
    );
    expect(outcomes[0]).toBeNull();
    expect(outcomes[1]).toEqual(expect.any(String));
    expect(outcomes[2]).toBeNull();
    const rows = await t.db.query<{ id: string; reliability_at_report: number }>(
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

  it('should count failed and malformed reports in their UTC day once written, in the batch that writes them', async () => {
    const [failing, malformed, fine, missed] = await Promise.all([
      insertServer(),
      insertServer(),
      insertServer(),
      insertServer(),
    ]);
    const writer = new AgentReportRepository(t.dataSource);
    const beforeMidnight = new Date('2026-11-01T23:59:59.500Z');
    const afterMidnight = new Date('2026-11-02T00:00:00.250Z');
    const send = async (
      id: string,
      reliability: number,
      at: Date,
      quality: 'ok' | 'client_count_failed' | 'malformed',
    ) => {
      const version = (await rowVersions(t.db, [id])).get(id)!;
      return writer.write(
        id,
        version,
        reportColumns({ reliabilityAtReport: reliability, lastReportAt: at }),
        quality,
      );
    };
    // One batch with drops and an ok report, then more on either side of midnight.
    await Promise.all([
      send(failing!, 90, beforeMidnight, 'client_count_failed'),
      send(malformed!, 95, beforeMidnight, 'malformed'),
      send(fine!, 100, beforeMidnight, 'ok'),
    ]);
    await send(failing!, 80, beforeMidnight, 'client_count_failed');
    await send(failing!, 82, afterMidnight, 'ok');
    await send(failing!, 72, afterMidnight, 'client_count_failed');
    // A drop whose write misses (the row changed since it was read) is not counted: it is read
    // again and re-applied, and counted then.
    const stale = (await rowVersions(t.db, [missed!])).get(missed!)!;
    await t.db.query('UPDATE servers SET name = $2 WHERE id = $1', [missed, 'renamed']);
    expect(
      await writer.write(
        missed!,
        stale,
        reportColumns({ reliabilityAtReport: 90, lastReportAt: beforeMidnight }),
        'client_count_failed',
      ),
    ).toBeNull();

    const rows = await t.db.query<{
      server_id: string;
      day: string;
      failed_reports: number;
      malformed_reports: number;
      min_reliability: number;
      observed_seconds: number;
      tier: string;
    }>(
      `SELECT server_id, to_char(day, 'YYYY-MM-DD') AS day, failed_reports, malformed_reports,
              min_reliability, observed_seconds, tier
       FROM server_reliability_days WHERE server_id = ANY($1::uuid[]) ORDER BY server_id, day`,
      [[failing, malformed, fine, missed]],
    );
    const facts = (id: string) =>
      rows
        .filter((r) => r.server_id === id)
        .map((r) => [r.day, r.failed_reports, r.malformed_reports, r.min_reliability]);
    expect(facts(failing!)).toEqual([
      ['2026-11-01', 2, 0, 80],
      ['2026-11-02', 1, 0, 72],
    ]);
    expect(facts(malformed!)).toEqual([['2026-11-01', 0, 1, 95]]);
    expect(facts(fine!)).toEqual([]);
    expect(facts(missed!)).toEqual([]);
    // The sweep writes the time; the report writer only the counts (with the server's tier).
    expect(rows.every((r) => r.observed_seconds === 0 && r.tier === 'tier1')).toBe(true);
  });
});

describe('AgentReportRepository: hardware age', () => {
  const GIB = 1024 ** 3;
  const machine = (cpuCores: number, ramBytes: number) => ({
    os: 'Debian GNU/Linux 12 (bookworm)',
    osRelease: '6.1.0',
    arch: 'x64',
    cpuCores,
    cpuModel: 'AMD EPYC',
    cpuGhz: 2.4,
    ramBytes: String(ramBytes),
    diskBytes: '85899345920',
  });
  const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n));

  /** Writes one report at `at` (with `hardware`, or without) and answers hardware_since after it. */
  async function report(
    writer: AgentReportRepository,
    id: string,
    at: Date,
    hardware: ReturnType<typeof machine> | null,
  ): Promise<Date | null> {
    const versions = await rowVersions(t.db, [id]);
    const written = await writer.write(
      id,
      versions.get(id)!,
      reportColumns({ lastReportAt: at, hardware }),
    );
    expect(written).toEqual(expect.any(String));
    const [row] = await t.db.query<{ hardware_since: Date | null }>(
      'SELECT hardware_since FROM servers WHERE id = $1',
      [id],
    );
    return row!.hardware_since;
  }

  it('should set hardware_since at the first report with hardware and reset it only on an upgrade', async () => {
    const id = await insertServer();
    const writer = new AgentReportRepository(t.dataSource);
    // A report without the hardware sets nothing.
    expect(await report(writer, id, day(0), null)).toBeNull();
    expect(await report(writer, id, day(1), machine(2, 2 * GIB))).toEqual(day(1));
    // The same machine, a report without hardware, and a kernel's few megabytes more: kept.
    expect(await report(writer, id, day(2), machine(2, 2 * GIB))).toEqual(day(1));
    expect(await report(writer, id, day(3), null)).toEqual(day(1));
    expect(await report(writer, id, day(4), machine(2, 2 * GIB + 8 * 1024 ** 2))).toEqual(day(1));
    // A downgrade keeps it (and an upgrade back to where it was resets it: more than stored).
    expect(await report(writer, id, day(5), machine(1, 2 * GIB))).toEqual(day(1));
    // More cores: an upgrade.
    expect(await report(writer, id, day(6), machine(4, 2 * GIB))).toEqual(day(6));
    // More memory (5% or more): an upgrade.
    expect(await report(writer, id, day(7), machine(4, 4 * GIB))).toEqual(day(7));
    // Less memory with more cores is still an upgrade (more cores).
    expect(await report(writer, id, day(8), machine(8, 2 * GIB))).toEqual(day(8));
  });

  it('should treat every server of a batch by its own hardware', async () => {
    const ids = await Promise.all([insertServer(), insertServer(), insertServer()]);
    const writer = new AgentReportRepository(t.dataSource);
    for (const id of ids) await report(writer, id, day(0), machine(2, 2 * GIB));
    const versions = await rowVersions(t.db, ids);
    const next = [machine(2, 2 * GIB), machine(4, 2 * GIB), null];
    await Promise.all(
      ids.map((id, i) =>
        writer.write(
          id,
          versions.get(id)!,
          reportColumns({ lastReportAt: day(9), hardware: next[i]! }),
        ),
      ),
    );
    const rows = await t.db.query<{ id: string; hardware_since: Date }>(
      'SELECT id, hardware_since FROM servers WHERE id = ANY($1::uuid[])',
      [ids],
    );
    expect(new Map(rows.map((r) => [r.id, r.hardware_since]))).toEqual(
      new Map([
        [ids[0], day(0)],
        [ids[1], day(9)],
        [ids[2], day(0)],
      ]),
    );
  });
});

describe('AgentReportRepository: the TLS certificate', () => {
  it('should store the PEM, keep it while reports omit it for the same pin, and drop it on another pin or none', async () => {
    const id = await insertServer();
    const writer = new AgentReportRepository(t.dataSource);
    const inbound = (pin: string) => ({
      security: pin ? 'tls' : 'reality',
      network: 'ws',
      path: '/p',
      certificateSha256: pin,
      planRevision: '2',
    });
    const report = async (pin: string, certificatePem: string | null) => {
      const version = (await rowVersions(t.db, [id])).get(id)!;
      expect(
        await writer.write(id, version, reportColumns({ inbound: inbound(pin), certificatePem })),
      ).not.toBeNull();
      const [row] = await t.db.query<{ certificate_pem: string | null; inbound: object }>(
        'SELECT certificate_pem, inbound FROM servers WHERE id = $1',
        [id],
      );
      return row!;
    };
    const [a, b] = ['a'.repeat(64), 'b'.repeat(64)];
    expect(await report(a, 'PEM A')).toEqual({ certificate_pem: 'PEM A', inbound: inbound(a) });
    expect((await report(a, null)).certificate_pem).toBe('PEM A');
    // Another certificate without its PEM: the stored one no longer matches, so it goes.
    expect((await report(b, null)).certificate_pem).toBeNull();
    expect((await report(b, 'PEM B')).certificate_pem).toBe('PEM B');
    // REALITY (no pin): nothing kept.
    expect((await report('', null)).certificate_pem).toBeNull();
  });
});
