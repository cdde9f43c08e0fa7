import {
  fakePayments,
  fakeUnableServers,
  inlineTransactions,
  NOW,
  subscribableServer,
  subscriptionRecord,
  VLESS_UUID,
} from '../../test/support/subscription-fixtures';
import type { PremiumServers } from '../market/premium-servers';
import type { ClientSetsService } from '../client-sets/client-sets.service';
import { SubscriptionBillingService } from './subscription-billing.service';
import type { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import type { SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';
import type { SubscriptionsNotifier } from './subscriptions.notifier';

const SSL = 1_000_000n;
const HOUR = 3_600_000;
const A = 'aaaa0000-0000-4000-8000-000000000001';
const B = 'bbbb0000-0000-4000-8000-000000000002';

interface Setup {
  /** The rows the job finds due, by id. */
  rows: SubscriptionRecord[];
  balance?: bigint;
  unable?: string[];
}

function billingWith({ rows, balance = 100n * SSL, unable = [] }: Setup) {
  const writes: unknown[][] = [];
  const events: string[] = [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  const due = (status: string) => (_now: Date, after: string, limit: number) =>
    Promise.resolve(
      rows
        .filter((row) => row.status === status && row.id > after)
        .map((row) => row.id)
        .sort()
        .slice(0, limit),
    );
  const repository = {
    dueForResume: due('paused'),
    dueForRenewal: due('active'),
    lockForJob: (_tx: unknown, id: string) => Promise.resolve(byId.get(id) ?? null),
    serversFor: () => Promise.resolve([subscribableServer(A), subscribableServer(B)]),
    update: (_tx: unknown, id: string, changes: object) => {
      writes.push(['update', id, changes]);
      return Promise.resolve();
    },
  } as unknown as SubscriptionsRepository;
  const lifecycle = {
    resume: (_tx: unknown, record: SubscriptionRecord, at: Date, pausedMs: number) => {
      writes.push(['resume', record.id, at, pausedMs]);
      return Promise.resolve({});
    },
  } as unknown as SubscriptionLifecycleService;
  const nodes = {
    removeClients: (_tx: unknown, ids: string[], uuid: string) => {
      writes.push(['removeClients', ids, uuid]);
      return Promise.resolve();
    },
  } as unknown as ClientSetsService;
  const notifier = {
    changed: () => events.push('changed'),
    serversDropped: () => events.push('dropped'),
  } as unknown as SubscriptionsNotifier;
  const service = new SubscriptionBillingService(
    inlineTransactions().runner,
    repository,
    fakePayments(balance, writes),
    lifecycle,
    fakeUnableServers(unable),
    nodes,
    notifier,
    { operatorEmail: null } as PremiumServers,
    { now: () => NOW },
  );
  return { service, writes, events };
}

const ended = (changes: Partial<SubscriptionRecord> = {}) =>
  subscriptionRecord({ expiresAt: new Date(NOW.getTime() - HOUR), periodIndex: 2, ...changes });

describe('SubscriptionBillingService.settleDue', () => {
  it('should renew an ended period it can pay, once per period, from where the last one ended', async () => {
    const record = ended();
    const { service, writes, events } = billingWith({ rows: [record] });
    expect(await service.settleDue()).toEqual({ renewed: 1, expired: 0, resumed: 0, dropped: 0 });
    expect(writes).toEqual([
      ['charge', 'subscription', 'monthly', 2, `renewal:${record.id}:3`],
      [
        'update',
        record.id,
        { periodIndex: 3, expiresAt: new Date(record.expiresAt.getTime() + 30 * 24 * HOUR) },
      ],
    ]);
    expect(events).toEqual(['changed']);
  });

  it('should expire without auto-renew or without the balance, and take it off its nodes', async () => {
    for (const setup of [
      { rows: [ended({ autoRenew: false })] },
      { rows: [ended()], balance: 19n * SSL },
    ]) {
      const { service, writes } = billingWith(setup);
      expect(await service.settleDue()).toMatchObject({ renewed: 0, expired: 1 });
      expect(writes).toEqual([
        ['update', setup.rows[0]!.id, { status: 'expired' }],
        ['removeClients', [A, B], VLESS_UUID],
      ]);
    }
  });

  it('should renew only the servers that can serve, and tell the dashboard about the rest', async () => {
    const { service, writes, events } = billingWith({ rows: [ended()], unable: [B] });
    expect(await service.settleDue()).toEqual({ renewed: 1, expired: 0, resumed: 0, dropped: 1 });
    expect(writes[0]).toEqual(['charge', 'subscription', 'monthly', 1, expect.any(String)]);
    expect(events).toEqual(['dropped', 'changed']);
  });

  it('should end a pause at its limit, as if resumed then', async () => {
    const pausedAt = new Date(NOW.getTime() - 9 * HOUR);
    const pauseEndsAt = new Date(NOW.getTime() - HOUR);
    const record = subscriptionRecord({
      status: 'paused',
      pauseReason: 'user',
      pausedAt,
      pauseEndsAt,
    });
    const { service, writes } = billingWith({ rows: [record] });
    expect(await service.settleDue()).toMatchObject({ resumed: 1 });
    expect(writes).toEqual([['resume', record.id, pauseEndsAt, 8 * HOUR]]);
  });

  it('should leave rows that are no longer due when locked, and send no event', async () => {
    const running = subscriptionRecord({ status: 'paused', pauseReason: 'user', pausedAt: NOW });
    const { service, writes, events } = billingWith({
      rows: [
        running,
        subscriptionRecord({ id: 'later', expiresAt: new Date(NOW.getTime() + HOUR) }),
      ],
    });
    expect(await service.settleDue()).toEqual({ renewed: 0, expired: 0, resumed: 0, dropped: 0 });
    expect(writes).toEqual([]);
    expect(events).toEqual([]);
  });

  it('should walk every page of due subscriptions', async () => {
    const rows = Array.from({ length: 450 }, (_, i) =>
      ended({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, autoRenew: false }),
    );
    const { service } = billingWith({ rows });
    expect(await service.settleDue()).toMatchObject({ expired: 450 });
  });
});
