import type { TestApp } from './test-app';

interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A wallet's balance in micro-SSL (0n when it has none yet). */
export async function walletBalance(
  db: Queryable,
  ownerUuid: string,
  kind: 'client_wallet' | 'node_wallet' = 'client_wallet',
): Promise<bigint> {
  const rows = await db.query<{ balance_micro: string }>(
    `SELECT balance_micro::text FROM ledger_accounts WHERE kind = $1 AND owner_uuid = $2`,
    [kind, ownerUuid],
  );
  return BigInt(rows[0]?.balance_micro ?? '0');
}

/** What the platform's revenue account holds: the sum of its entries (micro-SSL). */
export async function platformRevenue(db: Queryable): Promise<bigint> {
  const rows = await db.query<{ total: string }>(
    `SELECT COALESCE(sum(e.amount_micro), 0)::text AS total FROM ledger_entries e
     JOIN ledger_accounts a ON a.id = e.account_id WHERE a.kind = 'platform_revenue'`,
  );
  return BigInt(rows[0]?.total ?? '0');
}

/** The client UUIDs the node lets in (enabled places) and the server's set version. */
export async function clientSetOf(
  db: Queryable,
  serverId: string,
): Promise<{ version: bigint; uuids: string[] }> {
  const [server] = await db.query<{ v: string }>(
    `SELECT version::text AS v FROM server_client_sets WHERE server_id = $1`,
    [serverId],
  );
  const rows = await db.query<{ client_uuid: string }>(
    `SELECT client_uuid FROM server_clients WHERE server_id = $1 AND enabled ORDER BY client_uuid`,
    [serverId],
  );
  return { version: BigInt(server?.v ?? '0'), uuids: rows.map((r) => r.client_uuid) };
}

/** POST create-subscription as a signed-in client. */
export function buy(
  t: TestApp,
  client: { uuid: string; cookie: string },
  serverIds: string[],
  options: { billingCycle?: 'monthly' | 'hourly'; idempotencyKey?: string } = {},
) {
  const request = t
    .http()
    .post('/api/clients/create-subscription')
    .set('Cookie', client.cookie)
    .send({
      uuid: client.uuid,
      serverIds,
      ...(options.billingCycle ? { billingCycle: options.billingCycle } : {}),
    });
  return options.idempotencyKey ? request.set('Idempotency-Key', options.idempotencyKey) : request;
}
