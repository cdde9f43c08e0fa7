import type { Network, ReachabilityState } from '@scn/proto';
import type { DataSource } from 'typeorm';
import type { SubscriptionReachabilityReader } from '../../src/subscriptions/subscription-reachability';

const STATE: Record<string, ReachabilityState> = { w: 'works', b: 'blocked', u: 'unknown' };

/**
 * For db-specs: SUBSCRIPTION_REACHABILITY read straight from the `server_reachability` rows a
 * test inserts (the estimates of exactly the client's network; the reachability domain's reader
 * adds freshness and the country's agreement).
 */
export class TableReachability implements SubscriptionReachabilityReader {
  constructor(private readonly dataSource: DataSource) {}

  /** Replacements read the client's network from the subscription, never from an address. */
  networkOf(): Network {
    return { country: null, asn: null, asnName: null };
  }

  async statesFrom(
    serverIds: readonly string[],
    network: Network,
  ): Promise<ReadonlyMap<string, ReachabilityState>> {
    const rows = await this.dataSource.query<{ server_id: string; state: string }[]>(
      `SELECT server_id, state FROM server_reachability
       WHERE server_id = ANY($1::uuid[]) AND country = $2 AND asn = $3`,
      [serverIds, network.country, network.asn ?? 0],
    );
    return new Map(rows.map((row) => [row.server_id, STATE[row.state] ?? 'unknown']));
  }

  async workingFrom(network: Network): Promise<readonly string[]> {
    const rows = await this.dataSource.query<{ server_id: string }[]>(
      `SELECT server_id FROM server_reachability WHERE country = $1 AND asn = $2 AND state = 'w'
       ORDER BY score DESC, server_id`,
      [network.country, network.asn ?? 0],
    );
    return rows.map((row) => row.server_id);
  }
}

/** Writes (or overwrites) one estimate. */
export async function setReachability(
  dataSource: DataSource,
  row: {
    serverId: string;
    country: string;
    asn: number;
    state: 'w' | 'b' | 'u';
    score: number;
    measuredAt: Date;
    blockedSince?: Date | null;
  },
): Promise<void> {
  // plan_revision (the estimate is of the server's current plan) when the schema has it.
  const [planned] = await dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM information_schema.columns
     WHERE table_name = 'server_reachability' AND column_name = 'plan_revision'`,
  );
  const plan = planned!.n > 0;
  await dataSource.query(
    `INSERT INTO server_reachability (server_id, country, asn, score, state, observers, probes,
       measured_at, blocked_since${plan ? ', plan_revision' : ''})
     SELECT $1, $2, $3, $4, $5, 3, 2, $6, $7${plan ? ', s.plan_revision' : ''}
     FROM servers s WHERE s.id = $1
     ON CONFLICT (server_id, country, asn) DO UPDATE SET score = EXCLUDED.score,
       state = EXCLUDED.state, measured_at = EXCLUDED.measured_at,
       blocked_since = EXCLUDED.blocked_since`,
    [
      row.serverId,
      row.country,
      row.asn,
      row.score,
      row.state,
      row.measuredAt,
      row.blockedSince ?? null,
    ],
  );
}
