import {
  MARKET_ROUTES,
  type MarkServerProcessingRequest,
  type MarkServerProcessingResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/** docs/product/states.md#market-and-account-states "Connect cooldown": a click on a non-premium server starts its 60 s cooldown. */
export function markServerProcessing(
  serverId: string,
  clientUuid: string,
): Promise<MarkServerProcessingResponse> {
  const body: MarkServerProcessingRequest = { serverId, clientUUID: clientUuid };
  return api.post<MarkServerProcessingResponse>(MARKET_ROUTES.markServerProcessing, body, {
    fallbackMessage: 'Failed to reserve the server',
  });
}
