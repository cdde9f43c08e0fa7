import type { Earnings, EarningsResponse } from '@scn/proto';
import { type QueryObserverResult, queryOptions } from '@tanstack/react-query';
import { messageOf } from '../../lib/error-message';

/** The call the query makes (the feature's api/, or a test's fake). */
export interface EarningsCalls {
  get(
    ownerUuid: string,
    period: string | undefined,
    signal?: AbortSignal,
  ): Promise<EarningsResponse>;
}

/** `period` null: the server's current month (its answer without `?period`). */
export const earningsQueryKey = (ownerUuid: string, period: string | null) =>
  ['earnings', ownerUuid, period ?? 'current'] as const;

export function earningsQuery(ownerUuid: string, period: string | null, calls: EarningsCalls) {
  return queryOptions({
    queryKey: earningsQueryKey(ownerUuid, period),
    queryFn: async ({ signal }): Promise<Earnings> =>
      (await calls.get(ownerUuid, period ?? undefined, signal)).earnings,
  });
}

export interface EarningsView {
  /** The server's current month, or a later one it answered (its clock moved on); null until known. */
  latestPeriod: string | null;
  /** The month shown (the one asked for, else the latest). */
  period: string | null;
  status: 'loading' | 'ready' | 'error';
  data: Earnings | null;
  error: string | null;
}

type Read = Pick<QueryObserverResult<Earnings>, 'data' | 'error'>;

/**
 * What the earnings section shows, from the read of the current month and of the month asked for
 * (`period`, null: the current one, then both reads are the same). A month not read yet shows
 * the loading state; a failed refresh leaves what is shown (the library keeps the data).
 */
export function earningsView(period: string | null, current: Read, chosen: Read): EarningsView {
  const now = current.data?.period ?? null;
  const answered = chosen.data?.period ?? null;
  const latestPeriod = now !== null && answered !== null && answered > now ? answered : now;
  const data = chosen.data ?? null;
  const failed = data === null && chosen.error !== null && chosen.error !== undefined;
  return {
    latestPeriod,
    period: period ?? latestPeriod,
    status: data ? 'ready' : failed ? 'error' : 'loading',
    data,
    error: failed ? messageOf(chosen.error, 'Something went wrong') : null,
  };
}
