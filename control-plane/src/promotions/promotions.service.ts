import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  PROMOTION_MESSAGES,
  PROMOTION_ROUTES,
  type PromoteRequest,
  type PromoteResponse,
  promotionExpiry,
  promotionPlanAllowed,
  promotionPlanCostMicro,
  promotionPlanForDays,
  promotionSplit,
  type PromotionStatus,
} from '@scn/proto';
import { CLOCK, type Clock } from '../common/clock';
import { DomainException } from '../common/domain.exception';
import { TransactionRunner } from '../database/transaction-runner';
import { RealtimeGateway } from '../realtime/realtime.gateway';
import { IdempotencyService } from '../wallet/idempotency.service';
import { LedgerService } from '../wallet/ledger.service';
import { WalletService } from '../wallet/wallet.service';
import {
  costMatches,
  promotionPostings,
  promotionStatus,
  runningPromotionMicro,
} from './promotion-rules';
import { PromotionsException } from './promotions.exception';
import { PromotionsRepository } from './promotions.repository';

/**
 * Server promotions (docs/product/states.md#market-and-account-states, docs/product/input-rules.md#market-and-account-input, docs/product/constants.md#market-prices-and-limits). A promotion is decided and paid in one
 * database transaction under the server's listing lock and then the node wallet's: the owner
 * check, the price (the plan's, the request's `cost` only checked), the cumulative cap, the
 * balance (available: frozen rewards are not the operator's yet), the ledger movement (10% burned,
 * the rest to the reward pool), the server's promotion account and its market listing. So two
 * concurrent promotions of a server can neither pass the cap nor spend the same balance.
 */
@Injectable()
export class PromotionsService {
  constructor(
    private readonly transactions: TransactionRunner,
    private readonly repository: PromotionsRepository,
    private readonly ledger: LedgerService,
    private readonly wallets: WalletService,
    private readonly idempotency: IdempotencyService,
    private readonly realtime: RealtimeGateway,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  /** docs/product/calls.md#market-and-account-calls GET /servers/{id}/promotion: the owner's view; anyone else's is not found. */
  async status(ownerUuid: string, serverId: string): Promise<PromotionStatus> {
    const server = await this.repository.owned(ownerUuid, serverId);
    if (!server) throw new PromotionsException('server_not_found');
    const wallet = await this.wallets.view(ownerUuid, 'node', { limit: 1 });
    return promotionStatus({
      serverId,
      now: this.clock.now(),
      promotedUntil: server.promotedUntil,
      amountPaidMicro: server.amountPaidMicro,
      availableMicro: BigInt(wallet.availableMicro),
    });
  }

  /** docs/product/calls.md#market-and-account-calls POST /servers/{id}/promote; `key` (Idempotency-Key) makes it happen once. */
  async promote(
    ownerUuid: string,
    serverId: string,
    body: PromoteRequest,
    key: string | undefined,
  ): Promise<PromoteResponse> {
    const plan = promotionPlanForDays(body.days);
    // The contract already refused other days; this keeps the type honest.
    if (!plan) throw new DomainException('invalid', PROMOTION_MESSAGES.daysInvalid);
    const costMicro = promotionPlanCostMicro(plan);
    const result = await this.transactions.retrying(() =>
      this.idempotency.once(
        ownerUuid,
        key,
        { route: PROMOTION_ROUTES.promote(serverId), body: { days: body.days, cost: body.cost } },
        async (tx): Promise<PromoteResponse> => {
          const now = this.clock.now();
          const server = await this.repository.lockOwned(tx, ownerUuid, serverId);
          if (!server) throw new PromotionsException('server_not_found');
          if (server.premium) throw new PromotionsException('premium_server');
          if (!costMatches(plan, body.cost)) {
            throw new PromotionsException('cost_mismatch', PROMOTION_MESSAGES.costMismatch(plan), {
              costMicro: costMicro.toString(),
            });
          }
          if (!promotionPlanAllowed(server.amountPaidMicro, plan)) {
            throw PromotionsException.cap(server.amountPaidMicro);
          }
          const wallet = await this.ledger.lockAvailable(tx, 'node_wallet', ownerUuid, now);
          if (wallet.availableMicro < costMicro) {
            throw PromotionsException.insufficient(costMicro, wallet.availableMicro);
          }
          const { burnMicro, poolMicro } = promotionSplit(costMicro);
          const expiresAt = promotionExpiry(now, server.promotedUntil, plan.days);
          const transactionId = await this.ledger.lockAndPost(tx, {
            type: 'promotion',
            postings: promotionPostings(ownerUuid, costMicro),
            initiatorUuid: ownerUuid,
            serverCount: 1,
            duration: `${plan.days}days`,
            description: `${plan.name} promotion of ${server.name}`.slice(0, 200),
            describedAs: { code: 'promotion', values: { plan: plan.id, server: server.name } },
          });
          await this.repository.record(tx, {
            id: randomUUID(),
            serverId,
            ownerUuid,
            plan: plan.id,
            days: plan.days,
            costMicro,
            burnMicro,
            poolMicro,
            expiresAt,
            runningMicro: runningPromotionMicro(
              now,
              server.promotedUntil,
              server.promotionMicro,
              costMicro,
            ),
            ledgerTransactionId: transactionId,
            now,
          });
          const amountPaidMicro = server.amountPaidMicro + costMicro;
          return {
            ...promotionStatus({
              serverId,
              now,
              promotedUntil: expiresAt,
              amountPaidMicro,
              availableMicro: wallet.availableMicro - costMicro,
            }),
            message: PROMOTION_MESSAGES.promoted(plan, expiresAt.toISOString()),
            transactionId,
            plan: plan.id,
            days: plan.days,
            costMicro: costMicro.toString(),
            burnedMicro: burnMicro.toString(),
            poolMicro: poolMicro.toString(),
          };
        },
      ),
    );
    // The market's order changed: every open market refetches (docs/product/states.md#market-and-account-states server list refresh).
    if (!result.replayed) this.realtime.serverListUpdated('promotion');
    return result.body;
  }
}
