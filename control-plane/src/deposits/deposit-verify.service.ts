import { Inject, Injectable } from '@nestjs/common';
import {
  lamportsToSol,
  MICRO_PER_SSL,
  solToLamports,
  type VerifyDepositResponse,
} from '@scn/proto';
import type { ActiveSession } from '../auth/auth.repository';
import { CLOCK, type Clock } from '../common/clock';
import { RateLimitService } from '../rate-limit/rate-limit.service';
import { RATE_LIMITS } from '../rate-limit/rate-limit.rules';
import { creditedMessage } from './deposit-rules';
import type { Credited } from './deposit-credit.service';
import { DepositMatcherService } from './deposit-matcher.service';
import { DepositMetrics } from './deposit-metrics';
import { DepositRequestsService } from './deposit-requests.service';
import { DepositsException } from './deposits.exception';
import { type DepositRequestRow, DepositsRepository } from './deposits.repository';
import { QUOTE_GRACE_MS } from './transfer-check';

export interface VerifyBody {
  userAddress: string;
  expectedAmount: string;
  userId: string;
  requestId?: string;
  signature?: string;
}

/** The answer of a credit, the same for the first verify and any repeat of it. */
export function verifiedAnswer(credited: Credited): VerifyDepositResponse {
  return {
    verified: true,
    message: creditedMessage(credited.creditMicro),
    transaction: {
      signature: credited.signature,
      sslTokens: Number(credited.creditMicro / MICRO_PER_SSL),
      sslCreditMicro: credited.creditMicro.toString(),
      solAmount: lamportsToSol(credited.lamports),
    },
  };
}

/** docs/product/calls.md#market-and-account-calls verify-deposit, made safe. */
@Injectable()
export class DepositVerifyService {
  constructor(
    private readonly requests: DepositRequestsService,
    private readonly repository: DepositsRepository,
    private readonly matcher: DepositMatcherService,
    private readonly rateLimits: RateLimitService,
    private readonly metrics: DepositMetrics,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async verify(session: ActiveSession, body: VerifyBody): Promise<VerifyDepositResponse> {
    this.requests.settings();
    if (body.userId !== session.account.uuid) throw new DepositsException('not_your_account');
    await this.rateLimits.consume(RATE_LIMITS.depositVerify(session.account.uuid));
    const request = body.requestId
      ? await this.requests.get(session, body.requestId)
      : await this.named(session.account.uuid, body);
    try {
      return verifiedAnswer(await this.matcher.verify(request, body.signature));
    } catch (error) {
      if (error instanceof DepositsException) this.metrics.failed('request', error.code);
      throw error;
    }
  }

  /**
   * The request the spec's fields (sender and amount, no request id) name. A repeat after the
   * credit gets the same answer as the call that credited (docs/deposits.md): the request the
   * signature credited if it is the account's from that sender for that amount, else the one
   * open request that matches, else (no signature) the newest credited one that matches.
   */
  private async named(ownerUuid: string, body: VerifyBody): Promise<DepositRequestRow> {
    const lamports = solToLamports(body.expectedAmount);
    const matches = (request: DepositRequestRow | null) =>
      request !== null && request.userAddress === body.userAddress && request.lamports === lamports;
    if (body.signature) {
      const credit = await this.repository.findCredit({ signature: body.signature });
      if (credit?.ownerUuid === ownerUuid) {
        const request = await this.repository.findOwned(ownerUuid, credit.requestId);
        if (matches(request)) return request!;
      }
    }
    const open = await this.repository.openMatching(
      ownerUuid,
      body.userAddress,
      lamports,
      new Date(this.clock.now().getTime() - QUOTE_GRACE_MS),
    );
    if (open.length > 1) throw new DepositsException('ambiguous');
    if (open.length === 1) return open[0]!;
    if (!body.signature) {
      const credited = await this.repository.newestCreditedMatching(
        ownerUuid,
        body.userAddress,
        lamports,
      );
      if (credited) return credited;
    }
    throw new DepositsException('transaction_not_found');
  }
}
