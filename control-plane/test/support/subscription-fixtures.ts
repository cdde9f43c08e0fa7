import type { Transaction, TransactionRunner } from '../../src/database/transaction-runner';
import type {
  PeriodPayment,
  SubscriptionPaymentsService,
} from '../../src/subscriptions/subscription-payments.service';
import type {
  SubscribableServer,
  SubscriptionRecord,
} from '../../src/subscriptions/subscriptions.repository';
import type { UnableServersService } from '../../src/subscriptions/unable-servers.service';

/** For the subscription services' unit specs: rows as the repositories answer them. */
export const NOW = new Date('2026-03-01T12:00:00Z');
export const OWNER = '11111111-1111-4111-8111-111111111111';
export const SUBSCRIPTION_ID = '22222222-2222-4222-8222-222222222222';
export const VLESS_UUID = '33333333-3333-4333-8333-333333333333';
const DAY = 86_400_000;

export function subscriptionRecord(changes: Partial<SubscriptionRecord> = {}): SubscriptionRecord {
  return {
    id: SUBSCRIPTION_ID,
    ownerUuid: OWNER,
    vlessUuid: VLESS_UUID,
    status: 'active',
    billingCycle: 'monthly',
    autoRenew: true,
    periodIndex: 1,
    expiresAt: new Date(NOW.getTime() + 10 * DAY),
    pausedAt: null,
    pauseEndsAt: null,
    pauseReason: null,
    urlTokenHash: null,
    urlTokenSealed: null,
    createdAt: new Date(NOW.getTime() - 20 * DAY),
    ...changes,
  };
}

/** A healthy agent server (reporting at 100%, core running, dialable). */
export function subscribableServer(
  id: string,
  changes: Partial<SubscribableServer> = {},
): SubscribableServer {
  return {
    id,
    ownerUuid: '44444444-4444-4444-8444-444444444444',
    name: `server ${id.slice(0, 4)}`,
    source: 'agent',
    host: '127.0.0.1',
    port: 8443,
    inbound: {},
    vlessString: null,
    country: 'DE',
    premium: false,
    tier: 'tier1',
    coreState: 'running',
    reliabilityAtReport: 100,
    lastReportAt: NOW,
    lastCreditedAt: NOW,
    belowThresholdSince: null,
    bannedAt: null,
    ...changes,
  };
}

/** A TransactionRunner that runs work at once with a stand-in transaction (no database). */
export function inlineTransactions(): { runner: TransactionRunner; tx: Transaction } {
  const tx = { stand: 'in' } as unknown as Transaction;
  const runner = {
    run: (work: (t: Transaction) => Promise<unknown>) => work(tx),
    runRetrying: (work: (t: Transaction) => Promise<unknown>) => work(tx),
    retrying: (work: () => Promise<unknown>) => work(),
    exclusive: (_lock: number, work: (t: Transaction) => Promise<unknown>) => work(tx),
  } as unknown as TransactionRunner;
  return { runner, tx };
}

const PER_SERVER_MICRO = 10_000_000n;

/**
 * Payments at 10 SSL per server from a wallet that holds `balance`; each charge is recorded in
 * `writes` as ['charge', type, cycle, server count, externalRef].
 */
export function fakePayments(balance: bigint, writes: unknown[][]): SubscriptionPaymentsService {
  const priceMicro = (servers: readonly unknown[]) => BigInt(servers.length) * PER_SERVER_MICRO;
  return {
    priceMicro: (_cycle: string, servers: readonly unknown[]) => priceMicro(servers),
    lockBalance: () => Promise.resolve(balance),
    charge: (_tx: Transaction, payment: PeriodPayment) => {
      const price = priceMicro(payment.servers);
      const { type, cycle, servers, externalRef } = payment;
      writes.push(['charge', type, cycle, servers.length, externalRef]);
      return Promise.resolve({
        paymentId: 'p1',
        chargedMicro: price,
        balanceMicro: balance - price,
      });
    },
  } as unknown as SubscriptionPaymentsService;
}

/** A server drop step that drops the servers listed in `unable`. */
export function fakeUnableServers(unable: readonly string[]): UnableServersService {
  return {
    dropUnable: (_tx: Transaction, _record: unknown, servers: SubscribableServer[]) => {
      const kept = servers.filter((server) => !unable.includes(server.id));
      return Promise.resolve({ kept, dropped: servers.length - kept.length });
    },
  } as unknown as UnableServersService;
}
