import { type ServerTrafficResponse, TRAFFIC_ROUTES } from '@scn/proto';
import { api } from '../../../lib/api-client';

/** An operator's server, its traffic per UTC day (last 30). */
export function getServerTraffic(
  ownerUuid: string,
  serverId: string,
  signal?: AbortSignal,
): Promise<ServerTrafficResponse> {
  return api.get<ServerTrafficResponse>(TRAFFIC_ROUTES.serverTraffic(ownerUuid, serverId), {
    signal,
    fallbackMessage: 'Failed to load the traffic',
  });
}
