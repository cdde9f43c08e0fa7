import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { queryRows } from '../common/sql';
import type { ReachKey } from './reachability.repository';

/**
 * What a client's report needs besides the observations (docs/reachability.md#abuse): what
 * vantage points saw where the client is, and each reporting account's record against them.
 */
@Injectable()
export class ClientReportsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** What vantage points in a network saw of a server's current plan since `since`. */
  async probeVerdict(key: ReachKey, since: Date): Promise<{ works: number; blocked: number }> {
    const rows = await queryRows<{ works: string; blocked: string }>(
      this.dataSource,
      `SELECT count(*) FILTER (WHERE o.works) AS works, count(*) FILTER (WHERE NOT o.works) AS blocked
       FROM reachability_observations o JOIN server_directory s ON s.id = o.server_id
       WHERE o.server_id = $1 AND o.country = $2 AND o.asn = $3 AND o.observer_kind = 'probe'
         AND o.observed_at >= $4 AND o.plan_revision = s.plan_revision`,
      [key.serverId, key.country, key.asn, since],
    );
    return { works: Number(rows[0]?.works ?? 0), blocked: Number(rows[0]?.blocked ?? 0) };
  }

  /** Counts a client's report as confirmed or contradicted by vantage points (or neither). */
  async countReport(accountUuid: string, agreed: boolean | null, now: Date): Promise<void> {
    await this.dataSource.query(
      `INSERT INTO reachability_reporters AS t (account_uuid, agreements, disagreements, updated_at)
       VALUES ($1, $2, $3, $4)
       ON CONFLICT (account_uuid) DO UPDATE SET
         agreements = t.agreements + EXCLUDED.agreements,
         disagreements = t.disagreements + EXCLUDED.disagreements, updated_at = EXCLUDED.updated_at`,
      [accountUuid, agreed === true ? 1 : 0, agreed === false ? 1 : 0, now],
    );
  }

  /** The current plan revision of a server; null when it is not an agent server. */
  async planRevisionOf(serverId: string): Promise<string | null> {
    const rows = await queryRows<{ plan_revision: string }>(
      this.dataSource,
      `SELECT plan_revision::text AS plan_revision FROM server_directory WHERE id = $1 AND source = 'agent'`,
      [serverId],
    );
    return rows[0]?.plan_revision ?? null;
  }
}
