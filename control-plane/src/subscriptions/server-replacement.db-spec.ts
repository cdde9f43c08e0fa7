import { randomUUID } from 'node:crypto';
import type { VpsTierId } from '@scn/proto';
import { DataSource } from 'typeorm';
import { depositSsl, ledgerViolations } from '../../test/support/ledger';
import { allowClients, insertAccount, insertServers } from '../../test/support/market-fixtures';
import { SERVICES_CONFIG, subscriptionServices } from '../../test/support/subscription-services';
import { clientSetOf, platformRevenue, walletBalance } from '../../test/support/subscriptions';
import { setReachability, TableReachability } from '../../test/support/table-reachability';
import { createTestDatabase, type TestDatabase } from '../../test/support/test-database';
import type { ActiveSession } from '../auth/auth.repository';
import { ClientSetsRepository } from '../client-sets/client-sets.repository';
import { ClientSetsService } from '../client-sets/client-sets.service';
import { queryRows } from '../common/sql';
import { dataSourceOptions } from '../database/data-source';
import { TransactionRunner } from '../database/transaction-runner';
import type { PremiumServers } from '../market/premium-servers';
import type { RealtimeGateway } from '../realtime/realtime.gateway';
import { LedgerService } from '../wallet/ledger.service';
import { WalletRepository } from '../wallet/wallet.repository';
import { ServerReplacements } from './server-replacement.service';
import { ServerReplacementsRepository } from './server-replacements.repository';
import { ServerDropService } from './server-drop.service';
import { ServerDropsRepository } from './server-drops.repository';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { SubscriptionsNotifier } from './subscriptions.notifier';
import { SubscriptionsRepository } from './subscriptions.repository';

const SSL = 1_000_000n;
const DAY = 86_400_000;
/** Each scenario's client in its own network, so no scenario sees another's candidates. */
let nextAsn = 44244;
let db: TestDatabase;
let dataSource: DataSource;
let now = new Date();
let services: ReturnType<typeof subscriptionServices>;
let replacements: ServerReplacements;
let clientSets: ClientSetsService;
const events: Array<[string, string]> = [];

beforeAll(async () => {
  db = await createTestDatabase();
  dataSource = new DataSource({ ...dataSourceOptions(db.url), extra: { max: 30 } });
  await dataSource.initialize();
  const clock = { now: () => now };
  services = subscriptionServices(dataSource, clock);
  const ledger = new LedgerService(new WalletRepository(dataSource));
  const subscriptions = new SubscriptionsRepository(dataSource);
  const realtime = {
    serverListUpdated: () => undefined,
    subscriptionUpdated: (account: string, reason: string) => events.push([account, reason]),
  } as unknown as RealtimeGateway;
  clientSets = new ClientSetsService(new ClientSetsRepository(dataSource));
  replacements = new ServerReplacements(
    new ServerReplacementsRepository(dataSource),
    subscriptions,
    new ServerDropService(new ServerDropsRepository(dataSource), subscriptions, ledger),
    new SubscriptionPaymentsService(ledger, SERVICES_CONFIG),
    clientSets,
    ledger,
    { operatorEmail: null } as PremiumServers,
    new TransactionRunner(dataSource),
    new SubscriptionsNotifier(realtime),
    realtime,
    clock,
    new TableReachability(dataSource),
  );
});
afterAll(async () => {
  await services.purchases.onModuleDestroy();
  await dataSource.destroy();
  await db.drop();
});
afterEach(async () => expect(await ledgerViolations(db.url)).toEqual([]));

interface CandidateSpec {
  name: string;
  score: number;
  tier?: VpsTierId;
  /** Clients already on it. */
  clients?: number;
}

/**
 * A client bought a monthly subscription to one tier2 server of operator A (10 SSL, A rewarded
 * 10 SSL frozen); 12 days later its client, last seen in IR/44244, finds it blocked there since
 * now, and operator B's candidates work there.
 */
