import { MARKET_ROUTES, type MarketStatsResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/calls.md#market-and-account-calls `GET /data/stats`: the four stat tiles. */
export function getStats(signal?: AbortSignal): Promise<MarketStatsResponse> {
  return api.get<MarketStatsResponse>(MARKET_ROUTES.stats, {
    signal,
    fallbackMessage: 'Failed to load server statistics',
  });
}
