import type { DataSource } from 'typeorm';
import type { ActiveSession } from '../../src/auth/auth.repository';
import type { Clock } from '../../src/common/clock';
import type { AppConfig } from '../../src/config/app-config';
import { TransactionRunner } from '../../src/database/transaction-runner';
import type { PremiumServers } from '../../src/market/premium-servers';
import { ClientSetsRepository } from '../../src/client-sets/client-sets.repository';
import { ClientSetsService } from '../../src/client-sets/client-sets.service';
import type { RealtimeGateway } from '../../src/realtime/realtime.gateway';
import { PurchasesRepository } from '../../src/subscriptions/purchases.repository';
import { ServerDropService } from '../../src/subscriptions/server-drop.service';
import { ServerDropsRepository } from '../../src/subscriptions/server-drops.repository';
import { ServerReplacementsRepository } from '../../src/subscriptions/server-replacements.repository';
import { SubscriptionBillingService } from '../../src/subscriptions/subscription-billing.service';
import { SubscriptionLifecycleService } from '../../src/subscriptions/subscription-lifecycle.service';
import { SubscriptionPaidChangesService } from '../../src/subscriptions/subscription-paid-changes.service';
import { SubscriptionPaymentsService } from '../../src/subscriptions/subscription-payments.service';
import { SubscriptionPurchaseService } from '../../src/subscriptions/subscription-purchase.service';
import { SubscriptionViewsService } from '../../src/subscriptions/subscription-views.service';
import { SubscriptionsNotifier } from '../../src/subscriptions/subscriptions.notifier';
import { SubscriptionsRepository } from '../../src/subscriptions/subscriptions.repository';
import { UnableServersService } from '../../src/subscriptions/unable-servers.service';
import { IdempotencyRepository } from '../../src/wallet/idempotency.repository';
import { IdempotencyService } from '../../src/wallet/idempotency.service';
import { LedgerService } from '../../src/wallet/ledger.service';
import { WalletRepository } from '../../src/wallet/wallet.repository';
import { insertAccount, insertServers } from './market-fixtures';

export const SERVICES_CONFIG = {
  appSecret: 'db-spec-secret-'.padEnd(32, 'x'),
  publicUrl: 'https://scn.test',
  launchPeriodEndsAt: new Date('2020-01-01T00:00:00Z'),
  feedCache: { subscriptions: 1000, networks: 1000, renderedBytes: 16 * 1024 * 1024 },
} as AppConfig;

/**
 * The subscription services wired as the module wires them, over a real database, for db-specs,
 * the client sets included (the capacity rule is client_sets_take's).
 */
export function subscriptionServices(dataSource: DataSource, clock: Clock) {
  const nodes = new ClientSetsService(new ClientSetsRepository(dataSource));
  const realtime = { serverListUpdated: () => undefined } as unknown as RealtimeGateway;
  const premium = { operatorEmail: null } as PremiumServers;
  const transactions = new TransactionRunner(dataSource);
  const repository = new SubscriptionsRepository(dataSource);
  const dropRecords = new ServerDropsRepository(dataSource);
  const ledger = new LedgerService(new WalletRepository(dataSource));
  const unableServers = new UnableServersService(
    new ServerDropService(dropRecords, repository, ledger),
    dropRecords,
    repository,
    nodes,
    realtime,
    transactions,
    clock,
  );
  const notifier = new SubscriptionsNotifier(realtime);
  const payments = new SubscriptionPaymentsService(ledger, SERVICES_CONFIG);
  const views = new SubscriptionViewsService(
    repository,
    dropRecords,
    new ServerReplacementsRepository(dataSource),
    premium,
    clock,
    SERVICES_CONFIG,
  );
  const lifecycle = new SubscriptionLifecycleService(
    transactions,
    repository,
    nodes,
    views,
    notifier,
    premium,
    clock,
  );
  const purchases = new PurchasesRepository(dataSource);
  const idempotency = new IdempotencyService(transactions, new IdempotencyRepository(dataSource));
  return {
    purchases,
    purchase: new SubscriptionPurchaseService(
      repository,
      purchases,
      idempotency,
      payments,
      views,
      notifier,
      premium,
      clock,
    ),
    views,
    lifecycle,
    paidChanges: new SubscriptionPaidChangesService(
      transactions,
      repository,
      idempotency,
      payments,
      lifecycle,
      unableServers,
      nodes,
      views,
      notifier,
      premium,
      clock,
    ),
    billing: new SubscriptionBillingService(
      transactions,
      repository,
      payments,
      lifecycle,
      unableServers,
      nodes,
      notifier,
      premium,
      clock,
    ),
  };
}

/** A subscription's feed: its URL secret, the subscription's id and its servers' ids. */
export interface SubscribedFeed {
  secret: string;
  id: string;
  servers: string[];
}

/**
 * A client that bought a monthly subscription to three servers of one operator through the
 * purchase service over `dataSource`; `fund` gives the client its money first (end-to-end suites
 * through the chain, database specs through the SQL helper).
 */
export async function subscribedFeed(
  dataSource: DataSource,
  clock: Clock,
  fund: (client: string) => Promise<void>,
): Promise<SubscribedFeed> {
  const services = subscriptionServices(dataSource, clock);
  const operator = await insertAccount(dataSource, { userType: 'node' });
  const client = await insertAccount(dataSource, { userType: 'client' });
  await fund(client);
  const servers = await insertServers(
    dataSource,
    [{ ownerUuid: operator }, { ownerUuid: operator }, { ownerUuid: operator }],
    clock.now(),
  );
  const session = { account: { uuid: client, userType: 'client' } } as ActiveSession;
  const created = await services.purchase.create(
    session,
    { uuid: client, serverIds: servers, billingCycle: 'monthly' },
    undefined,
  );
  const [listed] = await services.views.listActive(client);
  await services.purchases.onModuleDestroy();
  return {
    secret: listed!.subscriptionUrl.split('/sub/')[1]!,
    id: created.subscriptionId,
    servers,
  };
}