async function scenario(candidates: readonly CandidateSpec[]) {
  const IR = { country: 'IR', asn: nextAsn++ };
  const start = new Date(Date.now() - 12 * DAY);
  now = start;
  const operatorA = await insertAccount(dataSource, { userType: 'node' });
  const operatorB = await insertAccount(dataSource, { userType: 'node' });
  const client = await insertAccount(dataSource, { userType: 'client' });
  await depositSsl(db.url, client, 50);
  const [blocked] = await insertServers(
    dataSource,
    [{ ownerUuid: operatorA, name: 'Blocked', tier: 'tier2' }],
    start,
  );
  const ids = await insertServers(
    dataSource,
    candidates.map((c) => ({ ownerUuid: operatorB, name: c.name, tier: c.tier ?? 'tier2' })),
    start,
  );
  const byName = new Map(candidates.map((c, i) => [c.name, ids[i]!]));
  const session = { account: { uuid: client, userType: 'client' } } as ActiveSession;
  const created = await services.purchase.create(
    session,
    { uuid: client, serverIds: [blocked!], billingCycle: 'monthly' },
    undefined,
  );
  const id = created.subscriptionId;
  now = new Date(start.getTime() + 12 * DAY);
  await dataSource.query(`UPDATE servers SET last_report_at = $2 WHERE id = ANY($1::uuid[])`, [
    [blocked, ...ids],
    now,
  ]);
  await dataSource.query(
    `UPDATE subscriptions SET client_country = $2, client_asn = $3, client_seen_at = $4
     WHERE id = $1`,
    [id, IR.country, IR.asn, new Date(now.getTime() - 3_600_000)],
  );
  await setReachability(dataSource, {
    serverId: blocked!,
    ...IR,
    state: 'b',
    score: 0,
    measuredAt: now,
    blockedSince: now,
  });
  for (const [i, c] of candidates.entries()) {
    await setReachability(dataSource, {
      serverId: ids[i]!,
      ...IR,
      state: 'w',
      score: c.score,
      measuredAt: now,
    });
    await allowClients(dataSource, ids[i]!, c.clients ?? 0);
  }
  const [sub] = await queryRows<{ vless_uuid: string }>(
    dataSource,
    `SELECT vless_uuid FROM subscriptions WHERE id = $1`,
    [id],
  );
  return {
    operatorA,
    operatorB,
    client,
    id,
    blocked: blocked!,
    byName,
    vless: sub!.vless_uuid,
    asn: IR.asn,
  };
}

async function serversOf(id: string): Promise<string[]> {
  const rows = await queryRows<{ server_id: string }>(
    dataSource,
    `SELECT server_id FROM subscription_servers WHERE subscription_id = $1 ORDER BY position`,
    [id],
  );
  return rows.map((row) => row.server_id);
}

async function movements(id: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    dataSource,
    `SELECT count(*)::int AS n FROM ledger_transactions WHERE subscription_id = $1`,
    [id],
  );
  return row!.n;
}

