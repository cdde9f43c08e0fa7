import {
  REACHABILITY_ROUTES,
  serverReachabilityResponseSchema,
  type ServerReachabilityResponse,
} from '@scn/proto';
import { api } from '../../../lib/api-client';

/**
 * `GET /data/servers/{id}/reachability` (public): where a server works, per country and network.
 * Checked against the contract's schema: a row the table cannot read is an error, not a blank.
 */
export async function getServerReachability(
  serverId: string,
  signal?: AbortSignal,
): Promise<ServerReachabilityResponse> {
  const body = await api.get<unknown>(REACHABILITY_ROUTES.server(serverId), {
    signal,
    fallbackMessage: 'Failed to load where this server works',
  });
  return serverReachabilityResponseSchema.parse(body);
}
