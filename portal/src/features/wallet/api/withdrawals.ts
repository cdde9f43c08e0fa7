import {
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_ROUTES,
  type WithdrawRequest,
  type WithdrawResponse,
  type WithdrawalsResponse,
} from '@scn/proto';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readAgain } from '../../../lib/query-client';
import { anyInFlight } from '../withdraw-rules';

const FETCH_FAILED = 'Failed to fetch withdrawals';

/** GET /wallet/node/{uuid}/withdrawals: the settings, today's cap, the withdrawals. */
export function getWithdrawals(ownerUuid: string): Promise<WithdrawalsResponse> {
  return api.get<WithdrawalsResponse>(WITHDRAWAL_ROUTES.list(ownerUuid), {
    fallbackMessage: FETCH_FAILED,
  });
}

/** How often a withdrawal on its way to the chain is asked about. */
export const FOLLOW_WITHDRAWALS_MS = 1500;

export const withdrawalsQueryKey = (ownerUuid: string) => ['withdrawals', ownerUuid] as const;

/**
 * The node wallet's withdrawals (whether they are on, and their statuses). A failed read keeps
 * what is shown; while a payout is pending or sent it is asked about every 1.5 s until it
 * settles, for as long as something shows it.
 */
export function withdrawalsQueryOptions(ownerUuid: string) {
  return queryOptions({
    queryKey: withdrawalsQueryKey(ownerUuid),
    queryFn: () => getWithdrawals(ownerUuid),
    refetchInterval: (query) =>
      query.state.data && anyInFlight(query.state.data.withdrawals) ? FOLLOW_WITHDRAWALS_MS : false,
    refetchIntervalInBackground: true,
  });
}

/** The withdrawals, or null until read (a first failure too: Withdraw shows as unavailable). */
export function useWithdrawals(ownerUuid: string, enabled = true): WithdrawalsResponse | null {
  return useQuery({ ...withdrawalsQueryOptions(ownerUuid), enabled }).data ?? null;
}

/** Reads the withdrawals again where they are shown (a payout asked for, confirmed, returned). */
export function refreshWithdrawals(ownerUuid: string): Promise<void> {
  return readAgain(withdrawalsQueryKey(ownerUuid));
}

/**
 * POST /wallet/node/{uuid}/withdraw with the form's Idempotency-Key (one per confirmation, so a
 * retried click never withdraws twice). docs/product/messages.md#dashboard-messages: the server's message, else the fallback.
 */
export function postWithdraw(
  ownerUuid: string,
  body: WithdrawRequest,
  idempotencyKey: string,
): Promise<WithdrawResponse> {
  return api.post<WithdrawResponse>(WITHDRAWAL_ROUTES.withdraw(ownerUuid), body, {
    fallbackMessage: WITHDRAWAL_MESSAGES.failed,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
