import { Client } from 'pg';
import type { EntityManager } from 'typeorm';
import { allowClients, insertAccount, insertServers } from '../../test/support/market-fixtures';
import { HOUR, useMarketDatabase } from '../../test/support/market-model';

/** The listing the triggers keep: decay in the minute sweep, the market version, agent reports. */
const market = useMarketDatabase(new Date('2026-11-20T12:00:00.000Z'));
const { clock } = market;

describe('reliability decay in the minute sweep', () => {
  it('should move a silent server last, then hide it, while reporting servers stay', async () => {
    clock.at = new Date('2026-11-21T00:00:00.000Z');
    const owner = await insertAccount(market.db);
    const [silent, reporting] = await insertServers(
      market.db,
      [
        { ownerUuid: owner, name: 'Decay silent', pingMs: 5, country: 'IS' },
        { ownerUuid: owner, name: 'Decay reporting', pingMs: 50, country: 'IS' },
      ],
      clock.at,
    );
    const ids = async () =>
      (await market.service.servers({ page: 1, limit: 20, country: 'IS' }, null)).value.servers.map(
        (s) => s.id,
      );
    expect(await ids()).toEqual([silent, reporting]);

    // 90 minutes on: the reporting server reports, the silent one does not.
    clock.at = new Date(clock.at.getTime() + 90 * 60_000);
    await market.db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [
      reporting,
      clock.at,
    ]);
    expect(await ids()).toEqual([silent, reporting]);
    expect((await market.refresh.refresh()).decayed).toBeGreaterThanOrEqual(1);
    expect(await ids()).toEqual([reporting, silent]);
    // Idempotent for its minute.
    expect(await market.refresh.refresh()).toMatchObject({ decayed: 0 });

    // Two hours without a report: 100 - 10 = 90, below 95: hidden.
    clock.at = new Date(clock.at.getTime() + 31 * 60_000);
    await market.db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [
      reporting,
      clock.at,
    ]);
    await market.refresh.refresh();
    expect(await ids()).toEqual([reporting]);

    // A report brings it back (fresh, at the score it earned).
    await market.db.query(
      `UPDATE servers SET last_report_at = $2, reliability_at_report = 96 WHERE id = $1`,
      [silent, clock.at],
    );
    expect(await ids()).toEqual([reporting, silent]);
  });

  it('should write a silent listing once per hour of staleness, not every minute', async () => {
    const owner = await insertAccount(market.db);
    const silentSince = clock.at;
    const ids = await insertServers(
      market.db,
      [0, 1, 2].map((i) => ({ ownerUuid: owner, name: `Decay hourly ${i}`, country: 'IS' })),
      silentSince,
    );
    // Each listing's row version: it moves with every write of the row.
    const versions = () =>
      market.db.query<{ xmin: string }>(
        `SELECT xmin::text FROM market_listings WHERE server_id = ANY($1) ORDER BY server_id`,
        [ids],
      );
    const written = async (minutes: number): Promise<number> => {
      clock.at = new Date(silentSince.getTime() + minutes * 60_000);
      const before = await versions();
      await market.refresh.refresh();
      const after = await versions();
      return after.filter((row, i) => row.xmin !== before[i]!.xmin).length;
    };
    // Stale after an hour, -5 at each full hour: 61 and 121 minutes write, the minutes after
    // them within the same hour do not (docs/product/states.md#subscription-and-reliability-states).
    expect(await written(61)).toBe(3);
    expect(await written(62)).toBe(0);
    expect(await written(119)).toBe(0);
    expect(await written(121)).toBe(3);
    expect(await written(122)).toBe(0);
    clock.at = silentSince;
  });

  it('should not overwrite a report that arrives after the sweep read the server', async () => {
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(
      market.db,
      [{ ownerUuid: owner, lastReportAt: new Date(clock.at.getTime() - 3 * HOUR) }],
      clock.at,
    );
    const [candidate] = (
      await market.repository.decayCandidates(new Date(clock.at.getTime() - HOUR))
    ).filter((c) => c.server_id === id);
    expect(candidate).toBeDefined();
    await market.db.query(`UPDATE servers SET last_report_at = $2 WHERE id = $1`, [id, clock.at]);
    const applied = await market.repository.applyDecay([
      { serverId: id!, lastReportAt: candidate!.last_report_text, reliability: 0, stale: true },
    ]);
    expect(applied).toBe(0);
    const [row] = await market.db.query(
      `SELECT reliability, stale FROM market_listings WHERE server_id = $1`,
      [id],
    );
    expect(row).toEqual({ reliability: 100, stale: false });
  });
});

