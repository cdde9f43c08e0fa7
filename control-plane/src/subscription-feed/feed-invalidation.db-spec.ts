import type { Network, ReachabilityState } from '@scn/proto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { depositSsl } from '../../test/support/ledger';
import {
  SERVICES_CONFIG,
  type SubscribedFeed,
  subscribedFeed,
} from '../../test/support/subscription-services';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import { queryRows } from '../common/sql';
import { dataSourceOptions } from '../database/data-source';
import { PgChannels } from '../database/pg-channels';
import type { PremiumServers } from '../market/premium-servers';
import type { SubscriptionReachabilityReader } from '../subscriptions/subscription-reachability';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';
import { FEED_CHANNEL, FeedInvalidation } from './feed-invalidation';
import { FeedReachability } from './feed-reachability';
import { SubscriptionFeedService } from './subscription-feed.service';

const IRAN: Network = { country: 'IR', asn: 44244, asnName: 'Irancell' };
const ADDRESS = '203.0.113.7';

let db: TestDatabase;
let now = new Date();
const clock = { now: () => now };

/** Reads the estimates the way the reachability domain does, minus freshness: a real table. */
function tableReader(dataSource: DataSource): SubscriptionReachabilityReader {
  return {
    networkOf: (address) =>
      address === ADDRESS ? IRAN : { country: null, asn: null, asnName: null },
    statesFrom: async (ids, network) => {
      const rows = await queryRows<{ server_id: string; state: string }>(
        dataSource,
        `SELECT server_id, state FROM server_reachability
         WHERE server_id = ANY($1::uuid[]) AND country = $2 AND asn = $3`,
        [ids, network.country, network.asn ?? 0],
      );
      return new Map<string, ReachabilityState>(
        rows.map((r) => [r.server_id, r.state === 'b' ? 'blocked' : 'works']),
      );
    },
    workingFrom: () => Promise.resolve([]),
  };
}

/** One replica: its own pool, LISTEN connection, memory and feed service. */
interface Replica {
  dataSource: DataSource;
  repository: SubscriptionsRepository;
  invalidation: FeedInvalidation;
  feeds: SubscriptionFeedService;
  stop(): Promise<void>;
}

async function replica(): Promise<Replica> {
  const dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 4 } });
  await dataSource.initialize();
  const repository = new SubscriptionsRepository(dataSource);
  const invalidation = new FeedInvalidation(new PgChannels(dataSource), SERVICES_CONFIG);
  await invalidation.onModuleInit();
  const feeds = new SubscriptionFeedService(
    repository,
    { operatorEmail: null } as PremiumServers,
    clock,
    SERVICES_CONFIG,
    new FeedReachability(clock, tableReader(dataSource)),
    invalidation,
  );
  return {
    dataSource,
    repository,
    invalidation,
    feeds,
    stop: async () => {
      await invalidation.onModuleDestroy();
      await dataSource.destroy();
    },
  };
}

let a: Replica;
let b: Replica;

beforeAll(async () => {
  db = await createTestDatabase();
  [a, b] = [await replica(), await replica()];
});
afterAll(async () => {
  await a.stop();
  await b.stop();
  await db.drop();
});
beforeEach(() => {
  now = new Date();
});

/** A subscription to three servers bought on replica B: its URL secret, id and servers. */
function subscribed(): Promise<SubscribedFeed> {
  return subscribedFeed(b.dataSource, clock, (client) => depositSsl(db.url, client, 100));
}

/** What a fetch shows that the changes below move (links, state, traffic). */
async function shown(secret: string, address: string | null = ADDRESS) {
  const feed = await a.feeds.feed(secret, address);
  return feed && { state: feed.state, content: feed.content, traffic: feed.downloadBytes };
}

/**
 * Fetches on A until its answer differs from `before` (the notification is asynchronous: it
 * arrives within milliseconds of B's commit); fails after 5 s, which is what a replica that
 * never hears of the change does: it serves its memory forever.
 */
