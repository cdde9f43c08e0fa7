import type { AppConfig } from '../config/app-config';
import type { Transaction } from '../database/transaction-runner';
import { LedgerService, type PostRequest, walletKey } from '../wallet/ledger.service';
import type { WalletRepository } from '../wallet/wallet.repository';
import { type PeriodPayment, SubscriptionPaymentsService } from './subscription-payments.service';

const SSL = 1_000_000n;
const NOW = new Date('2026-03-01T12:00:00Z');
const CLIENT = 'c1';
const tx = {} as Transaction;
const paid = { launchPeriodEndsAt: new Date('2026-01-01T00:00:00Z') } as AppConfig;
const launch = { launchPeriodEndsAt: new Date('2026-12-31T23:59:59Z') } as AppConfig;

const payment = (changes: Partial<PeriodPayment> = {}): PeriodPayment => ({
  type: 'subscription',
  ownerUuid: CLIENT,
  subscriptionId: 's1',
  cycle: 'monthly',
  servers: [
    { premium: false, ownerUuid: 'op-a', source: 'agent' },
    { premium: false, ownerUuid: 'op-a', source: 'agent' },
    { premium: true, ownerUuid: 'platform', source: 'agent' },
  ],
  now: NOW,
  description: 'Subscription renewed',
  describedAs: { code: 'subscription_renewed', values: {} },
  ...changes,
});

/** A ledger that records what it is asked to write (planUnwritten is the real one: it needs no database). */
function recordingLedger(balanceMicro: bigint) {
  const posted: PostRequest[][] = [];
  const locked: string[] = [];
  const real = new LedgerService({} as WalletRepository);
  const ledger = {
    planUnwritten: (requests: readonly PostRequest[]) => real.planUnwritten(requests),
    lockWallet: (_tx: Transaction, wallet: string, owner: string) => {
      locked.push(`${wallet}:${owner}`);
      return Promise.resolve({ id: 'w', balanceMicro });
    },
    lockAndPostTogether: (_tx: Transaction, requests: PostRequest[]) => {
      posted.push(requests);
      return Promise.resolve({
        transactionIds: requests.map((_, i) => `t${i}`),
        balancesAfterMicro: new Map([
          [walletKey('client_wallet', CLIENT), balanceMicro - 30n * SSL],
        ]),
      });
    },
  } as unknown as LedgerService;
  return { ledger, posted, locked };
}

describe('SubscriptionPaymentsService', () => {
  it('should price a period at 10 SSL per server, and at 0 in the launch period', () => {
    const { ledger } = recordingLedger(0n);
    const servers = payment().servers;
    expect(new SubscriptionPaymentsService(ledger, paid).priceMicro('monthly', servers, NOW)).toBe(
      30n * SSL,
    );
    expect(new SubscriptionPaymentsService(ledger, launch).priceMicro('hourly', servers, NOW)).toBe(
      0n,
    );
  });

  it('should pay the platform and reward each operator per non-premium server, frozen 60 days', async () => {
    const { ledger, posted } = recordingLedger(100n * SSL);
    const service = new SubscriptionPaymentsService(ledger, paid);
    const charged = await service.charge(tx, payment({ externalRef: 'renewal:s1:2' }));
    expect(charged).toEqual({ paymentId: 't0', chargedMicro: 30n * SSL, balanceMicro: 70n * SSL });
    const [clientPays, reward] = posted[0]!;
    expect(posted[0]).toHaveLength(2);
    expect(clientPays).toMatchObject({
      type: 'subscription',
      postings: [
        { account: { wallet: 'client_wallet', ownerUuid: CLIENT }, amountMicro: -30n * SSL },
        { account: { system: 'platform_revenue' }, amountMicro: 30n * SSL },
      ],
      serverCount: 3,
      duration: '1month',
      externalRef: 'renewal:s1:2',
      describedAs: { code: 'subscription_renewed', values: {} },
    });
    expect(reward).toMatchObject({
      type: 'subscription_reward',
      postings: [
        { account: { system: 'platform_revenue' }, amountMicro: -20n * SSL },
        {
          account: { wallet: 'node_wallet', ownerUuid: 'op-a' },
          amountMicro: 20n * SSL,
          frozenUntil: new Date(NOW.getTime() + 60 * 86_400_000),
        },
      ],
      serverCount: 2,
      externalRef: 'renewal:s1:2:reward:op-a',
      describedAs: { code: 'subscription_reward', values: {} },
    });
  });

  it('should move nothing and answer the locked balance when the period is free', async () => {
    const { ledger, posted, locked } = recordingLedger(5n * SSL);
    const service = new SubscriptionPaymentsService(ledger, launch);
    expect(await service.charge(tx, payment())).toEqual({
      paymentId: null,
      chargedMicro: 0n,
      balanceMicro: 5n * SSL,
    });
    expect(posted).toEqual([]);
    expect(locked).toEqual([`client_wallet:${CLIENT}`]);
  });

  it('should plan no ledger rows for a free purchase, and the payment first otherwise', () => {
    const { ledger } = recordingLedger(0n);
    const service = new SubscriptionPaymentsService(ledger, paid);
    expect(service.plan(payment(), 0n)).toEqual([]);
    const planned = service.plan(payment({ externalRef: undefined }), 30n * SSL);
    expect(planned.map((t) => t.type)).toEqual(['subscription', 'subscription_reward']);
    expect(planned[0]!.externalRef).toBeNull();
    expect(planned[1]!.externalRef).toBeNull();
  });
});
