import { REWARDS_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind, kindsOf } from '../common/domain.exception';

export type RewardsErrorCode = 'period_in_future';

const ERRORS: Record<RewardsErrorCode, { kind: ErrorKind; message: string }> = {
  period_in_future: { kind: 'invalid', message: REWARDS_MESSAGES.periodInFuture },
};

export class RewardsException extends DomainException {
  static override readonly domain = 'rewards';
  static readonly kinds = kindsOf(ERRORS);
  readonly code: RewardsErrorCode;

  constructor(code: RewardsErrorCode) {
    super(ERRORS[code].kind, ERRORS[code].message);
    this.code = code;
  }
}
