import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryPrepared, queryRows } from '../common/sql';
import { broadSearchSql, type MarketPageQuery, pageSql } from './market-query';

/** A listed server as one page reads it (market_listings joined to servers). */
export interface ListingRow {
  server_id: string;
  country: string | null;
  reliability: number;
  stale: boolean;
  ping_ms: number | null;
  uptime_hours: number;
  allowed_clients: number;
  capacity: number;
  premium: boolean;
  promoted: boolean;
  core_down: boolean;
  disabled: boolean;
  sort_reliability: number;
  owner_uuid: string;
  name: string;
  location: string | null;
  host: string | null;
  port: number | null;
  inbound: Record<string, string> | null;
  source: 'agent' | 'manual';
  last_report_at: Date | null;
  active_clients: number;
  /** 'Premium Server {n}' (docs/product/records.md#market-and-wallet-records): n counts the premium servers by age; null if not premium. */
  premium_number: number | null;
}

export interface CountryCountRow {
  country: string;
  listed: number;
}

export interface StatsRow {
  listed: number;
  countries: number;
  reliability_sum: string;
  ping_sum: string;
  ping_count: number;
}

export interface DecayCandidate {
  server_id: string;
  reliability: number;
  stale: boolean;
  /** The server's last report, which the decay is computed from. */
  last_report_at: Date | null;
  /** The listing's copy of it as PostgreSQL wrote it (microseconds): the write's guard. */
  last_report_text: string | null;
  reliability_at_report: number;
}

export interface DecayUpdate {
  serverId: string;
  /** `last_report_text` of the candidate this was computed from. */
  lastReportAt: string | null;
  reliability: number;
  stale: boolean;
}

