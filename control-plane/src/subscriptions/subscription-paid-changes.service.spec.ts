import {
  fakePayments,
  fakeUnableServers,
  inlineTransactions,
  NOW,
  OWNER,
  SUBSCRIPTION_ID,
  subscribableServer,
  subscriptionRecord,
  VLESS_UUID,
} from '../../test/support/subscription-fixtures';
import type { PremiumServers } from '../market/premium-servers';
import { ClientSetRefusal } from '../client-sets/client-sets.repository';
import type { ClientSetsService } from '../client-sets/client-sets.service';
import type { IdempotencyService } from '../wallet/idempotency.service';
import type { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionPaidChangesService } from './subscription-paid-changes.service';
import type { SubscriptionViewsService } from './subscription-views.service';
import type { SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';
import type { SubscriptionsNotifier } from './subscriptions.notifier';

const SSL = 1_000_000n;
const A = 'aaaa0000-0000-4000-8000-000000000001';
const B = 'bbbb0000-0000-4000-8000-000000000002';

interface Setup {
  record: SubscriptionRecord;
  balance?: bigint;
  /** Servers that cannot serve any more (dropped before pricing). */
  unable?: string[];
  /** Clients already on each server. */
  taken?: number;
}

function paidChangesWith({ record, balance = 100n * SSL, unable = [], taken = 0 }: Setup) {
  const writes: unknown[][] = [];
  const events: string[] = [];
  const servers = [subscribableServer(A), subscribableServer(B)];
  const repository = {
    serversFor: () => Promise.resolve(servers),
    lockServers: (_tx: unknown, ids: string[]) =>
      Promise.resolve(servers.filter((server) => ids.includes(server.id))),
    update: (_tx: unknown, id: string, changes: object) => {
      writes.push(['update', id, changes]);
      return Promise.resolve();
    },
  } as unknown as SubscriptionsRepository;
  const idempotency = {
    once: async (_o: string, _k: string, _r: unknown, work: (tx: unknown) => Promise<unknown>) => ({
      body: await work({}),
      replayed: false,
    }),
  } as unknown as IdempotencyService;
  const lifecycle = {
    lockOwned: () => Promise.resolve(record),
    resume: (_tx: unknown, _r: unknown, at: Date, pausedMs: number) => {
      writes.push(['resume', at, pausedMs]);
      return Promise.resolve({ success: true, message: 'resumed', chargedMicro: '0' });
    },
  } as unknown as SubscriptionLifecycleService;
  const nodes = {
    // client_sets_take: refuses the first full server (tier1 takes 10), else adds the client.
    take: (_tx: unknown, places: Array<{ id: string }>, uuid: string) => {
      if (taken >= 10) return Promise.reject(new ClientSetRefusal('server_full', places[0]!.id));
      writes.push(['take', places.map((place) => place.id), uuid]);
      return Promise.resolve(places.map((place) => place.id));
    },
    removeClients: (_tx: unknown, ids: string[], uuid: string) => {
      writes.push(['removeClients', ids, uuid]);
      return Promise.resolve();
    },
  } as unknown as ClientSetsService;
  const views = {
    actionResponse: (_tx: unknown, message: string, updated: SubscriptionRecord) =>
      Promise.resolve({ success: true, message, subscription: updated, chargedMicro: '0' }),
    viewIn: (_tx: unknown, updated: SubscriptionRecord) => Promise.resolve(updated),
  } as unknown as SubscriptionViewsService;
  const service = new SubscriptionPaidChangesService(
    inlineTransactions().runner,
    repository,
    idempotency,
    fakePayments(balance, writes),
    lifecycle,
    fakeUnableServers(unable),
    nodes,
    views,
    { changed: () => events.push('changed') } as unknown as SubscriptionsNotifier,
    { operatorEmail: null } as PremiumServers,
    { now: () => NOW },
  );
  return { service, writes, events };
}

const expired = subscriptionRecord({ status: 'expired', periodIndex: 3 });

describe('SubscriptionPaidChangesService.activate', () => {
  it('should resume a client pause for free, the paid time running on', async () => {
    const pausedAt = new Date(NOW.getTime() - 3_600_000);
    const record = subscriptionRecord({ status: 'paused', pauseReason: 'user', pausedAt });
    const { service, writes, events } = paidChangesWith({ record });
    await service.activate(OWNER, SUBSCRIPTION_ID, undefined);
    expect(writes).toEqual([['resume', NOW, 3_600_000]]);
    expect(events).toEqual(['changed']);
  });

  it('should pay a new period for the servers that can serve and put it back on them', async () => {
    const { service, writes } = paidChangesWith({ record: expired, unable: [B] });
    const answer = await service.activate(OWNER, SUBSCRIPTION_ID, 'key-1');
    expect(writes).toEqual([
      ['take', [A], VLESS_UUID],
      ['charge', 'activation', 'monthly', 1, undefined],
      [
        'update',
        SUBSCRIPTION_ID,
        {
          status: 'active',
          periodIndex: 4,
          expiresAt: new Date(NOW.getTime() + 30 * 86_400_000),
          pausedAt: null,
          pauseEndsAt: null,
          pauseReason: null,
        },
      ],
    ]);
    expect(answer).toMatchObject({ chargedMicro: '10000000', paymentId: 'p1' });
  });

  it('should answer 402 with balance and price, and pay nothing, when the wallet is short', async () => {
    const { service, writes } = paidChangesWith({ record: expired, balance: 15n * SSL });
    await expect(service.activate(OWNER, SUBSCRIPTION_ID, undefined)).rejects.toMatchObject({
      code: 'activate_insufficient',
    });
    // The places were taken first; the refusal rolls them back with the transaction.
    expect(writes).toEqual([['take', [A, B], VLESS_UUID]]);
  });

  it('should refuse when a server is full again, or none can serve, or it is running', async () => {
    const full = paidChangesWith({ record: expired, taken: 10 });
    await expect(full.service.activate(OWNER, SUBSCRIPTION_ID, undefined)).rejects.toMatchObject({
      code: 'server_full',
    });
    const none = paidChangesWith({ record: expired, unable: [A, B] });
    await expect(none.service.activate(OWNER, SUBSCRIPTION_ID, undefined)).rejects.toMatchObject({
      code: 'no_servers_left',
    });
    const running = paidChangesWith({ record: subscriptionRecord() });
    await expect(running.service.activate(OWNER, SUBSCRIPTION_ID, undefined)).rejects.toMatchObject(
      { code: 'not_paused' },
    );
    expect([...full.writes, ...none.writes, ...running.writes]).toEqual([]);
  });
});

describe('SubscriptionPaidChangesService.changeType', () => {
  it('should pay a period of the new cycle starting now', async () => {
    const { service, writes } = paidChangesWith({ record: subscriptionRecord() });
    const answer = await service.changeType(OWNER, SUBSCRIPTION_ID, 'hourly', undefined);
    expect(writes).toEqual([
      ['charge', 'billing_change', 'hourly', 2, undefined],
      [
        'update',
        SUBSCRIPTION_ID,
        {
          billingCycle: 'hourly',
          periodIndex: 2,
          expiresAt: new Date(NOW.getTime() + 100 * 3_600_000),
        },
      ],
    ]);
    expect(answer).toMatchObject({
      automaticallyPaused: false,
      walletBalanceMicro: '80000000',
      chargedMicro: '20000000',
    });
  });

  it('should pause with the new cycle and leave the nodes when the wallet is short', async () => {
    const { service, writes } = paidChangesWith({
      record: subscriptionRecord(),
      balance: 5n * SSL,
    });
    const answer = await service.changeType(OWNER, SUBSCRIPTION_ID, 'hourly', undefined);
    expect(writes).toEqual([
      [
        'update',
        SUBSCRIPTION_ID,
        {
          status: 'paused',
          billingCycle: 'hourly',
          pausedAt: NOW,
          pauseEndsAt: null,
          pauseReason: 'insufficient_funds',
        },
      ],
      ['removeClients', [A, B], VLESS_UUID],
    ]);
    expect(answer).toMatchObject({
      automaticallyPaused: true,
      availableBalance: 5,
      requiredAmount: 20,
      chargedMicro: '0',
      paymentId: null,
    });
  });

  it('should refuse the same cycle, and a subscription that is not active', async () => {
    const same = paidChangesWith({ record: subscriptionRecord() });
    await expect(
      same.service.changeType(OWNER, SUBSCRIPTION_ID, 'monthly', undefined),
    ).rejects.toMatchObject({ code: 'same_billing_cycle' });
    const paused = paidChangesWith({ record: expired });
    await expect(
      paused.service.changeType(OWNER, SUBSCRIPTION_ID, 'hourly', undefined),
    ).rejects.toMatchObject({ code: 'not_active' });
  });
});
