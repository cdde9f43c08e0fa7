import { DEPOSIT_MESSAGES } from '@scn/proto';
import { DomainException, kindsOf } from '../common/domain.exception';

/**
 * Refusals of deposits. Every one answers `{ verified: false, message }` (the
 * contract's verify answer) with its status, and none credits anything.
 */
const ERRORS = {
  deposits_off: { kind: 'unavailable', message: DEPOSIT_MESSAGES.initFailed },
  chain_unavailable: { kind: 'unavailable', message: DEPOSIT_MESSAGES.verifyFailed },
  amount_too_small: { kind: 'invalid', message: DEPOSIT_MESSAGES.invalidAmount },
  request_not_found: { kind: 'not_found', message: DEPOSIT_MESSAGES.requestNotFound },
  request_expired: { kind: 'gone', message: DEPOSIT_MESSAGES.requestExpired },
  not_your_account: {
    kind: 'forbidden',
    message: 'You can only verify deposits of your own account',
  },
  transaction_not_found: { kind: 'not_found', message: DEPOSIT_MESSAGES.notFound },
  wrong_recipient: { kind: 'unprocessable', message: DEPOSIT_MESSAGES.wrongRecipient },
  wrong_amount: { kind: 'unprocessable', message: DEPOSIT_MESSAGES.wrongAmount },
  failed_transaction: { kind: 'unprocessable', message: DEPOSIT_MESSAGES.failedTransaction },
  not_confirmed: { kind: 'conflict', message: DEPOSIT_MESSAGES.notConfirmed },
  too_old: { kind: 'unprocessable', message: DEPOSIT_MESSAGES.tooOld },
  already_credited: { kind: 'conflict', message: DEPOSIT_MESSAGES.alreadyCredited },
  credited_elsewhere: { kind: 'conflict', message: DEPOSIT_MESSAGES.creditedElsewhere },
  ambiguous: { kind: 'conflict', message: DEPOSIT_MESSAGES.ambiguous },
  addresses_off: {
    kind: 'conflict',
    message:
      'Per-account deposit addresses are not enabled on this server. Please use a deposit request instead.',
  },
  wrong_wallet_type: {
    kind: 'forbidden',
    message: 'This wallet type does not belong to your account type',
  },
} as const;

export type DepositsErrorCode = keyof typeof ERRORS;

export class DepositsException extends DomainException {
  static override readonly domain = 'deposits';
  static readonly kinds = kindsOf(ERRORS);

  constructor(readonly code: DepositsErrorCode) {
    super(ERRORS[code].kind, ERRORS[code].message, undefined, { verified: false });
  }
}
