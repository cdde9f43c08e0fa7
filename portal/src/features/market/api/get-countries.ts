import { MARKET_ROUTES, type MarketCountriesResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/calls.md#market-and-account-calls `GET /data/countries`: the Country filter's list. */
export function getCountries(signal?: AbortSignal): Promise<MarketCountriesResponse> {
  return api.get<MarketCountriesResponse>(MARKET_ROUTES.countries, {
    signal,
    fallbackMessage: 'Failed to load countries',
  });
}