describe('market version and the page cache', () => {
  it('should move the version at a change of what a page shows, not at a ping or score change', async () => {
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(market.db, [{ ownerUuid: owner, country: 'LU' }], clock.at);
    const before = (await market.repository.version(new Date())).version;
    await market.db.query(
      `UPDATE servers SET ping_ms = 77, uptime_seconds = 99999, last_report_at = $2 WHERE id = $1`,
      [id, clock.at],
    );
    expect((await market.repository.version(new Date())).version).toBe(before);
    await allowClients(market.db, id!, 1);
    const afterSlot = (await market.repository.version(new Date())).version;
    expect(afterSlot).not.toBe(before);
    await market.db.query(`UPDATE servers SET name = 'Renamed Luxembourg' WHERE id = $1`, [id]);
    expect((await market.repository.version(new Date())).version).not.toBe(afterSlot);
  });

  it('should show a server added or removed at once, even right after the same page was read', async () => {
    const query = { country: 'LI', page: 1, limit: 20 };
    expect((await market.service.servers(query, null)).value.servers).toEqual([]);
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(market.db, [{ ownerUuid: owner, country: 'LI' }], clock.at);
    expect((await market.service.servers(query, null)).value.servers.map((s) => s.id)).toEqual([
      id,
    ]);
    await market.db.query(`UPDATE servers SET banned_at = $2 WHERE id = $1`, [id, clock.at]);
    expect((await market.service.servers(query, null)).value.servers).toEqual([]);
  });
});

