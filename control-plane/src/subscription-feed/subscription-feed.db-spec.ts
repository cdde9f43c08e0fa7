import type { Network, ReachabilityState } from '@scn/proto';
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
import type { PremiumServers } from '../market/premium-servers';
import { FeedReachability } from './feed-reachability';
import { FEED_FORMATS } from './feed-formats/client-format';
import { clientAppOf } from './feed-formats/client-app';
import { SubscriptionFeedService } from './subscription-feed.service';
import type { SubscriptionReachabilityReader } from '../subscriptions/subscription-reachability';
import { SubscriptionsRepository } from '../subscriptions/subscriptions.repository';

/** The requester's network in these tests, and what the reachability domain says from there. */
const IRAN: Network = { country: 'IR', asn: 44244, asnName: 'Irancell' };
const states = new Map<string, ReachabilityState>();
const reader: SubscriptionReachabilityReader = {
  networkOf: (address) =>
    address === '203.0.113.7' ? IRAN : { country: null, asn: null, asnName: null },
  statesFrom: (ids) =>
    Promise.resolve(new Map(ids.flatMap((id) => (states.has(id) ? [[id, states.get(id)!]] : [])))),
  workingFrom: () => Promise.resolve([]),
};

let db: TestDatabase;
let dataSource: DataSource;
let repository: SubscriptionsRepository;
const now = new Date();
const clock = { now: () => now };

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 5 } });
  await dataSource.initialize();
  repository = new SubscriptionsRepository(dataSource);
});
afterAll(async () => {
  await dataSource.destroy();
  await db.drop();
});

/** A feed service with empty caches over the same database: the uncached answer. */
function feedService(): SubscriptionFeedService {
  return new SubscriptionFeedService(
    repository,
    { operatorEmail: null } as PremiumServers,
    clock,
    SERVICES_CONFIG,
    new FeedReachability(clock, reader),
  );
}

/** A subscription to three servers: its URL secret, id and servers. */
function subscribed(): Promise<SubscribedFeed> {
  return subscribedFeed(dataSource, clock, (client) => depositSsl(db.url, client, 100));
}

/** Every answer the URL gives (each format, the page in two languages), from `service`. */
async function answers(service: SubscriptionFeedService, secret: string, address: string | null) {
  const feed = await service.feed(secret, address);
  if (!feed) return null;
  const out: Record<string, string> = { content: feed.content, title: feed.title };
  for (const format of FEED_FORMATS) {
    if (format === 'html') continue;
    for (const client of [null, clientAppOf('SFA/1.11.4 (sing-box 1.11.4)')]) {
      for (const fakeIp of [false, true]) {
        out[`${format}/${client?.name ?? '-'}/${fakeIp}`] = service.render(feed, format, {
          client,
          fakeIp,
        }).body;
      }
    }
  }
  out['html/en'] = service.page(feed, 'en');
  out['html/fa'] = service.page(feed, 'fa');
  return out;
}

describe('SubscriptionFeedService over PostgreSQL', () => {
  const cached = () => shared;
  let shared: SubscriptionFeedService;
  beforeAll(() => {
    shared = feedService();
  });

  it('should serve from its caches exactly what an uncached build serves, after every change', async () => {
    const { secret, id, servers } = await subscribed();
    const address = '203.0.113.7';
    const changes: Array<[string, () => Promise<unknown>]> = [
      [
        'a server port',
        () => dataSource.query(`UPDATE servers SET port = port + 1 WHERE id = $1`, [servers[0]]),
      ],
      [
        'a server name',
        () => dataSource.query(`UPDATE servers SET name = 'Renamed' WHERE id = $1`, [servers[1]]),
      ],
      [
        'a server address',
        () =>
          dataSource.query(`UPDATE servers SET host = 'moved.example' WHERE id = $1`, [servers[2]]),
      ],
      [
        'the servers reordered',
        () =>
          dataSource.query(
            `UPDATE subscription_servers SET position = 10 - position WHERE subscription_id = $1`,
            [id],
          ),
      ],
      ['a server blocked on the requester network', async () => states.set(servers[0]!, 'blocked')],
      ['a server working there', async () => states.set(servers[1]!, 'works')],
      [
        'a server dropped',
        () =>
          dataSource.query(
            `DELETE FROM subscription_servers WHERE subscription_id = $1 AND server_id = $2`,
            [id, servers[2]],
          ),
      ],
      [
        'the uuid rotated',
        () =>
          dataSource.query(
            `UPDATE subscriptions SET vless_uuid = gen_random_uuid() WHERE id = $1`,
            [id],
          ),
      ],
      [
        'the subscription paused',
        () =>
          dataSource.query(
            `UPDATE subscriptions SET status = 'paused', pause_reason = 'user', paused_at = now() WHERE id = $1`,
            [id],
          ),
      ],
      [
        'the subscription expired',
        () =>
          dataSource.query(
            `UPDATE subscriptions SET status = 'expired', pause_reason = NULL, paused_at = NULL WHERE id = $1`,
            [id],
          ),
      ],
    ];
    let before = await answers(cached(), secret, address);
    expect(before).toEqual(await answers(feedService(), secret, address));
    for (const [what, change] of changes) {
      await change();
      const after = await answers(cached(), secret, address);
      const fresh = await answers(feedService(), secret, address);
      expect({ what, same: after }).toEqual({ what, same: fresh });
      expect({
        what,
        changed: after!.content !== before!.content || after!['html/en'] !== before!['html/en'],
      }).toEqual({ what, changed: true });
      before = after;
    }
    await dataSource.query(`UPDATE subscriptions SET status = 'deleted' WHERE id = $1`, [id]);
    expect(await cached().feed(secret, address)).toBeNull();
  });

  it('should not read the servers again for a report, and should for a change of a link column', async () => {
    const { secret, servers } = await subscribed();
    const service = feedService();
    const reads = jest.spyOn(repository, 'serversOf');
    await service.feed(secret);
    await dataSource.query(
      `UPDATE servers SET last_report_at = now(), reliability_at_report = 42 WHERE id = ANY($1::uuid[])`,
      [servers],
    );
    await service.feed(secret);
    expect(reads).toHaveBeenCalledTimes(1);
    await dataSource.query(
      `UPDATE servers SET inbound = inbound || '{"sni":"other.example"}' WHERE id = $1`,
      [servers[0]],
    );
    await service.feed(secret);
    expect(reads).toHaveBeenCalledTimes(2);
    reads.mockRestore();
  });

  it('should record where the client fetched from, in the same read, once per network and 10 minutes', async () => {
    const { secret, id } = await subscribed();
    const seen = async () => {
      const [row] = await queryRows<{ client_country: string | null; client_asn: number | null }>(
        dataSource,
        `SELECT client_country, client_asn FROM subscriptions WHERE id = $1`,
        [id],
      );
      return row;
    };
    await feedService().feed(secret, '198.51.100.1');
    expect(await seen()).toEqual({ client_country: null, client_asn: null });
    await feedService().feed(secret, '203.0.113.7');
    expect(await seen()).toEqual({ client_country: 'IR', client_asn: 44244 });
  });
});
