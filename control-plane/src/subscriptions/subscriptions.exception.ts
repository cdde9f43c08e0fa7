import { type BillingCycle, formatSsl, SUBSCRIPTION_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKind } from '../common/domain.exception';

export type SubscriptionErrorCode =
  | 'not_found'
  | 'clients_only'
  | 'uuid_mismatch'
  | 'server_not_found'
  | 'server_unavailable'
  | 'server_full'
  | 'same_billing_cycle'
  | 'not_active'
  | 'not_paused'
  | 'pause_allowance_used'
  | 'activate_insufficient'
  | 'file_not_found'
  | 'no_servers_left';

export class SubscriptionsException extends DomainException {
  constructor(kind: ErrorKind, message: string, details?: Record<string, string>) {
    super(kind, message, undefined, details);
  }

  static of(
    code: Exclude<
      SubscriptionErrorCode,
      | 'server_not_found'
      | 'server_unavailable'
      | 'server_full'
      | 'same_billing_cycle'
      | 'pause_allowance_used'
      | 'activate_insufficient'
    >,
  ): SubscriptionsException {
    const errors = {
      not_found: { kind: 'not_found', message: SUBSCRIPTION_MESSAGES.notFound },
      clients_only: { kind: 'forbidden', message: SUBSCRIPTION_MESSAGES.clientsOnly },
      uuid_mismatch: { kind: 'forbidden', message: SUBSCRIPTION_MESSAGES.uuidMismatch },
      not_active: { kind: 'conflict', message: SUBSCRIPTION_MESSAGES.notActive },
      not_paused: { kind: 'conflict', message: SUBSCRIPTION_MESSAGES.notPaused },
      file_not_found: { kind: 'not_found', message: SUBSCRIPTION_MESSAGES.fileNotFound },
      no_servers_left: { kind: 'conflict', message: SUBSCRIPTION_MESSAGES.noServersLeft },
    } as const satisfies Record<string, { kind: ErrorKind; message: string }>;
    const { kind, message } = errors[code];
    return new SubscriptionsException(kind, message);
  }

  /** A named server does not exist (any more). */
  static serverNotFound(id: string): SubscriptionsException {
    return new SubscriptionsException('not_found', SUBSCRIPTION_MESSAGES.serverNotFound(id));
  }

  /** Not listed, banned, stale, below 50% or its core is down (spec 01 §4 Server disabled). */
  static serverUnavailable(name: string): SubscriptionsException {
    return new SubscriptionsException('conflict', SUBSCRIPTION_MESSAGES.serverUnavailable(name));
  }

  static serverFull(name: string): SubscriptionsException {
    return new SubscriptionsException('conflict', SUBSCRIPTION_MESSAGES.serverFull(name));
  }

  static sameBillingCycle(cycle: BillingCycle): SubscriptionsException {
    return new SubscriptionsException('conflict', SUBSCRIPTION_MESSAGES.sameBillingCycle(cycle));
  }

  /** spec 02 §9: the pause allowance is used up; 409 says when the next pause is possible. */
  static pauseAllowanceUsed(cycle: BillingCycle, nextAt: string): SubscriptionsException {
    const message =
      cycle === 'hourly'
        ? SUBSCRIPTION_MESSAGES.hourlyPausesUsed(nextAt)
        : SUBSCRIPTION_MESSAGES.monthlyPauseUsed(nextAt);
    return new SubscriptionsException('conflict', message, { nextPauseAvailableAt: nextAt });
  }

  /** spec 02 §8: 402 with the balance and what activation requires. */
  static activateInsufficient(balanceMicro: bigint, requiredMicro: bigint): SubscriptionsException {
    const balance = formatSsl(balanceMicro);
    const required = formatSsl(requiredMicro);
    return new SubscriptionsException(
      'payment_required',
      SUBSCRIPTION_MESSAGES.activateInsufficient(balance, required),
      {
        balance,
        required,
        balanceMicro: balanceMicro.toString(),
        requiredMicro: requiredMicro.toString(),
      },
    );
  }
}