describe('agent reports and the listing', () => {
  const MIN = 60_000;
  const listing = async (id: string) =>
    (
      await market.db.query<{
        ping_ms: number | null;
        reliability: number;
        stale: boolean;
        at: string;
      }>(
        `SELECT ping_ms, reliability, stale, last_report_at::text AS at, xmin::text AS version
         FROM market_listings WHERE server_id = $1`,
        [id],
      )
    )[0]!;
  const report = (id: string, at: Date, set = '') =>
    market.db.query(`UPDATE servers SET last_report_at = $2 ${set} WHERE id = $1`, [id, at]);

  it('should leave the listing alone while a report changes nothing a page shows', async () => {
    const owner = await insertAccount(market.db);
    const [id] = await insertServers(
      market.db,
      [{ ownerUuid: owner, country: 'MT', pingMs: 40 }],
      clock.at,
    );
    const first = await listing(id!);
    // A minute later, the same score and a ping 3 ms off: nothing to show differently.
    await report(id!, new Date(clock.at.getTime() + MIN), ', ping_ms = 43');
    expect(await listing(id!)).toEqual(first);
    // A ping that moved by more than 5 ms and 10% is shown.
    await report(id!, new Date(clock.at.getTime() + 2 * MIN), ', ping_ms = 60');
    expect(await listing(id!)).toMatchObject({ ping_ms: 60 });
    // So is a score that moved.
    await report(id!, new Date(clock.at.getTime() + 3 * MIN), ', reliability_at_report = 97');
    expect(await listing(id!)).toMatchObject({ reliability: 97 });
    // And the listing's copy of the last report never trails by 5 minutes or more.
    const copied = (await listing(id!)).at;
    await report(id!, new Date(clock.at.getTime() + 7 * MIN));
    expect((await listing(id!)).at).toBe(copied);
    await report(id!, new Date(clock.at.getTime() + 8 * MIN));
    expect((await listing(id!)).at).not.toBe(copied);
  });

  it("should decay from the server's own last report, not the listing's older copy", async () => {
    const owner = await insertAccount(market.db);
    const start = clock.at;
    const [id] = await insertServers(market.db, [{ ownerUuid: owner, country: 'CY' }], start);
    // A report 4 minutes later leaves the listing's copy at the start.
    await report(id!, new Date(start.getTime() + 4 * MIN));
    try {
      // 62 minutes after the start, but 58 after the last report: not stale yet.
      clock.at = new Date(start.getTime() + 62 * MIN);
      await market.refresh.refresh();
      expect(await listing(id!)).toMatchObject({ reliability: 100, stale: false });
      // 65 minutes after the last report: stale.
      clock.at = new Date(start.getTime() + 69 * MIN);
      await market.refresh.refresh();
      expect(await listing(id!)).toMatchObject({ stale: true });
      // A report brings it back at once.
      await report(id!, clock.at);
      expect(await listing(id!)).toMatchObject({ reliability: 100, stale: false });
    } finally {
      clock.at = start;
    }
  });

  it("should find a report batch's listings by key, not by scanning every listing", async () => {
    const owner = await insertAccount(market.db);
    const ids = await insertServers(
      market.db,
      Array.from({ length: 2000 }, () => ({ ownerUuid: owner, country: 'IS' })),
      clock.at,
    );
    await market.db.query('ANALYZE servers, market_listings');
    const scans = await market.dataSource.transaction(async (manager) => {
      // This backend's scans of market_listings, counted from before the batch (the view also
      // holds what earlier transactions of the connection did and it has not reported yet).
      const counters = async () =>
        (
          (await manager.query(
            `SELECT seq_scan::int AS seq, idx_scan::int AS idx FROM pg_stat_xact_user_tables WHERE relname = 'market_listings'`,
          )) as Array<{ seq: number; idx: number }>
        )[0]!;
      const before = await counters();
      // A batch of 30 reports, whose pings moved: the trigger reads and rewrites their listings.
      await manager.query(
        `UPDATE servers SET last_report_at = $2, ping_ms = ping_ms + 20 WHERE id = ANY($1::uuid[])`,
        [ids.slice(0, 30), new Date(clock.at.getTime() + MIN)],
      );
      const after = await counters();
      return { seq: after.seq - before.seq, idx: after.idx - before.idx };
    });
    expect(scans.seq).toBe(0);
    expect(scans.idx).toBeGreaterThan(0);
    const moved = await market.db.query(
      `SELECT count(*)::int AS n FROM market_listings WHERE server_id = ANY($1::uuid[]) AND ping_ms = 60`,
      [ids.slice(0, 30)],
    );
    expect(moved[0]?.n).toBe(30);
  });

  it('should not run the listing update at all for a report batch that changes no listing', async () => {
    const owner = await insertAccount(market.db);
    const ids = await insertServers(
      market.db,
      Array.from({ length: 5 }, () => ({ ownerUuid: owner, country: 'LI', pingMs: 40 })),
      clock.at,
    );
    const report = (manager: EntityManager, minutes: number, ping: number) =>
      reportBatch(manager, ids, minutes, ping);
    const updates = await market.dataSource.transaction(async (manager) => {
      // An UPDATE of market_listings fires its counters' statement trigger even when it changes
      // no row: its calls show whether the listing update ran.
      await manager.query(`SET LOCAL track_functions = 'pl'`);
      const calls = async () =>
        (
          (await manager.query(
            `SELECT coalesce(sum(calls), 0)::int AS n FROM pg_stat_xact_user_functions WHERE funcname = 'market_listings_count_updated'`,
          )) as Array<{ n: number }>
        )[0]!.n;
      const before = await calls();
      // A minute later, the same score and a ping 2 ms off: nothing a page shows.
      await report(manager, 1, 42);
      const quiet = (await calls()) - before;
      await report(manager, 2, 90);
      return { quiet, moved: (await calls()) - before };
    });
    expect(updates).toEqual({ quiet: 0, moved: 1 });
    expect(await listedPings(ids)).toEqual([90]);
  });

  it("should check a report batch against its listings without joining the batch's old rows to its new rows row by row", async () => {
    const owner = await insertAccount(market.db);
    const ids = await insertServers(
      market.db,
      Array.from({ length: 40 }, () => ({ ownerUuid: owner, country: 'MT', pingMs: 40 })),
      clock.at,
    );
    const report = (client: Client, minutes: number) => reportBatch(client, ids, minutes, 41);
    // auto_explain hands this session the executed plans of the trigger's statements.
    const client = new Client({ connectionString: market.db.url });
    await client.connect();
    try {
      await report(client, 1);
      const plans: PlanNode[] = [];
      client.on('notice', (notice) => {
        const json = /plan:\s*(\{[\s\S]*\})\s*$/.exec(notice.message ?? '')?.[1];
        if (json) plans.push((JSON.parse(json) as { Plan: PlanNode }).Plan);
      });
      await client.query(`LOAD 'auto_explain'`);
      await client.query(
        `SET auto_explain.log_min_duration = 0; SET auto_explain.log_nested_statements = on;
         SET auto_explain.log_analyze = on; SET auto_explain.log_format = json; SET client_min_messages = log`,
      );
      // A minute later with a ping 1 ms off: no listing changes, the check alone runs.
      await report(client, 2);
      await client.query('SET client_min_messages = notice');
      const scans = plans
        .flatMap(planNodes)
        .filter((n) => n['Node Type'] === 'Named Tuplestore Scan');
      expect(scans.length).toBeGreaterThan(0);
      // Each transition table is read once; a nested loop over them read old_rows once per new row.
      expect(scans.map((n) => n['Actual Loops'])).toEqual(scans.map(() => 1));
    } finally {
      await client.end();
    }
    expect(await listedPings(ids)).toEqual([40]);
  });

  /** What an agent report batch writes that the market follows: its time and a ping. */
  function reportBatch(
    on: { query(sql: string, parameters: unknown[]): Promise<unknown> },
    ids: string[],
    minutes: number,
    ping: number,
  ): Promise<unknown> {
    return on.query(
      'UPDATE servers SET last_report_at = $2, ping_ms = $3 WHERE id = ANY($1::uuid[])',
      [ids, new Date(clock.at.getTime() + minutes * MIN), ping],
    );
  }

  async function listedPings(ids: string[]): Promise<number[]> {
    const rows = await market.db.query<{ ping_ms: number }>(
      'SELECT DISTINCT ping_ms FROM market_listings WHERE server_id = ANY($1::uuid[])',
      [ids],
    );
    return rows.map((row) => row.ping_ms);
  }
});

interface PlanNode {
  'Node Type': string;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

function planNodes(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}
