import { formatSsl, WITHDRAWAL_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type WithdrawalsErrorCode =
  | 'withdrawals_suspended'
  | 'invalid_amount'
  | 'invalid_address'
  | 'off_curve'
  | 'treasury_address'
  | 'below_minimum'
  | 'over_available'
  | 'daily_cap';

const KINDS: ErrorKinds<WithdrawalsErrorCode> = {
  withdrawals_suspended: 'forbidden',
  invalid_amount: 'invalid',
  invalid_address: 'invalid',
  off_curve: 'invalid',
  treasury_address: 'invalid',
  below_minimum: 'unprocessable',
  over_available: 'payment_required',
  daily_cap: 'unprocessable',
};

/** The amounts a refusal names (micro-SSL): the minimum, what is available, the cap. */
export interface WithdrawalFigures {
  minimumMicro?: bigint;
  availableMicro?: bigint;
  dailyCapMicro?: bigint;
  leftTodayMicro?: bigint;
}

const ssl = (micro: bigint | undefined) => formatSsl(micro ?? 0n);

function describe(code: WithdrawalsErrorCode, figures: WithdrawalFigures): string {
  switch (code) {
    case 'withdrawals_suspended':
      return WITHDRAWAL_MESSAGES.suspended;
    case 'invalid_amount':
      return WITHDRAWAL_MESSAGES.invalidAmount;
    case 'invalid_address':
      return WITHDRAWAL_MESSAGES.invalidAddress;
    case 'off_curve':
      return WITHDRAWAL_MESSAGES.offCurve;
    case 'treasury_address':
      return WITHDRAWAL_MESSAGES.treasuryAddress;
    case 'below_minimum':
      return WITHDRAWAL_MESSAGES.belowMinimum(ssl(figures.minimumMicro));
    case 'over_available':
      return WITHDRAWAL_MESSAGES.overAvailable(ssl(figures.availableMicro));
    case 'daily_cap':
      return WITHDRAWAL_MESSAGES.dailyCap(ssl(figures.dailyCapMicro), ssl(figures.leftTodayMicro));
  }
}

/** Refusals of a withdrawal (issue 18 §5); none moves money. */
export class WithdrawalsException extends DomainException {
  static readonly kinds = KINDS;

  constructor(
    readonly code: WithdrawalsErrorCode,
    figures: WithdrawalFigures = {},
  ) {
    super(
      KINDS[code],
      describe(code, figures),
      undefined,
      Object.fromEntries(
        Object.entries(figures).map(([name, micro]) => [name, (micro as bigint).toString()]),
      ),
    );
  }
}
