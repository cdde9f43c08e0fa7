import { randomUUID } from 'node:crypto';
import type { VpsTierId } from '@scn/proto';

interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** A server row as the market tests need it; what is left out takes a listed default. */
export interface ServerFixture {
  id?: string;
  ownerUuid: string;
  name?: string;
  source?: 'agent' | 'manual';
  tier?: VpsTierId | null;
  country?: string | null;
  location?: string | null;
  host?: string | null;
  port?: number | null;
  inbound?: Record<string, string>;
  pingMs?: number | null;
  uptimeSeconds?: number;
  reliabilityAtReport?: number;
  lastReportAt?: Date | null;
  bannedAt?: Date | null;
  coreState?: string | null;
  activeClients?: number;
  createdAt?: Date;
  /** A manual server's stored share link, as an upload that passed its check writes it. */
  vlessString?: string | null;
  /** When its VLESS check last passed (manual servers); null (the default): never checked. */
  checkedAt?: Date | null;
}

export async function insertAccount(
  db: Queryable,
  options: { email?: string; userType?: 'client' | 'node'; uuid?: string } = {},
): Promise<string> {
  const uuid = options.uuid ?? randomUUID();
  await db.query(
    `INSERT INTO accounts (uuid, email, user_type, password_hash, name) VALUES ($1, $2, $3, 'x', 'x')`,
    [uuid, options.email ?? `${uuid}@example.com`, options.userType ?? 'node'],
  );
  return uuid;
}

/** Inserts servers in one statement (through the market triggers, like any real write). */
export async function insertServers(
  db: Queryable,
  fixtures: readonly ServerFixture[],
  now: Date,
): Promise<string[]> {
  const rows = fixtures.map((f) => ({
    id: f.id ?? randomUUID(),
    owner: f.ownerUuid,
    name: f.name ?? 'Node',
    source: f.source ?? 'agent',
    tier: f.tier === undefined ? 'tier2' : f.tier,
    country: f.country === undefined ? 'DE' : f.country,
    location: f.location === undefined ? 'Frankfurt' : f.location,
    host: f.host === undefined ? 'node.example' : f.host,
    port: f.port === undefined ? 443 : f.port,
    inbound: JSON.stringify(
      f.inbound ?? {
        security: 'reality',
        sni: 'www.example.com',
        fp: 'chrome',
        pbk: 'pbk',
        sid: 'ab',
        flow: 'xtls-rprx-vision',
        network: 'tcp',
      },
    ),
    ping: f.pingMs === undefined ? 40 : f.pingMs,
    uptime: String(f.uptimeSeconds ?? 3600 * 10),
    reliability: f.reliabilityAtReport ?? 100,
    lastReport: f.lastReportAt === undefined ? now : f.lastReportAt,
    banned: f.bannedAt ?? null,
    core: f.coreState === undefined ? 'running' : f.coreState,
    active: f.activeClients ?? 0,
    created: f.createdAt ?? now,
    vless: f.vlessString ?? null,
    checked: f.checkedAt ?? null,
  }));
  const column = <K extends keyof (typeof rows)[number]>(key: K) => rows.map((r) => r[key]);
  // The manual-server columns only when asked for: a test may run on the schema before them.
  const manual = fixtures.some((f) => f.vlessString !== undefined || f.checkedAt !== undefined);
  await db.query(
    `INSERT INTO servers (id, owner_uuid, name, source, tier, country, location, host, port, inbound,
                          ping_ms, uptime_seconds, reliability_at_report, last_report_at, banned_at,
                          core_state, active_clients, created_at${manual ? ', vless_string, checked_at' : ''})
     SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::varchar[], $4::varchar[], $5::varchar[], $6::char(2)[],
                          $7::varchar[], $8::varchar[], $9::int[], $10::jsonb[], $11::int[], $12::bigint[],
                          $13::smallint[], $14::timestamptz[], $15::timestamptz[], $16::varchar[], $17::int[],
                          $18::timestamptz[]${manual ? ', $19::text[], $20::timestamptz[]' : ''})`,
    [
      column('id'),
      column('owner'),
      column('name'),
      column('source'),
      column('tier'),
      column('country'),
      column('location'),
      column('host'),
      column('port'),
      column('inbound'),
      column('ping'),
      column('uptime'),
      column('reliability'),
      column('lastReport'),
      column('banned'),
      column('core'),
      column('active'),
      column('created'),
      ...(manual ? [column('vless'), column('checked')] : []),
    ],
  );
  return rows.map((r) => r.id);
}

/** Allows `count` fresh client UUIDs on a server (what a subscription does). */
export async function allowClients(db: Queryable, serverId: string, count: number): Promise<void> {
  if (count <= 0) return;
  await db.query(
    `INSERT INTO server_clients (server_id, client_uuid) SELECT $1, gen_random_uuid() FROM generate_series(1, $2)`,
    [serverId, count],
  );
}

/** What the promotions domain will write: the promotion's start and end. */
export async function promote(
  db: Queryable,
  serverId: string,
  promotedAt: Date,
  promotedUntil: Date,
  now: Date,
  /** What the running promotion cost (higher promotions first); null: not recorded. */
  promotionMicro: bigint | null = null,
): Promise<void> {
  await db.query(
    `UPDATE market_listings SET promoted_at = $2, promoted_until = $3::timestamptz, promoted = $3::timestamptz > $4::timestamptz,
       promotion_micro = $5
     WHERE server_id = $1`,
    [serverId, promotedAt, promotedUntil, now, promotionMicro?.toString() ?? null],
  );
}
