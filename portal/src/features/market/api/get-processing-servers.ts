import { MARKET_ROUTES, type ProcessingServersResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/calls.md#market-and-account-calls `GET /data/processing-servers` (polled every 1 s while a cooldown runs). */
export function getProcessingServers(signal?: AbortSignal): Promise<ProcessingServersResponse> {
  return api.get<ProcessingServersResponse>(MARKET_ROUTES.processingServers, {
    signal,
    fallbackMessage: 'Failed to load processing servers',
  });
}
