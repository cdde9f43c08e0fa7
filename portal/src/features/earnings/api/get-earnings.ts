import { type EarningsResponse, REWARDS_MESSAGES, REWARDS_ROUTES } from '@scn/proto';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { readAgain } from '../../../lib/query-client';
import {
  type EarningsCalls,
  earningsQuery,
  earningsQueryKey,
  earningsView,
} from '../earnings-query';

/** GET /api/nodes/{uuid}/earnings[?period=YYYY-MM]: a month's statements, or this month so far. */
export function getEarnings(
  ownerUuid: string,
  period: string | undefined,
  signal?: AbortSignal,
): Promise<EarningsResponse> {
  return api.get<EarningsResponse>(REWARDS_ROUTES.earnings(ownerUuid, period), {
    signal,
    fallbackMessage: REWARDS_MESSAGES.fetchFailed,
  });
}

const calls: EarningsCalls = { get: getEarnings };

export const earningsQueryOptions = (ownerUuid: string, period: string | null) =>
  earningsQuery(ownerUuid, period, calls);

/** The statements of the month asked for, and the current month (for the latest period). */
export function useEarnings(ownerUuid: string, period: string | null) {
  const current = useQuery(earningsQueryOptions(ownerUuid, null));
  const chosen = useQuery(earningsQueryOptions(ownerUuid, period));
  return { ...earningsView(period, current, chosen), reload: () => void chosen.refetch() };
}

/** Reads the month asked for again (a payout or a subscription reward changed its figures). */
export function refreshEarnings(ownerUuid: string, period: string | null): Promise<void> {
  return readAgain(earningsQueryKey(ownerUuid, period));
}
