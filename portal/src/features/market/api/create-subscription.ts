import {
  IDEMPOTENCY_KEY_HEADER,
  SUBSCRIPTION_ROUTES,
  type CreateSubscriptionRequest,
  type SubscriptionCreationResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * docs/product/states.md#market-and-account-states "Purchase" as ONE server call: the control plane prices the servers, debits the
 * wallet and creates the subscription in one transaction; the portal never names an amount.
 * `idempotencyKey` is made once per Payment Confirmation, so a double click or a retry after a
 * lost answer gets the first result and pays nothing more.
 */
export function createSubscription(
  clientUuid: string,
  serverIds: readonly string[],
  idempotencyKey: string,
): Promise<SubscriptionCreationResponse> {
  const body: CreateSubscriptionRequest = { uuid: clientUuid, serverIds: [...serverIds] };
  return api.post<SubscriptionCreationResponse>(SUBSCRIPTION_ROUTES.create, body, {
    headers: { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey },
    // docs/product/messages.md#market-and-account-messages: 'Failed to create subscription' or the server message.
    fallbackMessage: 'Failed to create subscription',
  });
}
