import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { SERVER_DROP_REASON_TEXT } from '@scn/proto';
import type { Transaction } from '../database/transaction-runner';
import type { ServerDeletion } from '../nodes/server-deletion';
import { LedgerService, type Posting } from '../wallet/ledger.service';
import { periodMs } from './subscription-pricing';
import { ServerDropsRepository } from './server-drops.repository';
import { type SubscriptionRecord, SubscriptionsRepository } from './subscriptions.repository';
import { proRataMicro, type Unable, unusedPaidMs } from './server-drop-rules';

/** The server being dropped, as much of it as the drop needs. */
export interface DroppedServerRef {
  id: string;
  name: string;
  ownerUuid: string;
}

/** Unused paid time on a server, and how much of it its operator gives back. */
export interface UnusedShare {
  /** The server's share of the period payment x the unused fraction, rounded up. */
  amountMicro: bigint;
  /** The operator's part (its reward's same fraction, capped by the amount and its wallet). */
  fromOperatorMicro: bigint;
  /** The operator's reward's frozen_until, carried by its debit. */
  frozenUntil: Date | null;
}

export interface ServerDrop {
  refundMicro: bigint;
  /** Servers the subscription still has after this one left. */
  serversLeft: number;
}

/**
 * Drops a server that cannot serve from a subscription and refunds the client's unused paid time
 * on it, in the caller's transaction, with the subscription row locked by it:
 *
 * - The refund is the server's share of the current period's payment (the payment over its
 *   server count) times the unused part of the period, rounded up (server-drop-rules.ts).
 * - Money comes back from where it went, zero-sum: the operator gives back the same part of the
 *   reward it got for that server in that payment (capped by the refund, and by its balance: a
 *   wallet is never negative), and the platform's revenue account, which took the payment, gives
 *   the rest (all of it for premium servers, whose share the platform kept). The operator's
 *   debit carries its reward's `frozen_until`, so its frozen lot shrinks with it.
 * - Once per subscription, server and period: the subscription_server_drops unique key; the
 *   ledger movement's external_ref (`server_drop:<id>`) names the row.
 *
 * Taking the subscription's uuid off the server's client set is the caller's (ClientSetsService, in
 * the same transaction); a deleted server's set goes with its row.
 */
@Injectable()
export class ServerDropService implements ServerDeletion {
  constructor(
    private readonly repository: ServerDropsRepository,
    private readonly subscriptions: SubscriptionsRepository,
    private readonly ledger: LedgerService,
  ) {}

  /** Null when this server was already dropped from this subscription in this period. */
  async drop(
    manager: Transaction,
    record: SubscriptionRecord,
    server: DroppedServerRef,
    unable: Unable,
    now: Date,
  ): Promise<ServerDrop | null> {
    const share = await this.unusedShare(manager, record, server.ownerUuid, unable.since);
    const refund = share.amountMicro;
    const id = randomUUID();
    const recorded = await this.repository.insert(manager, {
      id,
      subscriptionId: record.id,
      serverId: server.id,
      serverName: server.name,
      periodIndex: record.periodIndex,
      reason: unable.reason,
      unableSince: unable.since,
      droppedAt: now,
      refundMicro: refund,
    });
    if (!recorded) return null;
    if (refund > 0n) {
      await this.ledger.lockAndPost(manager, {
        type: 'refund',
        postings: [
          {
            account: { wallet: 'client_wallet', ownerUuid: record.ownerUuid },
            amountMicro: refund,
          },
          ...takeBackPostings(share, server.ownerUuid),
        ],
        initiatorUuid: null,
        subscriptionId: record.id,
        serverCount: 1,
        description: `Refund: ${server.name} was dropped (${SERVER_DROP_REASON_TEXT[unable.reason]})`,
        describedAs: {
          code: 'refund_server_dropped',
          values: { server: server.name, reason: unable.reason },
        },
        externalRef: `server_drop:${id}`,
      });
    }
    const serversLeft = await this.repository.dropServer(manager, record.id, server.id);
    // All its time on its last server was given back: nothing is left to serve or renew.
    if (serversLeft === 0 && (record.status === 'active' || record.status === 'paused')) {
      await this.subscriptions.update(manager, record.id, {
        status: 'expired',
        pausedAt: null,
        pauseEndsAt: null,
        pauseReason: null,
      });
      await this.subscriptions.closePause(manager, record.id, now);
    }
    return { refundMicro: refund, serversLeft };
  }

  /**
   * The client's paid time left on a server of `operatorUuid` that stopped serving at `since`,
   * in micro-SSL, and who gives it back (see the class comment); locks the operator's node
   * wallet when it gives a part. A replacement (ServerReplacements) moves the same amount from
   * the same places to the replacement's operator instead of the client.
   */
  async unusedShare(
    manager: Transaction,
    record: SubscriptionRecord,
    operatorUuid: string,
    since: Date,
  ): Promise<UnusedShare> {
    const period = periodMs(record.billingCycle);
    const unused = unusedPaidMs(record, since);
    const none: UnusedShare = { amountMicro: 0n, fromOperatorMicro: 0n, frozenUntil: null };
    if (unused <= 0) return none;
    const payment = await this.repository.periodPayment(manager, record.id, operatorUuid);
    if (!payment || payment.serverCount <= 0 || payment.paidMicro <= 0n) return none;
    const amount = proRataMicro(payment.paidMicro / BigInt(payment.serverCount), unused, period);
    let fromOperator = minimum(amount, proRataMicro(payment.rewardPerServerMicro, unused, period));
    if (fromOperator > 0n) {
      const wallet = await this.ledger.lockWallet(manager, 'node_wallet', operatorUuid);
      fromOperator = minimum(fromOperator, wallet.balanceMicro);
    }
    return {
      amountMicro: amount,
      fromOperatorMicro: fromOperator,
      frozenUntil: payment.rewardFrozenUntil,
    };
  }

  /** ServerDeletion: the operator deleted the server; every subscription of it is refunded. */
  async beforeDelete(manager: Transaction, serverId: string, now: Date): Promise<number> {
    const records = await this.repository.lockSubscriptionsOf(manager, serverId);
    if (records.length === 0) return 0;
    const [server] = await this.subscriptions.readServers([serverId], null);
    if (!server) return 0;
    let dropped = 0;
    for (const record of records) {
      const done = await this.drop(manager, record, server, { reason: 'deleted', since: now }, now);
      if (done) dropped += 1;
    }
    return dropped;
  }
}

/**
 * The debit side of giving `share` back: the operator's part from its node wallet (carrying its
 * reward's frozen_until, so its frozen lot shrinks with it), platform_revenue for the rest.
 */
export function takeBackPostings(share: UnusedShare, operatorUuid: string): Posting[] {
  const postings: Posting[] = [];
  if (share.fromOperatorMicro > 0n) {
    postings.push({
      account: { wallet: 'node_wallet', ownerUuid: operatorUuid },
      amountMicro: -share.fromOperatorMicro,
      frozenUntil: share.frozenUntil,
    });
  }
  if (share.amountMicro > share.fromOperatorMicro) {
    postings.push({
      account: { system: 'platform_revenue' },
      amountMicro: share.fromOperatorMicro - share.amountMicro,
    });
  }
  return postings;
}

function minimum(a: bigint, b: bigint): bigint {
  return a < b ? a : b;
}