async function changedOnA(secret: string, before: unknown, address: string | null = ADDRESS) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const after = await shown(secret, address);
    if (JSON.stringify(after) !== JSON.stringify(before)) return after;
    if (Date.now() > deadline) throw new Error('replica A still serves the feed from before');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('the feed in memory, invalidated across replicas (LISTEN scn_feed)', () => {
  it('should answer a repeated fetch from memory without a database read', async () => {
    const { secret } = await subscribed();
    const reads = jest.spyOn(a.repository, 'feedSnapshot');
    const first = await shown(secret);
    for (let i = 0; i < 5; i++) expect(await shown(secret)).toEqual(first);
    expect(reads).toHaveBeenCalledTimes(1);
    reads.mockRestore();
  });

  it('should show on replica A every change committed on replica B', async () => {
    const { secret, id, servers } = await subscribed();
    const changes: Array<[string, string, unknown[]]> = [
      ['a server renamed', `UPDATE servers SET name = 'Renamed' WHERE id = $1`, [servers[0]]],
      [
        'the servers reordered',
        `UPDATE subscription_servers SET position = 10 - position WHERE subscription_id = $1`,
        [id],
      ],
      [
        'a server blocked from the requester network',
        `INSERT INTO server_reachability (server_id, country, asn, score, state, observers, probes, measured_at, plan_revision)
         VALUES ($1, 'IR', 44244, 0, 'b', 3, 0, now(), 0)`,
        [servers[1]],
      ],
      [
        'traffic reported',
        `INSERT INTO subscription_traffic_days (subscription_id, server_id, day, upload_bytes, download_bytes)
         VALUES ($1, $2, current_date, 10, 4096)`,
        [id, servers[0]],
      ],
      [
        'the subscription expired',
        `UPDATE subscriptions SET status = 'expired', pause_reason = NULL, paused_at = NULL WHERE id = $1`,
        [id],
      ],
    ];
    let before = await shown(secret);
    expect(await shown(secret)).toEqual(before); // held in memory now
    for (const [what, sql, parameters] of changes) {
      await b.dataSource.query(sql, parameters);
      const after = await changedOnA(secret, before).catch((error: Error) => {
        throw new Error(`${what}: ${error.message}`);
      });
      before = after;
    }
    expect(before).toMatchObject({ state: 'expired', traffic: '4096' });
  });

  it('should refuse a deleted subscription at once on the other replica', async () => {
    const { secret, id } = await subscribed();
    const before = await shown(secret);
    expect(before).not.toBeNull();
    await b.dataSource.query(`UPDATE subscriptions SET status = 'deleted' WHERE id = $1`, [id]);
    expect(await changedOnA(secret, before)).toBeNull();
  });

  it('should read the database again once the paid time is over, with no notification', async () => {
    const { secret } = await subscribed();
    const reads = jest.spyOn(a.repository, 'feedSnapshot');
    const first = await a.feeds.feed(secret);
    await a.feeds.feed(secret);
    expect(reads).toHaveBeenCalledTimes(1);
    now = new Date(first!.expiresAt.getTime() + 1);
    await a.feeds.feed(secret);
    expect(reads).toHaveBeenCalledTimes(2);
    reads.mockRestore();
  });

  it('should record the client network from memory once per network and 10 minutes', async () => {
    const { secret, id } = await subscribed();
    const seen = async () =>
      (
        await queryRows<{ client_country: string | null; client_seen_at: Date | null }>(
          b.dataSource,
          `SELECT client_country, client_seen_at FROM subscriptions WHERE id = $1`,
          [id],
        )
      )[0];
    await a.feeds.feed(secret); // unplaced: nothing recorded, the feed held in memory
    expect((await seen())?.client_country).toBeNull();
    const writes = jest.spyOn(a.repository, 'recordClientNetwork');
    await a.feeds.feed(secret, ADDRESS);
    const first = await seen();
    expect(first?.client_country).toBe('IR');
    await a.feeds.feed(secret, ADDRESS);
    expect(writes).toHaveBeenCalledTimes(1);
    now = new Date(now.getTime() + 11 * 60_000);
    await a.feeds.feed(secret, ADDRESS);
    expect(writes).toHaveBeenCalledTimes(2);
    expect((await seen())!.client_seen_at!.getTime()).toBeGreaterThan(
      first!.client_seen_at!.getTime(),
    );
    writes.mockRestore();
  });

  it('should forget everything and read the database while LISTEN is lost', async () => {
    const { secret } = await subscribed();
    await a.feeds.feed(secret);
    const reads = jest.spyOn(a.repository, 'feedSnapshot');
    await a.feeds.feed(secret);
    expect(reads).toHaveBeenCalledTimes(0);
    // The listening backends go away (a restart, a network cut): PostgreSQL ends them.
    await b.dataSource.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND query LIKE 'LISTEN ${FEED_CHANNEL}%'`,
    );
    const until = async (done: () => boolean) => {
      const deadline = Date.now() + 10_000;
      while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    };
    await until(() => a.invalidation.memory === null);
    // Re-listening waits 250 ms at least: both read the database, nothing is kept meanwhile.
    await a.feeds.feed(secret);
    await a.feeds.feed(secret);
    expect(reads).toHaveBeenCalledTimes(2);
    await until(() => a.invalidation.memory !== null);
    // Back: what was held before is gone (notifications may have been missed), then kept again.
    await a.feeds.feed(secret);
    await a.feeds.feed(secret);
    expect(reads).toHaveBeenCalledTimes(3);
    reads.mockRestore();
  });
});

describe('feed_changed (triggers that NOTIFY scn_feed)', () => {
  let listener: Client;
  const heard: string[] = [];
  beforeAll(async () => {
    listener = new Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (message) => heard.push(message.payload ?? ''));
    await listener.query(`LISTEN ${FEED_CHANNEL}`);
  });
  afterAll(() => listener.end());

  /** What `sql` made PostgreSQL say, up to a marker sent after it. */
  async function notified(sql: string, parameters: unknown[]): Promise<string[]> {
    heard.length = 0;
    await b.dataSource.query(sql, parameters);
    const marker = `m:${Math.random()}`;
    await b.dataSource.query(`SELECT pg_notify($1, $2)`, [FEED_CHANNEL, marker]);
    const deadline = Date.now() + 5_000;
    while (!heard.includes(marker) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    return heard.filter((payload) => payload !== marker);
  }

  it('should name what changed, and stay silent for what a feed does not show', async () => {
    const { id, servers } = await subscribed();
    expect(
      await notified(
        `UPDATE servers SET ping_ms = 42, last_report_at = now(), uptime_seconds = 7 WHERE id = $1`,
        [servers[0]],
      ),
    ).toEqual([]);
    expect(
      await notified(
        `UPDATE subscriptions SET client_country = 'IR', client_asn = 1 WHERE id = $1`,
        [id],
      ),
    ).toEqual([]);
    expect(
      await notified(`UPDATE servers SET port = port + 1 WHERE id = $1`, [servers[0]]),
    ).toEqual([`v:${servers[0]}`]);
    expect(
      await notified(`UPDATE subscriptions SET auto_renew = NOT auto_renew WHERE id = $1`, [id]),
    ).toEqual([`s:${id}`]);
    expect(
      await notified(
        `DELETE FROM subscription_servers WHERE subscription_id = $1 AND server_id = $2`,
        [id, servers[2]],
      ),
    ).toEqual([`s:${id}`]);
    const traffic = `INSERT INTO subscription_traffic_days AS t (subscription_id, server_id, day, upload_bytes, download_bytes)
       SELECT $1, s, current_date, 1, 1 FROM unnest($2::uuid[]) s
       ON CONFLICT (subscription_id, server_id, day) DO UPDATE SET upload_bytes = t.upload_bytes + 1`;
    // One statement, one subscription named once, whether rows were inserted or updated.
    expect(await notified(traffic, [id, servers])).toEqual([`s:${id}`]);
    expect(await notified(traffic, [id, servers])).toEqual([`s:${id}`]);
    expect(
      await notified(
        `INSERT INTO server_reachability (server_id, country, asn, score, state, observers, probes, measured_at, plan_revision)
         VALUES ($1, 'RU', 1, 0, 'w', 1, 0, now(), 0)`,
        [servers[0]],
      ),
    ).toEqual(['r']);
    expect(await notified(`DELETE FROM server_reachability WHERE country = 'ZZ'`, [])).toEqual([]);
  });
});
