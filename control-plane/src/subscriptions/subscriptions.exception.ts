import { type BillingCycle, formatSsl, SUBSCRIPTION_MESSAGES } from '@scn/proto';
import { DomainException, type ErrorKinds } from '../common/domain.exception';

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

const KINDS: ErrorKinds<SubscriptionErrorCode> = {
  not_found: 'not_found',
  clients_only: 'forbidden',
  uuid_mismatch: 'forbidden',
  server_not_found: 'not_found',
  server_unavailable: 'conflict',
  server_full: 'conflict',
  same_billing_cycle: 'conflict',
  not_active: 'conflict',
  not_paused: 'conflict',
  pause_allowance_used: 'conflict',
  activate_insufficient: 'payment_required',
  file_not_found: 'not_found',
  no_servers_left: 'conflict',
};

/** The codes whose message names nothing of the request. */
type PlainCode =
  | 'not_found'
  | 'clients_only'
  | 'uuid_mismatch'
  | 'not_active'
  | 'not_paused'
  | 'file_not_found'
  | 'no_servers_left';

const PLAIN_MESSAGES: Record<PlainCode, string> = {
  not_found: SUBSCRIPTION_MESSAGES.notFound,
  clients_only: SUBSCRIPTION_MESSAGES.clientsOnly,
  uuid_mismatch: SUBSCRIPTION_MESSAGES.uuidMismatch,
  not_active: SUBSCRIPTION_MESSAGES.notActive,
  not_paused: SUBSCRIPTION_MESSAGES.notPaused,
  file_not_found: SUBSCRIPTION_MESSAGES.fileNotFound,
  no_servers_left: SUBSCRIPTION_MESSAGES.noServersLeft,
};

export class SubscriptionsException extends DomainException {
  static override readonly domain = 'subscriptions';
  static readonly kinds = KINDS;

  constructor(
    readonly code: SubscriptionErrorCode,
    message: string,
    details?: Record<string, string>,
  ) {
    super(KINDS[code], message, undefined, details);
  }

  static of(code: PlainCode): SubscriptionsException {
    return new SubscriptionsException(code, PLAIN_MESSAGES[code]);
  }

  /** A named server does not exist (any more). */
  static serverNotFound(id: string): SubscriptionsException {
    return new SubscriptionsException('server_not_found', SUBSCRIPTION_MESSAGES.serverNotFound(id));
  }

  /** Not listed, banned, stale, below 50% or its core is down (docs/product/states.md#market-and-account-states Server disabled). */
  static serverUnavailable(name: string): SubscriptionsException {
    return new SubscriptionsException(
      'server_unavailable',
      SUBSCRIPTION_MESSAGES.serverUnavailable(name),
    );
  }

  static serverFull(name: string): SubscriptionsException {
    return new SubscriptionsException('server_full', SUBSCRIPTION_MESSAGES.serverFull(name));
  }

  static sameBillingCycle(cycle: BillingCycle): SubscriptionsException {
    return new SubscriptionsException(
      'same_billing_cycle',
      SUBSCRIPTION_MESSAGES.sameBillingCycle(cycle),
    );
  }

  /** docs/product/constants.md#billing-and-the-economy: the pause allowance is used up; 409 says when the next pause is possible. */
  static pauseAllowanceUsed(cycle: BillingCycle, nextAt: string): SubscriptionsException {
    const message =
      cycle === 'hourly'
        ? SUBSCRIPTION_MESSAGES.hourlyPausesUsed(nextAt)
        : SUBSCRIPTION_MESSAGES.monthlyPauseUsed(nextAt);
    return new SubscriptionsException('pause_allowance_used', message, {
      nextPauseAvailableAt: nextAt,
    });
  }

  /** docs/product/messages.md#dashboard-messages: 402 with the balance and what activation requires. */
  static activateInsufficient(balanceMicro: bigint, requiredMicro: bigint): SubscriptionsException {
    const balance = formatSsl(balanceMicro);
    const required = formatSsl(requiredMicro);
    return new SubscriptionsException(
      'activate_insufficient',
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
