import { randomUUID } from 'node:crypto';
import type { VpsTierId } from '@scn/proto';

interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/**
 * Reliability history as facts (the reliability history table, written here directly): one row per UTC day
 * from `from` to `to` inclusive, each observed all day at `reliability`, `belowSeconds` of it
 * below 95%. The server's history cursor moves to the end of `to` (never back), as the sweep's
 * would have, and forgets a pending day among them: a running sweep goes on from there instead of
 * writing the same days again.
 */
export async function insertHistory(
  db: Queryable,
  row: {
    serverId: string;
    ownerUuid: string;
    tier: VpsTierId | null;
    from: string;
    to: string;
    reliability?: number;
    belowSeconds?: number;
    observedSeconds?: number;
  },
): Promise<void> {
  const observed = row.observedSeconds ?? 86_400;
  await db.query(
    `INSERT INTO server_reliability_days
       (server_id, day, owner_uuid, tier, observed_seconds, reliability_seconds, below_seconds,
        min_reliability)
     SELECT $1, d::date, $2, $3, $4::int, $5::bigint * $4::int, $6, $5::int
     FROM generate_series($7::date, $8::date, interval '1 day') AS d
     ON CONFLICT (server_id, day) DO UPDATE SET observed_seconds = EXCLUDED.observed_seconds,
       reliability_seconds = EXCLUDED.reliability_seconds, below_seconds = EXCLUDED.below_seconds`,
    [
      row.serverId,
      row.ownerUuid,
      row.tier,
      observed,
      row.reliability ?? 100,
      row.belowSeconds ?? 0,
      row.from,
      row.to,
    ],
  );
  await db.query(
    `INSERT INTO server_history_cursors (server_id, history_until, owner_uuid, tier)
     VALUES ($1, $2::date + 1, $3, $4)
     ON CONFLICT (server_id) DO UPDATE
       SET history_until = GREATEST(server_history_cursors.history_until, EXCLUDED.history_until)`,
    [row.serverId, row.to, row.ownerUuid, row.tier],
  );
  // A day the sweep had pending is one of the days written above: they replace it.
  await db.query(
    `UPDATE server_history_cursors SET pending_day = NULL, pending_observed_seconds = 0,
       pending_reliability_seconds = 0, pending_below_seconds = 0, pending_stale_seconds = 0,
       pending_min_reliability = 100
     WHERE server_id = $1 AND pending_day BETWEEN $2::date AND $3::date`,
    [row.serverId, row.from, row.to],
  );
}

/** An operator's automatic stake percent (the staking domain's settings row). */
export async function setAutoStake(db: Queryable, ownerUuid: string, percent: number) {
  await db.query(
    `INSERT INTO operator_economy_settings (owner_uuid, auto_stake_percent) VALUES ($1, $2)
     ON CONFLICT (owner_uuid) DO UPDATE SET auto_stake_percent = EXCLUDED.auto_stake_percent`,
    [ownerUuid, percent],
  );
}

/**
 * A ledger movement written at a given instant (facts of a past month: the ledger stamps rows
 * with the database's clock). Entries: [kind, owner, micro]; they must sum to zero.
 */
export async function ledgerAt(
  db: Queryable,
  at: Date,
  type: string,
  entries: ReadonlyArray<[kind: string, owner: string, micro: bigint]>,
  extra: { subscriptionId?: string; serverCount?: number } = {},
): Promise<string> {
  const id = randomUUID();
  // One statement: the ledger checks the transaction balances when the statement ends.
  await db.query(
    `WITH t AS (
       INSERT INTO ledger_transactions (id, type, subscription_id, server_count, created_at)
       VALUES ($1, $2, $3, $4, $5) RETURNING id)
     INSERT INTO ledger_entries (transaction_id, account_id, amount_micro, created_at)
     SELECT t.id, ledger_account_id(e.kind, e.owner), e.micro, $5
     FROM t, unnest($6::text[], $7::uuid[], $8::bigint[]) AS e(kind, owner, micro)`,
    [
      id,
      type,
      extra.subscriptionId ?? null,
      extra.serverCount ?? null,
      at,
      entries.map((e) => e[0]),
      entries.map((e) => e[1]),
      entries.map((e) => e[2].toString()),
    ],
  );
  return id;
}

export const SYSTEM = '00000000-0000-0000-0000-000000000000';

/** The balance of an owned ledger account (0 when it was never created). */
export async function balanceOf(db: Queryable, kind: string, owner: string): Promise<bigint> {
  const rows = await db.query<{ balance_micro: string }>(
    `SELECT balance_micro FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
    [kind, owner],
  );
  return BigInt(rows[0]?.balance_micro ?? '0');
}

/** The reward pool's balance (a system account: the sum of its entries). */
export async function poolBalance(db: Queryable): Promise<bigint> {
  const rows = await db.query<{ total: string }>(
    `SELECT COALESCE(sum(e.amount_micro), 0)::text AS total FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'reward_pool'`,
  );
  return BigInt(rows[0]!.total);
}
