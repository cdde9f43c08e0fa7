import type { DataSource } from 'typeorm';
import { depositSsl } from '../../test/support/ledger';
import { insertAccount, insertServers } from '../../test/support/market-fixtures';
import { subscriptionServices } from '../../test/support/subscription-services';
import type { ActiveSession } from '../auth/auth.repository';
import type { Clock } from '../common/clock';

/** A subscribed feed: its URL secret, the subscription's id and its servers' ids. */
export interface SubscribedFeed {
  secret: string;
  id: string;
  servers: string[];
}

/**
 * A client funded with 100 SSL that bought a monthly subscription to three servers of one
 * operator, through the purchase service over `dataSource` (whose database is at `databaseUrl`).
 */
export async function subscribedFeed(
  dataSource: DataSource,
  databaseUrl: string,
  clock: Clock,
): Promise<SubscribedFeed> {
  const services = subscriptionServices(dataSource, clock);
  const operator = await insertAccount(dataSource, { userType: 'node' });
  const client = await insertAccount(dataSource, { userType: 'client' });
  await depositSsl(databaseUrl, client, 100);
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
