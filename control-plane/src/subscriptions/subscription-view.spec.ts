import {
  NOW,
  OWNER,
  subscribableServer,
  subscriptionRecord,
} from '../../test/support/subscription-fixtures';
import { micro, subscriptionView, timeLeft } from './subscription-view';

const HOUR = 3_600_000;
const context = {
  now: NOW,
  free: false,
  publicUrl: 'https://scn.test',
  subscriptionUrl: 'https://scn.test/sub/secret',
};

describe('timeLeft', () => {
  it('should count down to the end of the period while active', () => {
    const record = subscriptionRecord({ expiresAt: new Date(NOW.getTime() + 5 * HOUR) });
    expect(timeLeft(record, NOW)).toEqual({
      remainingMs: 5 * HOUR,
      expirationDate: record.expiresAt,
    });
  });

  it('should stop the clock during a client pause and end from now', () => {
    const record = subscriptionRecord({
      status: 'paused',
      pauseReason: 'user',
      pausedAt: new Date(NOW.getTime() - 2 * HOUR),
      expiresAt: new Date(NOW.getTime() + 3 * HOUR),
    });
    expect(timeLeft(record, NOW)).toEqual({
      remainingMs: 5 * HOUR,
      expirationDate: new Date(NOW.getTime() + 5 * HOUR),
    });
  });

  it('should leave no time to an unpaid pause or an expired subscription', () => {
    const pausedAt = new Date(NOW.getTime() - HOUR);
    const unpaid = subscriptionRecord({
      status: 'paused',
      pauseReason: 'insufficient_funds',
      pausedAt,
    });
    expect(timeLeft(unpaid, NOW)).toEqual({ remainingMs: 0, expirationDate: pausedAt });
    const expired = subscriptionRecord({ status: 'expired', expiresAt: pausedAt });
    expect(timeLeft(expired, NOW)).toEqual({ remainingMs: 0, expirationDate: pausedAt });
  });
});

describe('subscriptionView', () => {
  it('should show price, links, files and time left of an active subscription', () => {
    const record = subscriptionRecord({ expiresAt: new Date(NOW.getTime() + 90 * 60_000) });
    const view = subscriptionView(
      record,
      [subscribableServer('aaaa0000-0000-4000-8000-000000000001')],
      [],
      context,
    );
    expect(view).toMatchObject({
      id: record.id,
      uuid: record.vlessUuid,
      status: 'active',
      billingAmount: 10,
      billingAmountMicro: '10000000',
      remainingHours: 1,
      remainingSeconds: 5400,
      serverCount: 1,
      fileName: `group_${record.id}.txt`,
      subscriptionUrl: context.subscriptionUrl,
      qrCodesUrl: `https://scn.test/api/clients/subscription/${OWNER}/${record.id}/qr-codes`,
      activationPriceMicro: '0',
      pauseEndsAt: null,
      withdrawnServers: [],
      replacements: [],
    });
    expect(view.vlessString).toContain(record.vlessUuid);
    expect(view.vlessStrings).toEqual([view.vlessString]);
  });

  it('should ask a period to activate an unpaid pause, and show a deleted one as expired', () => {
    const server = subscribableServer('aaaa0000-0000-4000-8000-000000000001');
    const unpaid = subscriptionRecord({
      status: 'paused',
      pauseReason: 'insufficient_funds',
      pausedAt: NOW,
      pauseEndsAt: new Date(NOW.getTime() + HOUR),
    });
    const view = subscriptionView(unpaid, [server], [], context);
    expect(view).toMatchObject({ activationPriceMicro: '10000000', pauseEndsAt: null });
    expect(view.pauseReason).toBe('insufficient_funds');
    const deleted = subscriptionView(subscriptionRecord({ status: 'deleted' }), [], [], context);
    expect(deleted.status).toBe('expired');
    expect(subscriptionView(unpaid, [server], [], { ...context, free: true }).activationPrice).toBe(
      0,
    );
  });

  it('should list the dropped servers with their reason and refund', () => {
    const droppedAt = new Date(NOW.getTime() - HOUR);
    const view = subscriptionView(subscriptionRecord(), [], [], context, {
      dropped: [
        {
          serverId: 's9',
          serverName: 'gone',
          reason: 'banned',
          unableSince: droppedAt,
          droppedAt,
          refundMicro: 2_500_000n,
        },
      ],
    });
    expect(view.withdrawnServers).toEqual([
      {
        id: 's9',
        name: 'gone',
        reason: 'banned',
        reasonText: 'banned',
        unableSince: droppedAt.toISOString(),
        withdrawnAt: droppedAt.toISOString(),
        refund: 2.5,
        refundMicro: '2500000',
      },
    ]);
  });

  it('should list the replacements of blocked servers with where they were blocked', () => {
    const replacedAt = new Date(NOW.getTime() - HOUR);
    const view = subscriptionView(subscriptionRecord(), [], [], context, {
      replacements: [
        {
          blockedServerName: 'Frankfurt 1',
          replacementServerName: 'Paris 2',
          country: 'IR',
          asn: 44244,
          replacedAt,
        },
      ],
    });
    expect(view.replacements).toEqual([
      {
        blockedServerName: 'Frankfurt 1',
        replacementServerName: 'Paris 2',
        country: 'IR',
        asn: 44244,
        replacedAt: replacedAt.toISOString(),
      },
    ]);
  });

  it('should write money as micro-SSL strings', () => {
    expect(micro(12_345_678n)).toBe('12345678');
  });
});
