import { Inject, Injectable } from '@nestjs/common';
import type { BillingCycle, TransactionDescription } from '@scn/proto';
import { launchPeriodActive } from '../common/launch-period';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Transaction } from '../database/transaction-runner';
import type { LedgerTransactionType } from '../wallet/entities/ledger-transaction.entity';
import {
  LedgerService,
  type PlannedTransaction,
  type PostRequest,
  walletKey,
} from '../wallet/ledger.service';
import {
  OPERATOR_REWARD_FROZEN_MS,
  operatorRewards,
  periodDuration,
  periodPriceMicro,
  type PricedServer,
} from './subscription-pricing';

/** One paid period of a subscription, as a purchase, an activation, a change or a renewal pays it. */
export interface PeriodPayment {
  type: LedgerTransactionType;
  ownerUuid: string;
  subscriptionId: string;
  cycle: BillingCycle;
  servers: readonly PricedServer[];
  now: Date;
  description: string;
  /** The payment's code; its operators' rewards are `subscription_reward`. */
  describedAs: TransactionDescription;
  externalRef?: string;
}

export interface Charged {
  /** The client's payment (null when nothing moved: the launch period). */
  paymentId: string | null;
  chargedMicro: bigint;
  /** The client's wallet balance after the payment. */
  balanceMicro: bigint;
}

/**
 * What a subscription's period costs and the ledger movements that pay it (docs/product/constants.md#market-prices-and-limits, spec 02
 * docs/product/constants.md#market-prices-and-limits). The client pays the platform, and the platform pays each operator 10 SSL per non-premium
 * server, frozen 60 days (100% of client payments go to the operators); premium servers' share
 * stays with the platform. Nothing moves when the price is 0 (launch period). The ledger writes
 * the rows; this says which.
 */
@Injectable()
export class SubscriptionPaymentsService {
  constructor(
    private readonly ledger: LedgerService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** docs/product/overview.md#what-scn-is: whether `now` is in the launch period (everything is free). */
  free(now: Date): boolean {
    return launchPeriodActive(now, this.config.launchPeriodEndsAt);
  }

  /** One period of `cycle` for `servers` at `now`, in micro-SSL. */
  priceMicro(cycle: BillingCycle, servers: readonly PricedServer[], now: Date): bigint {
    return periodPriceMicro(cycle, servers, this.free(now));
  }

  /** Locks the client's wallet until the transaction ends; its balance. */
  async lockBalance(tx: Transaction, ownerUuid: string): Promise<bigint> {
    const wallet = await this.ledger.lockWallet(tx, 'client_wallet', ownerUuid);
    return wallet.balanceMicro;
  }

  /**
   * Pays one period in `tx`: the payment and every reward it pays, written together (one
   * statement). Throws insufficient_balance (402) before writing when the wallet is short.
   */
  async charge(tx: Transaction, payment: PeriodPayment): Promise<Charged> {
    const price = this.priceMicro(payment.cycle, payment.servers, payment.now);
    if (price === 0n) {
      const balanceMicro = await this.lockBalance(tx, payment.ownerUuid);
      return { paymentId: null, chargedMicro: 0n, balanceMicro };
    }
    const { transactionIds, balancesAfterMicro } = await this.ledger.lockAndPostTogether(
      tx,
      this.requests(payment, price),
    );
    return {
      paymentId: transactionIds[0]!,
      chargedMicro: price,
      balanceMicro: balancesAfterMicro.get(walletKey('client_wallet', payment.ownerUuid))!,
    };
  }

  /**
   * The ledger rows of one period, with their ids, for a purchase's database function to write
   * (the client's payment first); none when the price is 0.
   */
  plan(payment: PeriodPayment, priceMicro: bigint): PlannedTransaction[] {
    return this.ledger.planUnwritten(priceMicro === 0n ? [] : this.requests(payment, priceMicro));
  }

  /** The ledger movements of one paid period: the client's payment, then each operator's reward. */
  private requests(payment: PeriodPayment, price: bigint): PostRequest[] {
    const { ownerUuid, subscriptionId, cycle, servers, now } = payment;
    const duration = periodDuration(cycle);
    const frozenUntil = new Date(now.getTime() + OPERATOR_REWARD_FROZEN_MS);
    return [
      {
        type: payment.type,
        postings: [
          { account: { wallet: 'client_wallet', ownerUuid }, amountMicro: -price },
          { account: { system: 'platform_revenue' }, amountMicro: price },
        ],
        initiatorUuid: ownerUuid,
        subscriptionId,
        serverCount: servers.length,
        duration,
        description: payment.description,
        describedAs: payment.describedAs,
        externalRef: payment.externalRef ?? null,
      },
      ...operatorRewards(servers).map((reward) => ({
        type: 'subscription_reward' as const,
        postings: [
          { account: { system: 'platform_revenue' as const }, amountMicro: -reward.amountMicro },
          {
            account: { wallet: 'node_wallet' as const, ownerUuid: reward.ownerUuid },
            amountMicro: reward.amountMicro,
            frozenUntil,
          },
        ],
        initiatorUuid: ownerUuid,
        subscriptionId,
        serverCount: reward.serverCount,
        duration,
        description: 'Subscription reward (frozen 60 days)',
        describedAs: { code: 'subscription_reward' as const, values: {} },
        externalRef: payment.externalRef
          ? `${payment.externalRef}:reward:${reward.ownerUuid}`
          : null,
      })),
    ];
  }
}
