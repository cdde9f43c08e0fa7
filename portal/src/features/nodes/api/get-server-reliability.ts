import { RELIABILITY_ROUTES, type ServerReliabilityResponse } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** One of the operator's servers, its reliability per UTC day (last 30 by default). */
export function getServerReliability(
  ownerUuid: string,
  serverId: string,
  signal?: AbortSignal,
): Promise<ServerReliabilityResponse> {
  return api.get<ServerReliabilityResponse>(
    RELIABILITY_ROUTES.serverReliability(ownerUuid, serverId),
    { signal, fallbackMessage: 'Failed to load the reliability history' },
  );
}
