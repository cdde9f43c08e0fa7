import { formatSsl, reservedAddressName, WITHDRAWAL_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

export type WithdrawalsErrorCode =
  | 'withdrawals_suspended'
  | 'invalid_amount'
  | 'invalid_address'
  | 'reserved_address'
  | 'off_curve'
  | 'treasury_address'
  | 'below_minimum'
  | 'over_available'
  | 'daily_cap';

const KINDS: ErrorKinds<WithdrawalsErrorCode> = {
  withdrawals_suspended: 'forbidden',
  invalid_amount: 'invalid',
  invalid_address: 'invalid',
  // A well-formed address that can never pay the operator: refused as below_minimum is (422),
  // unlike text that is not an address at all (400).
  reserved_address: 'unprocessable',
  off_curve: 'unprocessable',
  treasury_address: 'unprocessable',
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

/** What the message names: the amounts, or the destination refused. */
export interface WithdrawalRefusal extends WithdrawalFigures {
  destination?: string;
}

const ssl = (micro: bigint | undefined) => formatSsl(micro ?? 0n);

function describe(code: WithdrawalsErrorCode, figures: WithdrawalRefusal): string {
  switch (code) {
    case 'withdrawals_suspended':
      return WITHDRAWAL_MESSAGES.suspended;
    case 'invalid_amount':
      return WITHDRAWAL_MESSAGES.invalidAmount;
    case 'invalid_address':
      return WITHDRAWAL_MESSAGES.invalidAddress;
    case 'reserved_address':
      return WITHDRAWAL_MESSAGES.reservedAddress(
        reservedAddressName(figures.destination ?? '') ?? 'own program or system account',
      );
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

/** Refusals of a withdrawal; none moves money. */
export class WithdrawalsException extends DomainException {
  static override readonly domain = 'withdrawals';
  static readonly kinds = KINDS;

  constructor(
    readonly code: WithdrawalsErrorCode,
    { destination, ...figures }: WithdrawalRefusal = {},
  ) {
    super(
      KINDS[code],
      describe(code, { ...figures, destination }),
      undefined,
      Object.fromEntries(
        Object.entries(figures).map(([name, micro]) => [name, (micro as bigint).toString()]),
      ),
    );
  }
}