/** The only DB access of the market: reads of market_listings and the cooldown marks. */
@Injectable()
export class MarketRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * One page and the number of servers matching the filters (one statement); a search's number
   * stops at MARKET_SEARCH_COUNT_CAP, and `capped` says there were more.
   */
  async page(
    query: MarketPageQuery,
  ): Promise<{ total: number; capped: boolean; rows: ListingRow[] }> {
    const { sql, params } = pageSql(query);
    type Row = ListingRow & { total: number; capped: boolean };
    const rows = query.search
      ? await queryRows<Row>(this.dataSource, sql, params)
      : await this.prepared<Row>(sql, params);
    const total = rows[0]?.total ?? 0;
    const capped = rows[0]?.capped ?? false;
    // More matches than the cap: the first statement only counted them (broadSearchSql).
    const broad = capped ? broadSearchSql(query) : null;
    if (broad)
      return {
        total,
        capped,
        rows: await queryRows<ListingRow>(this.dataSource, broad.sql, broad.params),
      };
    return { total, capped, rows: rows.filter((row) => row.server_id !== null) };
  }

  /**
   * Page statements without a search are prepared (bench/market: PostgreSQL CPU per page
   * 0.55-0.74 -> 0.39 ms); with a search the pattern decides the plan. At most 20 shapes.
   */
  private prepared<T>(sql: string, params: unknown[]): Promise<T[]> {
    return queryPrepared<T>(this.dataSource, sql, params);
  }

  /**
   * The market version (market migration): moves at the commit of every change a page shows.
   * With it, whether a promotion shown as running has run out by `now` (one probe of the
   * promoted listings' expiry index): the market ends those before it shows a page.
   */
  async version(now: Date): Promise<{ version: string; promotionsDue: boolean }> {
    const rows = await this.prepared<{ version: string; due: boolean }>(
      `SELECT last_value::text || ':' || is_called::text AS version,
              EXISTS (SELECT 1 FROM market_listings WHERE promoted AND promoted_until <= $1) AS due
       FROM market_version_seq`,
      [now],
    );
    return { version: rows[0]?.version ?? '0', promotionsDue: rows[0]?.due ?? false };
  }

  countries(): Promise<CountryCountRow[]> {
    return queryRows<CountryCountRow>(
      this.dataSource,
      `SELECT country, listed FROM market_counts WHERE listed > 0 AND country <> '' ORDER BY country`,
    );
  }

  async stats(): Promise<StatsRow> {
    const [row] = await queryRows<StatsRow>(
      this.dataSource,
      `SELECT COALESCE(sum(listed), 0)::int AS listed,
              (count(*) FILTER (WHERE listed > 0 AND country <> ''))::int AS countries,
              COALESCE(sum(reliability_sum), 0)::text AS reliability_sum,
              COALESCE(sum(ping_sum), 0)::text AS ping_sum,
              COALESCE(sum(ping_count), 0)::int AS ping_count
       FROM market_counts`,
    );
    return row ?? { listed: 0, countries: 0, reliability_sum: '0', ping_sum: '0', ping_count: 0 };
  }

  /** One server as the market shows it, listed or not (health, cooldown). */
  async listing(serverId: string): Promise<(ListingRow & { listed: boolean }) | null> {
    const [row] = await queryRows<ListingRow & { listed: boolean }>(
      this.dataSource,
      `SELECT l.server_id, l.country, l.reliability, l.stale, l.ping_ms, l.uptime_hours,
              l.allowed_clients, l.capacity, l.premium, l.promoted, l.core_down, l.disabled,
              l.sort_reliability, l.listed, s.owner_uuid, s.name, s.location, s.host, s.port,
              s.inbound, s.source, s.last_report_at, s.active_clients, NULL::int AS premium_number
       FROM market_listings l JOIN servers s ON s.id = l.server_id WHERE l.server_id = $1`,
      [serverId],
    );
    return row ?? null;
  }

  /** The listed premium servers, oldest first. */
  premiumListings(): Promise<Array<{ id: string; host: string | null; free: number }>> {
    return queryRows(
      this.dataSource,
      `SELECT s.id, s.host, GREATEST(0, l.capacity - l.allowed_clients)::int AS free
       FROM market_listings l JOIN servers s ON s.id = l.server_id
       WHERE l.premium AND l.listed ORDER BY s.created_at, s.id`,
    );
  }

  /**
   * docs/product/states.md#market-and-account-states connect cooldown: marks the server for this client until `until`; a mark that
   * is still running is kept as it is (clicking again does not prolong it).
   */
  async markProcessing(
    clientUuid: string,
    serverId: string,
    until: Date,
    now: Date,
  ): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO market_processing (client_uuid, server_id, until) VALUES ($1, $2, $3)
       ON CONFLICT (client_uuid, server_id) DO UPDATE SET until = EXCLUDED.until, created_at = now()
       WHERE market_processing.until <= $4`,
      [clientUuid, serverId, until, now],
    );
  }

  processing(clientUuid: string, now: Date): Promise<Array<{ server_id: string; until: Date }>> {
    return queryRows(
      this.dataSource,
      `SELECT server_id, until FROM market_processing WHERE client_uuid = $1 AND until > $2
       ORDER BY until, server_id`,
      [clientUuid, now],
    );
  }

  async deleteExpiredProcessing(now: Date): Promise<number> {
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `DELETE FROM market_processing WHERE until <= $1 RETURNING server_id`,
      [now],
    );
    return rows.length;
  }

  /** Writes the configured operator e-mail for the triggers; true when it changed. */
  async setPlatformOperatorEmail(email: string | null): Promise<boolean> {
    const rows = await queryRows<{ id: number }>(
      this.dataSource,
      `UPDATE market_settings SET platform_operator_email = $1
       WHERE id = 1 AND platform_operator_email IS DISTINCT FROM $1 RETURNING id`,
      [email],
    );
    return rows.length > 0;
  }

  /** Sets `premium` on every listing from its owner's e-mail; returns how many changed. */
  async reconcilePremium(): Promise<number> {
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `UPDATE market_listings l SET premium = p.premium
       FROM (SELECT s.id, COALESCE(a.email = m.platform_operator_email, false) AS premium
             FROM servers s JOIN accounts a ON a.uuid = s.owner_uuid CROSS JOIN market_settings m) p
       WHERE l.server_id = p.id AND l.premium IS DISTINCT FROM p.premium
       RETURNING l.server_id`,
    );
    return rows.length;
  }

  /**
   * Listings whose reliability may have decayed (docs/product/states.md#subscription-and-reliability-states): no report for over an hour, and
   * not already at the bottom (stale and 0).
   */
  decayCandidates(staleBefore: Date): Promise<DecayCandidate[]> {
    return queryRows<DecayCandidate>(
      this.dataSource,
      // The listing's last_report_at may trail the server's by up to 5 minutes (reports leave
      // the listing alone while it shows the same), so the decay is computed from the server's
      // own last report. The listing's value is the guard: any report to a candidate (silent
      // for over an hour) rewrites the listing, so a report since this read always moves it.
      `SELECT l.server_id, l.reliability, l.stale, s.last_report_at,
              l.last_report_at::text AS last_report_text, s.reliability_at_report
       FROM market_listings l JOIN servers s ON s.id = l.server_id
       WHERE (l.last_report_at IS NULL OR l.last_report_at < $1)
         AND (s.last_report_at IS NULL OR s.last_report_at < $1) AND (NOT l.stale OR l.reliability > 0)`,
      [staleBefore],
    );
  }

  /**
   * The order's reachability penalty (docs/reachability.md#market-order), written only where it
   * changed, rows locked in server_id order like every multi-row listing write.
   */
  async setReachPenalties(penalties: ReadonlyMap<string, number>): Promise<number> {
    if (penalties.size === 0) return 0;
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::smallint[]) AS v(id, penalty)
       ), locked AS (
         SELECT l.server_id FROM market_listings l JOIN v ON v.id = l.server_id
         WHERE l.reach_penalty <> v.penalty
         ORDER BY l.server_id FOR UPDATE OF l
       )
       UPDATE market_listings l SET reach_penalty = v.penalty
       FROM v, locked
       WHERE l.server_id = v.id AND locked.server_id = v.id
       RETURNING l.server_id`,
      [[...penalties.keys()], [...penalties.values()]],
    );
    return rows.length;
  }

  /**
   * Writes decayed values. A listing is skipped when a report came since it was read (its
   * last_report_at moved) or while a writer holds it (it is taken up again next minute), and
   * rows are locked in server_id order like every multi-row listing write.
   */
  async applyDecay(updates: readonly DecayUpdate[]): Promise<number> {
    if (updates.length === 0) return 0;
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `WITH v AS (
         SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::smallint[], $4::boolean[])
           AS v(id, last_report_at, reliability, stale)
       ), locked AS (
         SELECT l.server_id FROM market_listings l JOIN v ON v.id = l.server_id
         WHERE l.last_report_at IS NOT DISTINCT FROM v.last_report_at
         ORDER BY l.server_id FOR UPDATE OF l SKIP LOCKED
       )
       UPDATE market_listings l SET reliability = v.reliability, stale = v.stale
       FROM v, locked
       WHERE l.server_id = v.id AND locked.server_id = v.id
         AND l.last_report_at IS NOT DISTINCT FROM v.last_report_at
       RETURNING l.server_id`,
      [
        updates.map((u) => u.serverId),
        updates.map((u) => u.lastReportAt),
        updates.map((u) => u.reliability),
        updates.map((u) => u.stale),
      ],
    );
    return rows.length;
  }

  /**
   * Ends promotions whose time ran out (and starts those set ahead of time). The minute sweep
   * skips listings a writer holds (next minute takes them up); a market read (`wait`) waits for
   * them, so the page it then shows has no expired promotion.
   */
  async settlePromotions(now: Date, wait = false): Promise<number> {
    const rows = await queryRows<{ server_id: string }>(
      this.dataSource,
      `WITH locked AS (
         SELECT server_id FROM market_listings
         WHERE promoted_until IS NOT NULL AND promoted IS DISTINCT FROM (promoted_until > $1)
         ORDER BY server_id FOR UPDATE${wait ? '' : ' SKIP LOCKED'}
       )
       UPDATE market_listings l SET promoted = (l.promoted_until > $1)
       FROM locked WHERE l.server_id = locked.server_id
       RETURNING l.server_id`,
      [now],
    );
    return rows.length;
  }

  /** Whether a server is owned by the account with this e-mail (the platform operator). */
  async ownedByEmail(serverId: string, email: string): Promise<boolean> {
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT s.id FROM servers s JOIN accounts a ON a.uuid = s.owner_uuid
       WHERE s.id = $1 AND a.email = $2`,
      [serverId, email],
    );
    return rows.length > 0;
  }

  async ownedByEmailAmong(serverIds: readonly string[], email: string): Promise<Set<string>> {
    if (serverIds.length === 0) return new Set();
    const rows = await queryRows<{ id: string }>(
      this.dataSource,
      `SELECT s.id FROM servers s JOIN accounts a ON a.uuid = s.owner_uuid
       WHERE s.id = ANY($1::uuid[]) AND a.email = $2`,
      [serverIds, email],
    );
    return new Set(rows.map((r) => r.id));
  }

  async nodeAccountUuid(email: string): Promise<string | null> {
    const [row] = await queryRows<{ uuid: string }>(
      this.dataSource,
      `SELECT uuid FROM accounts WHERE email = $1 AND user_type = 'node'`,
      [email],
    );
    return row?.uuid ?? null;
  }
}
