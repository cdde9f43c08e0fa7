import {
  MARKET_ROUTES,
  type MarketServersQueryInput,
  type MarketServersResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/calls.md#market-and-account-calls `GET /data/servers`: one page of the market for the filters. */
export function getServers(
  query: MarketServersQueryInput,
  signal?: AbortSignal,
): Promise<MarketServersResponse> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, value);
  }
  return api.get<MarketServersResponse>(`${MARKET_ROUTES.servers}?${params.toString()}`, {
    signal,
    fallbackMessage: 'Failed to load servers',
  });
}
