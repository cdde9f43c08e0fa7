import {
  inlineTransactions,
  NOW,
  OWNER,
  SUBSCRIPTION_ID,
  subscribableServer,
  subscriptionRecord,
  VLESS_UUID,
} from '../../test/support/subscription-fixtures';
import type { PremiumServers } from '../market/premium-servers';
import type { ClientSetsService } from '../client-sets/client-sets.service';
import type { SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import type { SubscriptionViewsService } from './subscription-views.service';
import type { SubscriptionsNotifier } from './subscriptions.notifier';

const HOUR = 3_600_000;
const SERVER = 'aaaa0000-0000-4000-8000-000000000001';

/** The service over repositories that record every write, holding `record` and its pauses. */
function lifecycleWith(record: SubscriptionRecord | null, pauseStarts: Date[] = []) {
  const writes: unknown[][] = [];
  const events: string[] = [];
  const repository = {
    lockOwned: (_tx: unknown, owner: string, id: string) =>
      Promise.resolve(owner === OWNER && id === record?.id ? record : null),
    pauseStarts: (ids: string[]) => Promise.resolve(new Map([[ids[0], pauseStarts]])),
    serversFor: () => Promise.resolve([subscribableServer(SERVER)]),
    insertPause: (_tx: unknown, pause: { endsAt: Date }) => {
      writes.push(['insertPause', pause.endsAt]);
      return Promise.resolve();
    },
    update: (_tx: unknown, id: string, changes: object) => {
      writes.push(['update', id, changes]);
      return Promise.resolve();
    },
    closePause: (_tx: unknown, id: string, at: Date) => {
      writes.push(['closePause', id, at]);
      return Promise.resolve();
    },
    dropServers: (_tx: unknown, id: string) => {
      writes.push(['dropServers', id]);
      return Promise.resolve();
    },
  } as unknown as SubscriptionsRepository;
  const clientSet = (name: string) => (_tx: unknown, servers: string[], uuid: string) => {
    writes.push([name, servers, uuid]);
    return Promise.resolve();
  };
  const nodes = {
    disableClients: clientSet('disableClients'),
    enableClients: clientSet('enableClients'),
    removeClients: clientSet('removeClients'),
  } as unknown as ClientSetsService;
  const views = {
    actionResponse: (_tx: unknown, message: string, updated: SubscriptionRecord) =>
      Promise.resolve({ success: true, message, subscription: updated }),
    issueUrl: () => ({ secret: 's', hash: 'h', sealed: 'x', url: 'https://scn.test/sub/s' }),
  } as unknown as SubscriptionViewsService;
  const notifier = { changed: () => events.push('changed') } as unknown as SubscriptionsNotifier;
  const service = new SubscriptionLifecycleService(
    inlineTransactions().runner,
    repository,
    nodes,
    views,
    notifier,
    { operatorEmail: null } as PremiumServers,
    { now: () => NOW },
  );
  return { service, writes, events };
}

describe('SubscriptionLifecycleService', () => {
  it('should pause an active subscription for 7 days, take it off its nodes and notify', async () => {
    const { service, writes, events } = lifecycleWith(subscriptionRecord());
    const answer = await service.pause(OWNER, SUBSCRIPTION_ID);
    const endsAt = new Date(NOW.getTime() + 7 * 24 * HOUR);
    expect(writes).toEqual([
      ['insertPause', endsAt],
      [
        'update',
        SUBSCRIPTION_ID,
        { status: 'paused', pausedAt: NOW, pauseEndsAt: endsAt, pauseReason: 'user' },
      ],
      ['disableClients', [SERVER], VLESS_UUID],
    ]);
    expect(answer.subscription).toMatchObject({ status: 'paused' });
    expect(events).toEqual(['changed']);
  });

  it('should refuse a pause beyond the allowance and change nothing', async () => {
    const used = [new Date(NOW.getTime() - 30 * 24 * HOUR)];
    const { service, writes, events } = lifecycleWith(subscriptionRecord(), used);
    await expect(service.pause(OWNER, SUBSCRIPTION_ID)).rejects.toMatchObject({
      code: 'pause_allowance_used',
    });
    expect(writes).toEqual([]);
    expect(events).toEqual([]);
  });

  it('should refuse to pause what is not active, and answer 404 for another owner', async () => {
    const { service } = lifecycleWith(subscriptionRecord({ status: 'expired' }));
    await expect(service.pause(OWNER, SUBSCRIPTION_ID)).rejects.toMatchObject({
      code: 'not_active',
    });
    await expect(service.pause('someone-else', SUBSCRIPTION_ID)).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('should resume a pause by moving the end of the paid time by the paused time', async () => {
    const record = subscriptionRecord({ status: 'paused', pauseReason: 'user', pausedAt: NOW });
    const { service, writes } = lifecycleWith(record);
    const resumedAt = new Date(NOW.getTime() + 2 * HOUR);
    await service.resume({} as never, record, resumedAt, 2 * HOUR, 'resumed');
    expect(writes).toEqual([
      [
        'update',
        SUBSCRIPTION_ID,
        {
          status: 'active',
          expiresAt: new Date(record.expiresAt.getTime() + 2 * HOUR),
          pausedAt: null,
          pauseEndsAt: null,
          pauseReason: null,
        },
      ],
      ['closePause', SUBSCRIPTION_ID, resumedAt],
      ['enableClients', [SERVER], VLESS_UUID],
    ]);
  });

  it('should delete: off every node, pause closed, URL forgotten, servers dropped', async () => {
    const { service, writes, events } = lifecycleWith(subscriptionRecord());
    await service.remove(OWNER, SUBSCRIPTION_ID);
    expect(writes.map((write) => write[0])).toEqual([
      'removeClients',
      'closePause',
      'update',
      'dropServers',
    ]);
    expect(writes[2]![2]).toMatchObject({ status: 'deleted', urlTokenHash: null, deletedAt: NOW });
    expect(events).toEqual(['changed']);
  });

  it('should set auto-renew and store a new URL without touching the nodes', async () => {
    const { service, writes } = lifecycleWith(subscriptionRecord());
    const renew = await service.setAutoRenew(OWNER, SUBSCRIPTION_ID, false);
    expect(renew.subscription).toMatchObject({ autoRenew: false });
    const rotated = await service.rotateUrl(OWNER, SUBSCRIPTION_ID);
    expect(rotated.subscriptionUrl).toBe('https://scn.test/sub/s');
    expect(writes).toEqual([
      ['update', SUBSCRIPTION_ID, { autoRenew: false }],
      ['update', SUBSCRIPTION_ID, { urlTokenHash: 'h', urlTokenSealed: 'x' }],
    ]);
  });
});