describe('ServerReplacements (real database)', () => {
  it('should swap a blocked server once when 20 runs race, moving the unused time to the replacement operator', async () => {
    const s = await scenario([
      { name: 'Second', score: 800 },
      { name: 'Best', score: 950 },
    ]);
    const best = s.byName.get('Best')!;
    const before = {
      client: await walletBalance(dataSource, s.client),
      platform: await platformRevenue(dataSource),
      blockedSet: await clientSetOf(dataSource, s.blocked),
      bestSet: await clientSetOf(dataSource, best),
    };
    expect(await walletBalance(dataSource, s.operatorA, 'node_wallet')).toBe(10n * SSL);

    const counts = await Promise.all(Array.from({ length: 20 }, () => replacements.replaceDue()));
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);

    expect(await serversOf(s.id)).toEqual([best]);
    // 10 SSL for the server x 18 of 30 days left = 6 SSL: from A's reward, to B, frozen.
    expect(await walletBalance(dataSource, s.client)).toBe(before.client);
    expect(await walletBalance(dataSource, s.operatorA, 'node_wallet')).toBe(4n * SSL);
    expect(await walletBalance(dataSource, s.operatorB, 'node_wallet')).toBe(6n * SSL);
    expect(await platformRevenue(dataSource)).toBe(before.platform);
    const [row] = await queryRows<{
      id: string;
      moved_micro: string;
      replacement_server_id: string;
    }>(
      dataSource,
      `SELECT id, moved_micro::text, replacement_server_id FROM subscription_replacements
       WHERE subscription_id = $1`,
      [s.id],
    );
    expect(row).toMatchObject({ moved_micro: (6n * SSL).toString(), replacement_server_id: best });
    const entries = await queryRows<{ kind: string; amount: string; frozen: boolean }>(
      dataSource,
      `SELECT a.kind, e.amount_micro::text AS amount, e.frozen_until IS NOT NULL AS frozen
       FROM ledger_transactions t JOIN ledger_entries e ON e.transaction_id = t.id
         JOIN ledger_accounts a ON a.id = e.account_id
       WHERE t.external_ref = $1 AND t.type = 'server_replacement' ORDER BY e.amount_micro`,
      [`replacement:${row!.id}`],
    );
    expect(entries).toEqual([
      { kind: 'node_wallet', amount: (-6n * SSL).toString(), frozen: true },
      { kind: 'node_wallet', amount: (6n * SSL).toString(), frozen: true },
    ]);
    // The client sets: the uuid left the blocked server and took a place on the replacement.
    const blockedSet = await clientSetOf(dataSource, s.blocked);
    const bestSet = await clientSetOf(dataSource, best);
    expect(blockedSet.uuids).not.toContain(s.vless);
    expect(bestSet.uuids).toContain(s.vless);
    expect(blockedSet.version).toBeGreaterThan(before.blockedSet.version);
    expect(bestSet.version).toBeGreaterThan(before.bestSet.version);
    expect(events).toContainEqual([s.client, 'server_replaced']);
    // The view of the current period says so; the feed follows subscription_servers.
    const [shown] = await services.views.listActive(s.client);
    expect(shown!.serverIds).toEqual([best]);
    expect(shown!.replacements).toEqual([
      {
        blockedServerName: 'Blocked',
        replacementServerName: 'Best',
        country: 'IR',
        asn: s.asn,
        replacedAt: now.toISOString(),
      },
    ]);
    // Nothing is left to replace: another run moves nothing.
    expect(await replacements.replaceDue()).toBe(0);
  });

  it('should renew afterwards with the replacement at its price, rewarding its operator', async () => {
    const s = await scenario([{ name: 'Only', score: 900 }]);
    expect(await replacements.replaceDue([s.blocked])).toBe(1);
    const balance = await walletBalance(dataSource, s.client);
    await dataSource.query(`UPDATE subscriptions SET expires_at = $2 WHERE id = $1`, [
      s.id,
      new Date(now.getTime() - 1000),
    ]);
    const settled = await services.billing.settleDue();
    expect(settled.renewed).toBeGreaterThanOrEqual(1);
    expect(await walletBalance(dataSource, s.client)).toBe(balance - 10n * SSL);
    // 6 SSL moved in by the replacement, 10 SSL reward for the renewed period.
    expect(await walletBalance(dataSource, s.operatorB, 'node_wallet')).toBe(16n * SSL);
    expect(await serversOf(s.id)).toEqual([s.byName.get('Only')]);
  });

  it('should skip a full replacement server for the next one', async () => {
    const s = await scenario([
      { name: 'Full', score: 990, clients: 25 },
      { name: 'Next', score: 700 },
    ]);
    expect(await replacements.replaceDue()).toBe(1);
    expect(await serversOf(s.id)).toEqual([s.byName.get('Next')]);
  });

  it('should take the next candidate when the best one fills up while it waits for its place', async () => {
    const s = await scenario([
      { name: 'Last place', score: 990, clients: 24 },
      { name: 'Next', score: 700 },
    ]);
    const lastPlace = s.byName.get('Last place')!;
    // Another client takes the last place in a transaction still open when the run reads the
    // candidates: the run waits on the client set's lock, then client_sets_take refuses it.
    const holder = dataSource.createQueryRunner();
    await holder.connect();
    await holder.startTransaction();
    await clientSets.take(holder.manager, [{ id: lastPlace }], randomUUID());
    const run = replacements.replaceIn(s.id);
    await new Promise((resolve) => setTimeout(resolve, 500));
    await holder.commitTransaction();
    await holder.release();
    expect(await run).toBe(1);
    expect(await serversOf(s.id)).toEqual([s.byName.get('Next')]);
    expect((await clientSetOf(dataSource, lastPlace)).uuids).not.toContain(s.vless);
    expect((await clientSetOf(dataSource, s.blocked)).uuids).not.toContain(s.vless);
    const [row] = await queryRows<{ n: number }>(
      dataSource,
      `SELECT count(*)::int AS n FROM subscription_replacements WHERE subscription_id = $1`,
      [s.id],
    );
    expect(row!.n).toBe(1);
  });

  it('should move nothing when no candidate is comparable', async () => {
    const s = await scenario([{ name: 'Smaller', score: 990, tier: 'tier1' }]);
    const before = {
      movements: await movements(s.id),
      a: await walletBalance(dataSource, s.operatorA, 'node_wallet'),
      set: await clientSetOf(dataSource, s.blocked),
    };
    expect(await replacements.replaceDue()).toBe(0);
    expect(await serversOf(s.id)).toEqual([s.blocked]);
    expect(await movements(s.id)).toBe(before.movements);
    expect(await walletBalance(dataSource, s.operatorA, 'node_wallet')).toBe(before.a);
    expect(await walletBalance(dataSource, s.operatorB, 'node_wallet')).toBe(0n);
    expect(await clientSetOf(dataSource, s.blocked)).toEqual(before.set);
  });

  it('should replace nothing for a client not seen within 7 days', async () => {
    const s = await scenario([{ name: 'Works', score: 990 }]);
    await dataSource.query(`UPDATE subscriptions SET client_seen_at = $2 WHERE id = $1`, [
      s.id,
      new Date(now.getTime() - 8 * DAY),
    ]);
    expect(await replacements.replaceIn(s.id)).toBe(0);
    expect(await serversOf(s.id)).toEqual([s.blocked]);
  });
});
