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
import { DepositRequestsService } from './deposit-requests.service';
import { DepositsException } from './deposits.exception';
import { DepositsRepository } from './deposits.repository';
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

/** spec 01 §7 verify-deposit, made safe (issue 17 §2). */
@Injectable()
export class DepositVerifyService {
  constructor(
    private readonly requests: DepositRequestsService,
    private readonly repository: DepositsRepository,
    private readonly matcher: DepositMatcherService,
    private readonly rateLimits: RateLimitService,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async verify(session: ActiveSession, body: VerifyBody): Promise<VerifyDepositResponse> {
    this.requests.settings();
    if (body.userId !== session.account.uuid) throw new DepositsException('not_your_account');
    await this.rateLimits.consume(RATE_LIMITS.depositVerify(session.account.uuid));
    if (body.requestId) {
      const request = await this.requests.get(session, body.requestId);
      return verifiedAnswer(await this.matcher.verify(request, body.signature));
    }
    // The spec's path: the sender and the amount name the request, if exactly one matches.
    const open = await this.repository.openMatching(
      session.account.uuid,
      body.userAddress,
      solToLamports(body.expectedAmount),
      new Date(this.clock.now().getTime() - QUOTE_GRACE_MS),
    );
    if (open.length > 1) throw new DepositsException('ambiguous');
    if (open.length === 0) throw new DepositsException('transaction_not_found');
    return verifiedAnswer(await this.matcher.verify(open[0]!, body.signature));
  }
}
