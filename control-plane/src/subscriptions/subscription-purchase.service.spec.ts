import type { ServerReplacementsRepository } from './server-replacements.repository';
import { NOW, OWNER, subscribableServer } from '../../test/support/subscription-fixtures';
import type { ActiveSession } from '../auth/auth.repository';
import type { AppConfig } from '../config/app-config';
import type { PremiumServers } from '../market/premium-servers';
import type { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletException } from '../wallet/wallet.exception';
import type { WalletRepository } from '../wallet/wallet.repository';
import type { PurchaseOutcome, PurchaseWrite, PurchasesRepository } from './purchases.repository';
import type { ServerDropsRepository } from './server-drops.repository';
import { SubscriptionPaymentsService } from './subscription-payments.service';
import { SubscriptionPurchaseService } from './subscription-purchase.service';
import { SubscriptionViewsService } from './subscription-views.service';
import type { SubscribableServer, SubscriptionsRepository } from './subscriptions.repository';
import type { SubscriptionsNotifier } from './subscriptions.notifier';

const A = 'aaaa0000-0000-4000-8000-000000000001';
const B = 'bbbb0000-0000-4000-8000-000000000002';
const config = {
  appSecret: 'a'.repeat(32),
  publicUrl: 'https://scn.test',
  launchPeriodEndsAt: new Date('2026-01-01T00:00:00Z'),
} as AppConfig;
const client = { account: { uuid: OWNER, userType: 'client' } } as ActiveSession;
const input = { uuid: OWNER, serverIds: [A, B], billingCycle: 'monthly' as const };

/** The service over a database that holds `servers` and answers purchases with `outcomes`. */
function purchaseWith(servers: SubscribableServer[], outcomes: PurchaseOutcome[]) {
  const reads: string[][] = [];
  const writes: PurchaseWrite[] = [];
  const events: string[] = [];
  const repository = {
    readServers: (ids: string[]) => {
      reads.push(ids);
      return Promise.resolve(servers.filter((server) => ids.includes(server.id)));
    },
  } as unknown as SubscriptionsRepository;
  const purchases = {
    write: (purchase: PurchaseWrite) => {
      writes.push(purchase);
      return Promise.resolve(outcomes.shift() ?? { status: 'retry' });
    },
  } as unknown as PurchasesRepository;
  const idempotency = {
    claimOf: (key: string | undefined) => (key ? { key, requestHash: 'h' } : undefined),
    replay: () => Promise.resolve({ subscriptionId: 'first', servers: [], subscription: {} }),
  } as unknown as IdempotencyService;
  const premium = { operatorEmail: null } as PremiumServers;
  const clock = { now: () => NOW };
  const views = new SubscriptionViewsService(
    repository,
    {} as ServerDropsRepository,
    {} as ServerReplacementsRepository,
    premium,
    clock,
    config,
  );
  const service = new SubscriptionPurchaseService(
    repository,
    purchases,
    idempotency,
    new SubscriptionPaymentsService(new LedgerService({} as WalletRepository), config),
    views,
    { changed: () => events.push('changed') } as unknown as SubscriptionsNotifier,
    premium,
    clock,
  );
  return { service, reads, writes, events };
}

const healthy = [subscribableServer(A), subscribableServer(B, { tier: 'tier3' })];
const written = (balance: bigint): PurchaseOutcome => ({
  status: 'written',
  balanceMicro: balance,
  changedServers: [A, B],
});

describe('SubscriptionPurchaseService.create', () => {
  it('should price the period, hand it to the database with capacities and answer with QR codes', async () => {
    const { service, writes, events } = purchaseWith(healthy, [written(80_000_000n)]);
    const answer = await service.create(client, input, undefined);
    const [write] = writes;
    expect(write).toMatchObject({
      owner: OWNER,
      key: null,
      debitMicro: '20000000',
      servers: [{ id: A }, { id: B }],
    });
    expect(write!.transactions.map((t) => t.type)).toEqual(['subscription', 'subscription_reward']);
    expect(answer).toMatchObject({
      subscriptionId: write!.subscription.id,
      serverIds: [A, B],
      chargedMicro: '20000000',
      balanceMicro: '80000000',
      paymentId: write!.transactions[0]!.id,
      billingCycle: 'monthly',
    });
    expect(answer.subscriptionUrl).toMatch(/^https:\/\/scn\.test\/sub\/[A-Za-z0-9_-]{43}$/);
    expect(answer.groupQrCode).toMatch(/^data:image\/png;base64,/);
    expect(answer.serverQrCodes).toHaveLength(2);
    expect(events).toEqual(['changed']);
  });

  it('should read the servers of concurrent purchases in one statement', async () => {
    const { service, reads } = purchaseWith(healthy, [written(0n), written(0n)]);
    await Promise.all([
      service.create(client, input, undefined),
      service.create(client, { ...input, serverIds: [B] }, undefined),
    ]);
    expect(reads).toEqual([[A, B]]);
  });

  it('should refuse node accounts, another account and servers that cannot be bought', async () => {
    const operator = { account: { uuid: OWNER, userType: 'node' } } as ActiveSession;
    const banned = [subscribableServer(A), subscribableServer(B, { bannedAt: NOW })];
    const cases: Array<[SubscribableServer[], ActiveSession, typeof input, string]> = [
      [healthy, operator, input, 'clients_only'],
      [healthy, client, { ...input, uuid: B }, 'uuid_mismatch'],
      [healthy.slice(0, 1), client, input, 'server_not_found'],
      [banned, client, input, 'server_unavailable'],
    ];
    for (const [servers, session, body, code] of cases) {
      const { service, writes } = purchaseWith(servers, []);
      await expect(service.create(session, body, undefined)).rejects.toMatchObject({ code });
      expect(writes).toEqual([]);
    }
  });

  it('should name the full server and answer 402 with the balance as the database refused', async () => {
    const full = purchaseWith(healthy, [{ status: 'server_full', serverId: B }]);
    await expect(full.service.create(client, input, undefined)).rejects.toMatchObject({
      code: 'server_full',
      message: expect.stringContaining(healthy[1]!.name),
    });
    const poor = purchaseWith(healthy, [
      { status: 'insufficient_balance', balanceMicro: 5n, requiredMicro: 20_000_000n },
    ]);
    const refusal = poor.service.create(client, input, undefined);
    await expect(refusal).rejects.toBeInstanceOf(WalletException);
    await expect(refusal).rejects.toMatchObject({ code: 'insufficient_balance' });
    expect(full.events).toEqual([]);
  });

  it('should send a purchase again after a deadlock, at most three times in all', async () => {
    const again = purchaseWith(healthy, [{ status: 'retry' }, written(1n)]);
    expect(await again.service.create(client, input, undefined)).toMatchObject({
      balanceMicro: '1',
    });
    // Each attempt is a new purchase (new ids), priced again.
    expect(new Set(again.writes.map((write) => write.subscription.id)).size).toBe(2);
    const stuck = purchaseWith(healthy, []);
    await expect(stuck.service.create(client, input, undefined)).rejects.toThrow('3 deadlocks');
    expect(stuck.writes).toHaveLength(3);
  });

  it('should answer a replayed key with the first answer and send no event', async () => {
    const { service, writes, events } = purchaseWith(healthy, [{ status: 'replayed' }]);
    const answer = await service.create(client, input, 'key-1');
    expect(writes[0]).toMatchObject({ key: 'key-1', requestHash: 'h' });
    expect(answer.subscriptionId).toBe('first');
    expect(events).toEqual([]);
  });
});
